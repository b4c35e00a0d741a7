"""Versus challenges (issue #10): the challenged player accepts (the match starts) or
declines (it is cancelled); an unanswered challenge expires after 48 h (swept); the
challenger sees the state; nobody else can answer; a rematch after a finished game;
versus 2 is the default and versus 1 is labelled as the prototype it is."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils.timezone import now as timezone_now

from diceslayer import services, tasks
from diceslayer.forms import VersusCreateForm
from diceslayer.models import Challenge
from games.models import Match
from tests.diceslayer.web.conftest import page_text, play_to_end

pytestmark = pytest.mark.django_db


def _challenge(client, opponent="bob", **fields):
    data = {"variant": "versus2", "against": "user", "opponent": opponent, "turn_hours": 24,
            "target_score": 10, **fields}
    resp = client.post(reverse("diceslayer:versus-new"), data)
    assert resp.status_code == 302, page_text(resp)[:500]
    return Match.objects.filter(game="diceslayer").latest("pk")


def _url(name, match):
    return reverse(f"diceslayer:{name}", args=[match.pk])


def test_accept_starts_the_match_and_the_challenger_saw_it_waiting(alice_client, bob_client, bob):
    match = _challenge(alice_client)
    assert match.status == Match.Status.FORMING and match.seats.count() == 1
    waiting = page_text(alice_client.get(_url("play", match)))
    assert "You challenged bob" in waiting and "Waiting for bob to accept or decline." in waiting
    home = page_text(bob_client.get(reverse("diceslayer:home")))
    assert "Challenges for you" in home and "alice challenges you" in home
    offer = page_text(bob_client.get(_url("play", match)))
    assert "alice challenges you" in offer and "Accept and start" in offer
    resp = bob_client.post(_url("challenge-accept", match))
    assert resp.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert sorted(match.seats.values_list("user__username", flat=True)) == ["alice", "bob"]
    assert Challenge.objects.get(match=match).status == Challenge.Status.ACCEPTED
    # answered once: a second accept (or a decline) is refused and changes nothing
    assert bob_client.post(_url("challenge-accept", match)).status_code == 409
    assert bob_client.post(_url("challenge-decline", match)).status_code == 409
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


def test_decline_cancels_and_the_challenger_sees_it(alice_client, bob_client):
    match = _challenge(alice_client)
    assert bob_client.post(_url("challenge-decline", match)).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED and match.state is None
    assert Challenge.objects.get(match=match).status == Challenge.Status.DECLINED
    assert "bob declined the challenge." in page_text(alice_client.get(_url("play", match)))
    home = page_text(alice_client.get(reverse("diceslayer:home")))
    assert "You challenged bob" in home and "Declined" in home
    assert bob_client.post(_url("challenge-accept", match)).status_code == 409


def test_the_challenger_may_withdraw_but_not_accept(alice_client, alice, bob):
    match = _challenge(alice_client)
    assert alice_client.post(_url("challenge-accept", match)).status_code == 403
    assert Match.objects.get(pk=match.pk).status == Match.Status.FORMING
    assert alice_client.post(_url("challenge-decline", match)).status_code == 302
    assert Challenge.objects.get(match=match).status == Challenge.Status.WITHDRAWN
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED


def test_a_stranger_cannot_accept_or_decline_someone_elses_challenge(alice_client, bob,
                                                                    mallory_client,
                                                                    mallory):
    match = _challenge(alice_client)
    # the page is private: for a stranger the challenge does not exist
    assert mallory_client.get(_url("play", match)).status_code == 404
    assert mallory_client.post(_url("challenge-accept", match)).status_code == 404
    assert mallory_client.post(_url("challenge-decline", match)).status_code == 404
    # and the service refuses them even when handed the match
    from games.exceptions import ApplicationError
    with pytest.raises(ApplicationError) as exc:
        services.challenge_accept(match=match, user=mallory)
    assert exc.value.status == 403
    match.refresh_from_db()
    assert match.status == Match.Status.FORMING and match.seats.count() == 1
    assert Challenge.objects.get(match=match).status == Challenge.Status.PENDING


def test_an_unanswered_challenge_expires_after_48_hours_by_the_sweep(alice_client, bob_client):
    match = _challenge(alice_client)
    challenge = Challenge.objects.get(match=match)
    assert challenge.expires_at - challenge.created_at == timedelta(hours=48)
    assert services.challenges_expire(now=challenge.expires_at - timedelta(minutes=1)) == 0
    assert Challenge.objects.get(match=match).is_pending
    assert services.challenges_expire(now=challenge.expires_at) == 1
    assert services.challenges_expire(now=challenge.expires_at) == 0  # idempotent
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    assert Challenge.objects.get(match=match).status == Challenge.Status.EXPIRED
    assert "The challenge expired" in page_text(alice_client.get(_url("play", match)))
    assert bob_client.post(_url("challenge-accept", match)).status_code == 409


def test_accepting_past_the_expiry_is_refused_and_expires_it(alice_client, bob):
    match = _challenge(alice_client)
    late = Challenge.objects.get(match=match).expires_at + timedelta(seconds=1)
    from games.exceptions import ApplicationError
    with pytest.raises(ApplicationError) as exc:
        services.challenge_accept(match=match, user=bob, now=late)
    assert exc.value.status == 409 and "expired" in exc.value.message
    assert Challenge.objects.get(match=match).status == Challenge.Status.EXPIRED
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED


def test_the_sweep_task_runs_the_service(alice, bob):
    match = services.versus_create(challenger=alice, opponent=bob)
    Challenge.objects.filter(match=match).update(expires_at=timezone_now() - timedelta(hours=1))
    assert tasks.challenges_expire.apply().get() == 1


def test_rematch_after_a_finished_game(alice, bob, alice_client, bob_client):
    match = services.versus_create(challenger=alice, opponent=bob, target_score=10,
                                   turn_hours=4)
    match = services.challenge_accept(match=match, user=bob)
    seats = {s.number: s.user for s in match.seats.select_related("user")}
    match = play_to_end(match, seats)
    assert match.status == Match.Status.FINISHED
    page = page_text(bob_client.get(_url("play", match)))
    assert "Rematch" in page
    resp = bob_client.post(_url("rematch", match))
    assert resp.status_code == 302
    new = Match.objects.filter(game="diceslayer").latest("pk")
    challenge = Challenge.objects.get(match=new)
    assert (challenge.challenger, challenge.opponent, challenge.rematch_of) == (bob, alice, match)
    assert new.config == match.config and new.schedule["hours"] == 4
    # pressing again returns the same offer; alice sees it and pressing it accepts it
    assert bob_client.post(_url("rematch", match))["Location"] == _url("play", new)
    assert "Accept bob's rematch" in page_text(alice_client.get(_url("play", match)))
    assert alice_client.post(_url("rematch", match))["Location"] == _url("play", new)
    new.refresh_from_db()
    assert new.status == Match.Status.RUNNING
    assert Challenge.objects.filter(rematch_of=match).count() == 1


def test_rematch_only_for_players_of_a_finished_game(alice, bob, mallory_client, alice_client):
    match = services.challenge_accept(
        match=services.versus_create(challenger=alice, opponent=bob), user=bob)
    assert alice_client.post(_url("rematch", match)).status_code == 409  # still running
    assert mallory_client.post(_url("rematch", match)).status_code == 404  # private
    assert not Challenge.objects.filter(rematch_of=match).exists()


def test_rematch_against_the_bot_starts_at_once(alice, alice_client):
    match = services.versus_create(challenger=alice, against_bot=True, target_score=10)
    seats = {s.number: s.user for s in match.seats.all()}
    match = play_to_end(match, seats)
    resp = alice_client.post(_url("rematch", match))
    new = Match.objects.filter(game="diceslayer").latest("pk")
    assert resp["Location"] == _url("play", new) and new.status == Match.Status.RUNNING
    assert new.seats.filter(is_bot=True).count() == 1


def test_versus_2_is_the_default_and_versus_1_says_it_is_a_prototype(alice_client):
    form = VersusCreateForm()
    assert form.fields["variant"].initial == "versus2"
    html = alice_client.get(reverse("diceslayer:versus-new")).content.decode()
    assert "Prototype 1 — most games end 0–0" in html
    assert html.index('value="versus2"') < html.index('value="versus1"')


def test_the_embedded_server_sweeper_expires_challenges(alice, bob, monkeypatch):
    """``manage.py run`` has no Celery beat: its sweeper runs the game's ``periodic`` jobs."""
    import threading

    from games.management.commands import run

    match = services.versus_create(challenger=alice, opponent=bob)
    Challenge.objects.filter(match=match).update(expires_at=timezone_now() - timedelta(hours=1))
    stop = threading.Event()
    real = services.challenges_expire
    calls = []

    def once(**kwargs):
        calls.append(real(**kwargs))
        stop.set()
        return calls[-1]

    monkeypatch.setattr(services, "challenges_expire", once)  # the job's function, by path
    monkeypatch.setattr(run, "close_old_connections", lambda: None)  # the test's transaction
    said: list[str] = []
    run.sweep_forever(0.01, stop, said.append)
    assert calls == [1], said
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED


def test_dice_slayer_registers_the_challenge_sweep():
    from games import registry
    from config.celery import beat_schedule

    [job] = registry.get_game("diceslayer").hooks.periodic
    assert job.function == "diceslayer.services.challenges_expire"
    assert beat_schedule()[job.name]["task"] == "diceslayer.tasks.challenges_expire"


def test_the_challenge_email_links_to_a_page_that_opens_for_the_challenged(
        alice_client, bob_client, bob, django_capture_on_commit_callbacks):
    import re

    from django.conf import settings
    from django.core import mail

    with django_capture_on_commit_callbacks(execute=True):
        match = _challenge(alice_client)
    sent = [m for m in mail.outbox if bob.email in m.to]
    assert sent, "the challenged player got no email"
    links = re.findall(r"https?://\S+", sent[-1].body)
    link = next(u for u in links if "/unsubscribe/" not in u)
    assert link == settings.SITE_URL + _url("play", match)
    page = bob_client.get(link.removeprefix(settings.SITE_URL))
    assert page.status_code == 200 and "Accept and start" in page_text(page)
