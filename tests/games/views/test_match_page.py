"""The match page and its fragments: deadline in the viewer's time zone, "N of M checked
in", the no-JS order submit, stale forms, paused and finished matches, check-in and
withdraw, the poll (204 when unchanged), a full round closing into the diary, the leak
test with the guess game, and query counts that do not grow with the players.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games.models import Match, Order
from games.services.orders import order_submit
from games.services.seats import seat_checkin
from tests.games.views.conftest import client_for, make_user, new_match, open_phase, seat_of

pytestmark = pytest.mark.django_db

SECRET_GUESS = 97  # never a minute, a day or a small count: easy to spot in page text
MATCH_PAGE_MAX_QUERIES = 14 + 2  # measured 13 with 2 and with 12 players, + the press panel
LOBBY_MAX_QUERIES = 7  # measured 6 with 1 to 6 matches of 2 to 11 players


def detail_url(match):
    return reverse("games:match-detail", args=[match.pk])


def page_text(resp) -> str:
    """The human-readable text of an HTML answer (tags and attributes removed)."""
    html = resp.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def post_order(client, match, order_text, **extra):
    phase = open_phase(match)
    match.refresh_from_db()
    data = {"order": order_text, "phase_id": phase.pk if phase else "",
            "version": match.version, **extra}
    return client.post(reverse("games:order-submit", args=[match.pk]), data)


def test_page_shows_phase_deadline_in_viewer_timezone_and_checkin_count(running_match, player,
                                                                       player_client):
    Profile.objects.filter(user=player).update(timezone="America/New_York")
    phase = open_phase(running_match)
    resp = player_client.get(detail_url(running_match))
    assert resp.status_code == 200
    local = timezone.localtime(phase.deadline_at,
                               timezone=__import__("zoneinfo").ZoneInfo("America/New_York"))
    text = page_text(resp)
    assert local.strftime("%H:%M") in text
    assert local.tzname() in text  # EST / EDT
    assert "0 of 2 checked in" in text
    assert "Phase: Guess" in text
    assert f'datetime="{local.isoformat()}"' in resp.content.decode()


def test_no_js_order_submit_redirects_with_message(running_match, player_client):
    resp = post_order(player_client, running_match, '{"guess": 12}')
    assert resp.status_code == 302
    assert resp["Location"].startswith(detail_url(running_match))
    page = player_client.get(detail_url(running_match))
    text = page_text(page)
    assert "Your order is saved" in text
    assert "You guessed 12." in text  # the seat's own diary row
    assert Order.objects.filter(phase__match=running_match).count() == 1


@pytest.mark.parametrize("order_text,status,message", [
    ("not json", 400, "not valid JSON"),
    ("[1, 2]", 400, "must be a JSON object"),
    ('{"guess": "ten"}', 400, "whole number"),
    ('{"guess": 500}', 422, "from 1 to 100"),
    ('{"guess": 5, "extra": 1}', 400, "guess"),
    ("", 400, "required"),
])
def test_bad_orders_get_a_message_and_change_nothing(running_match, player_client, order_text,
                                                     status, message):
    before = Match.objects.get(pk=running_match.pk).version
    resp = post_order(player_client, running_match, order_text)
    assert resp.status_code == status
    assert message in page_text(resp)
    assert Match.objects.get(pk=running_match.pk).version == before
    assert not Order.objects.filter(phase__match=running_match).exists()


def test_stale_phase_and_version_are_refused(running_match, player, player2, player_client):
    phase = open_phase(running_match)
    running_match.refresh_from_db()
    old_version = running_match.version
    order_submit(match=running_match, seat=seat_of(running_match, player2), payload={"guess": 3})
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"order": '{"guess": 4}', "phase_id": phase.pk,
                               "version": old_version})
    assert resp.status_code == 409
    assert "changed since you loaded" in page_text(resp)
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"order": '{"guess": 4}', "phase_id": phase.pk + 1000})
    assert resp.status_code == 409
    assert "phase has changed" in page_text(resp)
    assert Order.objects.filter(seat__user=player).count() == 0


@pytest.mark.parametrize("junk,status", [("abc", 400), ("1.5", 400), ("-3", 409), ("", 302)])
@pytest.mark.parametrize("url", ["games:order-submit", "games:checkin"])
def test_junk_hidden_fields_get_a_message(running_match, player_client, junk, status, url):
    resp = player_client.post(reverse(url, args=[running_match.pk]),
                              {"order": '{"guess": 4}', "phase_id": junk, "version": junk})
    assert resp.status_code == status
    if status == 400:
        assert "This form is damaged" in page_text(resp)


def test_checkin_locks_orders_and_withdraw_unlocks(running_match, player_client):
    phase = open_phase(running_match)
    resp = player_client.post(reverse("games:checkin", args=[running_match.pk]),
                              {"phase_id": phase.pk})
    assert resp.status_code == 302
    page = page_text(player_client.get(detail_url(running_match)))
    assert "You are checked in" in page and "1 of 2 checked in" in page
    assert "Withdraw check-in" in page
    resp = post_order(player_client, running_match, '{"guess": 5}')
    assert resp.status_code == 409
    assert "already checked in" in page_text(resp)
    # a second check-in is idempotent, a withdraw unlocks
    resp = player_client.post(reverse("games:checkin-withdraw", args=[running_match.pk]),
                              {"phase_id": phase.pk})
    assert resp.status_code == 302
    resp = player_client.post(reverse("games:checkin-withdraw", args=[running_match.pk]),
                              {"phase_id": phase.pk})
    assert resp.status_code == 409
    assert "not checked in" in page_text(resp)
    assert post_order(player_client, running_match, '{"guess": 5}').status_code == 302


def test_paused_and_finished_matches_refuse_actions(running_match, player_client, staff):
    from games.services.matches import match_end, match_pause

    match_pause(match=running_match, actor=staff)
    resp = post_order(player_client, running_match, '{"guess": 5}')
    assert resp.status_code == 409 and "paused" in page_text(resp)
    resp = player_client.post(reverse("games:checkin", args=[running_match.pk]))
    assert resp.status_code == 409
    assert "paused" in page_text(player_client.get(detail_url(running_match)))
    match_end(match=Match.objects.get(pk=running_match.pk), actor=staff, reason="test")
    resp = post_order(player_client, running_match, '{"guess": 5}')
    assert resp.status_code == 409 and "over" in page_text(resp)
    page = player_client.get(detail_url(running_match))
    assert page.status_code == 200 and 'id="poller"' in page.content.decode()
    assert not Order.objects.filter(phase__match=running_match).exists()


def test_unknown_and_non_numeric_match_ids_are_404(player_client):
    assert player_client.get("/m/999999/").status_code == 404
    assert player_client.get("/m/abc/").status_code == 404
    assert player_client.post("/m/999999/order/", {"order": "{}"}).status_code == 404
    assert player_client.get("/m/999999/poll/?v=1").status_code == 404
    assert player_client.get("/join/not-a-code/").status_code == 404


def test_poll_is_204_when_unchanged_and_fragments_when_changed(running_match, player,
                                                               player2_client):
    running_match.refresh_from_db()
    url = reverse("games:match-poll", args=[running_match.pk])
    phase = open_phase(running_match)
    seen = {"v": running_match.version, "s": 0, "c": 0, "p": phase.pk, "o": 1}
    resp = player2_client.get(url, seen)
    assert resp.status_code == 204 and resp.content == b""
    seat_checkin(match=running_match, seat=seat_of(running_match, player))
    # another seat's check-in bumps no public version (it must not make my page stale),
    # but the poll's check-in count ("c") brings the "N of M checked in" line up to date
    running_match.refresh_from_db()
    assert running_match.version == seen["v"]
    resp = player2_client.get(url, seen, HTTP_HX_REQUEST="true")
    assert resp.status_code == 200
    body = resp.content.decode()
    running_match.refresh_from_db()
    assert f"?v={running_match.version}" in body  # the new poller
    for frag in ("phase-status", "board", "diary", "history", "seats"):
        assert re.search(rf'id="{frag}"[^>]*hx-swap-oob="true"', body), frag
    assert "1 of 2 checked in" in body
    # the order form is not replaced under the player's fingers, only its version
    assert 'id="order"' not in body
    assert f'id="order-version" hx-swap-oob="true"' in body.replace(
        f'value="{running_match.version}" ', "")
    # junk version: the fragments, never an error
    assert player2_client.get(url, {"v": "junk"}).status_code == 200


def test_full_round_closes_and_diary_updates(running_match, player, player2, player_client,
                                             player2_client, django_capture_on_commit_callbacks):
    assert post_order(player_client, running_match, '{"guess": 10}').status_code == 302
    assert post_order(player2_client, running_match, '{"guess": 90}').status_code == 302
    first = open_phase(running_match)
    with django_capture_on_commit_callbacks(execute=True):
        player_client.post(reverse("games:checkin", args=[running_match.pk]),
                           {"phase_id": first.pk})
    with django_capture_on_commit_callbacks(execute=True):
        player2_client.post(reverse("games:checkin", args=[running_match.pk]),
                            {"phase_id": first.pk})
    first.refresh_from_db()
    assert first.closed_at is not None
    text = page_text(player_client.get(detail_url(running_match)))
    assert "Your guess was 10." in text
    assert "Round 1: the number was" in text
    assert "Turn 1" in text and "Turn 2" in text or "Earlier phases" in text
    assert "guessed 90" not in text  # bob's reveal is bob's alone
    assert "0 of 2 checked in" in text  # the next phase is open


def test_finished_match_shows_outcome(player, player2, player_client, player2_client,
                                      django_capture_on_commit_callbacks):
    match = new_match(creator=player, players=[player, player2], start=True,
                      config={"rounds": 1, "timing": "check"})
    post_order(player_client, match, '{"guess": 50}')
    for c in (player_client, player2_client):
        with django_capture_on_commit_callbacks(execute=True):
            c.post(reverse("games:checkin", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    resp = player2_client.get(detail_url(match))
    text = page_text(resp)
    assert "The match is over" in text and "Won by alice" in text
    html = resp.content.decode()
    # no polling a finished match (the nav's unread-messages badge polls the user, not it)
    assert 'id="poller" hx-get' not in html and 'id="press-list" hx-get' not in html


def test_no_leak_of_another_players_guess(running_match, player, player2, player_client,
                                          player2_client, stranger_client, staff_client):
    order_submit(match=running_match, seat=seat_of(running_match, player),
                 payload={"guess": SECRET_GUESS})
    running_match.refresh_from_db()
    secret = re.compile(rf"\b{SECRET_GUESS}\b")
    # positive control: the player and the director do see it
    assert secret.search(page_text(player_client.get(detail_url(running_match))))
    assert secret.search(page_text(staff_client.get(detail_url(running_match))))
    for client in (player2_client, stranger_client):
        assert not secret.search(page_text(client.get(detail_url(running_match))))
        poll = client.get(reverse("games:match-poll", args=[running_match.pk]), {"v": 0})
        assert poll.status_code == 200 and not secret.search(page_text(poll))
        api = client.get(reverse("games:api-match", args=[running_match.pk])).json()
        assert api["view"]["my_guess"] is None and "guesses" not in api["view"]
        assert SECRET_GUESS not in _numbers(api["view"])
        diary = client.get(reverse("games:api-diary", args=[running_match.pk])).json()
        assert all(not secret.search(e["text"]) for e in diary["entries"])


def _numbers(value) -> set:
    if isinstance(value, dict):
        return set().union(*(_numbers(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_numbers(v) for v in value)) if value else set()
    return {value} if isinstance(value, int) and not isinstance(value, bool) else set()


def _match_with(n_players: int):
    users = [make_user(f"p{n_players}_{i}") for i in range(n_players)]
    match = new_match(creator=users[0], players=users, start=True, name=f"m{n_players}")
    for u in users[1:]:
        order_submit(match=Match.objects.get(pk=match.pk), seat=seat_of(match, u),
                     payload={"guess": 5})
    return match, users[0]


def test_match_page_queries_do_not_grow_with_players(django_assert_max_num_queries):
    small, u_small = _match_with(2)
    big, u_big = _match_with(12)
    for match, user in ((small, u_small), (big, u_big)):
        c = client_for(user)
        with django_assert_max_num_queries(MATCH_PAGE_MAX_QUERIES):
            assert c.get(detail_url(match)).status_code == 200
        with django_assert_max_num_queries(MATCH_PAGE_MAX_QUERIES):
            assert c.get(reverse("games:match-poll", args=[match.pk]), {"v": 0}).status_code == 200


def test_lobby_queries_do_not_grow_with_players_or_matches(django_assert_max_num_queries):
    viewer = make_user("viewer")
    for n in (2, 6, 10):
        _match_with(n)
        users = [make_user(f"f{n}_{i}") for i in range(n)]
        new_match(creator=users[0], players=users + [viewer], name=f"forming {n}")
        c = client_for(viewer)
        with django_assert_max_num_queries(LOBBY_MAX_QUERIES):
            resp = c.get(reverse("games:lobby"), {"status": "all"})
        assert resp.status_code == 200
    assert get_user_model().objects.count() > 30


def test_messages_are_shown_once(running_match, player_client):
    resp = post_order(player_client, running_match, '{"guess": 12}')
    msgs = [str(m) for m in get_messages(resp.wsgi_request)]
    assert any("saved" in m for m in msgs)


def test_a_match_of_an_uninstalled_game_never_500s(running_match, player_client):
    from games import registry

    registry.unregister("guess")
    assert player_client.get(detail_url(running_match)).status_code == 200
    poll = player_client.get(reverse("games:match-poll", args=[running_match.pk]), {"v": 0})
    assert poll.status_code == 200
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"order": '{"guess": 5}'})
    assert resp.status_code == 409 and "not installed" in page_text(resp)
    resp = player_client.post(reverse("games:api-order-submit", args=[running_match.pk]),
                              '{"order": {"guess": 5}}', content_type="application/json")
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "GAME_NOT_INSTALLED"
    assert player_client.get(reverse("games:api-match", args=[running_match.pk])).status_code == 200
    assert player_client.get("/").status_code == 200


def test_htmx_actions_answer_with_fragments(running_match, player_client):
    phase = open_phase(running_match)
    running_match.refresh_from_db()
    hx = {"HTTP_HX_REQUEST": "true"}
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"order": '{"guess": 44}', "phase_id": phase.pk,
                               "version": running_match.version}, **hx)
    assert resp.status_code == 200
    body = resp.content.decode()
    for frag in ("messages", "poller", "phase-status", "order", "board", "diary"):
        assert re.search(rf'id="{frag}"[^>]*hx-swap-oob="true"', body), frag
    assert "Your order is saved" in body and "You guessed 44." in body
    assert "<html" not in body
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"order": "{oops", "phase_id": phase.pk}, **hx)
    assert resp.status_code == 400 and "not valid JSON" in resp.content.decode()
    assert "<html" not in resp.content.decode()
    resp = player_client.post(reverse("games:checkin", args=[running_match.pk]),
                              {"phase_id": phase.pk}, **hx)
    assert resp.status_code == 200 and "You checked in." in resp.content.decode()
    assert "1 of 2 checked in" in resp.content.decode()
    resp = player_client.post(reverse("games:checkin", args=[running_match.pk]),
                              {"phase_id": phase.pk + 1000}, **hx)
    assert resp.status_code == 409
    # the refusal stands next to the check-in control, inside the phase fragment
    section = resp.content.decode().split('id="phase-status"', 1)[1].split("</section>", 1)[0]
    assert 'id="checkin-error"' in section and "phase has changed" in section


def test_pages_follow_the_profile_language(running_match, player, player_client):
    """Italian players get the framework pages in Italian (games/locale/it)."""
    Profile.objects.filter(user=player).update(language="it")
    text = page_text(player_client.get(detail_url(running_match)))
    assert "I tuoi ordini" in text and "Check-in: ho finito" in text
    assert "0 su 2 hanno fatto il check-in" in text
    text = page_text(player_client.get(reverse("games:lobby")))
    assert "Le mie partite" in text and "Tocca a te" in text
    resp = post_order(player_client, running_match, '{"guess": 12}')
    page = page_text(player_client.get(detail_url(running_match)))
    assert resp.status_code == 302 and "Il tuo ordine è salvato" in page
