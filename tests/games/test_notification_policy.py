"""Who hears about what (games/services/notifications.py): the modes "when it's my move"
(default), "every phase", "daily digest", "off", the per-match override, ask-based
coalescing (quiet period, on the page), and every email kind's links absolute on
SITE_URL."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from accounts.models import Profile
from games import emails, registry, selectors, tasks
from games.lib import presence
from games.models import Notification, Seat
from games.services.notifications import new_phase_rows, seat_email_mode_set
from games.services.orders import order_submit
from games.services.phases import phase_close
from tests.factories import make_match, make_user
from tests.games import guessgame

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


@pytest.fixture
def coalescing_guess():
    """The guess game registered as an ask-based game (``email_coalesce``)."""
    registry.register(guessgame, registry.GameHooks(email_coalesce=True))
    yield
    registry.register(guessgame)


def _close(match, now):
    """Close the open phase at ``now``; its emails are sent (on commit) at ``now`` too."""
    from django.test import TestCase

    phase = selectors.current_phase(match)
    with time_machine.travel(now, tick=False), TestCase.captureOnCommitCallbacks(execute=True):
        phase_close(phase_id=phase.pk, now=now, force=True)
    return selectors.current_phase(match)


def _phase_rows(match):
    return Notification.objects.filter(match=match, kind__in=["new_phase", "your_turn"])


def test_modes_per_user_and_the_per_match_override(django_capture_on_commit_callbacks):
    me_move, every, digest, off = (make_user(email_mode=m)
                                   for m in ("my_move", "per_phase", "digest", "off"))
    match = make_match(users=[me_move, every, digest, off])
    closed = selectors.current_phase(match)
    opened = closed  # reuse a saved row as "the next phase"; only awaited differs
    seats = {s.user_id: s for s in match.seats.all()}
    opened.awaited = [seats[every.pk].number]  # the next phase awaits only "every"
    rows = new_phase_rows(match=match, closed=closed, opened=opened, from_seq=1, to_seq=0)
    assert {r.recipient_id: r.kind for r in rows} == {every.pk: "your_turn"}
    opened.awaited = [seats[me_move.pk].number]
    rows = new_phase_rows(match=match, closed=closed, opened=opened, from_seq=1, to_seq=0)
    assert {r.recipient_id: r.kind for r in rows} == {me_move.pk: "your_turn",
                                                      every.pk: "new_phase"}
    # per-match override: "off" here silences my_move; "every phase" wakes up "off"
    seat_email_mode_set(seat=seats[me_move.pk], mode="off")
    seat_email_mode_set(seat=seats[off.pk], mode="per_phase")
    seats = {s.user_id: s for s in Seat.objects.filter(match=match)
             .select_related("user__profile")}
    rows = new_phase_rows(match=match, closed=closed, opened=opened, from_seq=1, to_seq=0,
                          seats=list(seats.values()))
    assert {r.recipient_id for r in rows} == {every.pk, off.pk}


def test_the_override_form_on_the_match_page(client):
    user = make_user()
    match = make_match(users=[user, make_user()])
    client.force_login(user)
    page = client.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert 'id="email-pref"' in page
    url = reverse("games:seat-email", args=[match.pk])
    assert client.post(url, {"email_mode": "digest"}).status_code == 302
    assert Seat.objects.get(match=match, user=user).email_mode == "digest"
    bad = client.post(url, {"email_mode": "hourly"})
    assert bad.status_code == 400 and "Choose one of the email options" in bad.content.decode()
    assert Seat.objects.get(match=match, user=user).email_mode == "digest"  # unchanged
    stranger = make_user()
    client.force_login(stranger)
    assert client.post(url, {"email_mode": "off"}).status_code == 403


def test_ask_based_games_send_one_email_per_quiet_period(coalescing_guess, settings,
                                                         django_capture_on_commit_callbacks):
    alice, bob = make_user("alice"), make_user("bob")
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(users=[alice, bob], schedule={"mode": "duration", "hours": 1},
                           config={"rounds": 10})
    Notification.objects.filter(kind="match_started").delete()  # not what is measured
    mail.outbox.clear()
    _close(match, CURRENT_TIME + timedelta(minutes=1))
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, bob.email]
    mail.outbox.clear()
    # two minutes later another ask awaits them: held until the quiet period ends
    _close(match, CURRENT_TIME + timedelta(minutes=3))
    assert mail.outbox == []
    held = _phase_rows(match).filter(sent_at__isnull=True)
    assert held.count() == 2
    assert {r.next_attempt_at for r in held} == {CURRENT_TIME + timedelta(minutes=11)}
    # a third ask: still one waiting email each, not two
    third = _close(match, CURRENT_TIME + timedelta(minutes=5))
    assert _phase_rows(match).filter(sent_at__isnull=True).count() == 2
    # Bob answers meanwhile; at the end of the quiet period only Alice still has a move
    from games.services.seats import seat_checkin
    seat_checkin(match=match, seat=Seat.objects.get(match=match, user=bob), phase_id=third.pk)
    with time_machine.travel(CURRENT_TIME + timedelta(minutes=11, seconds=5), tick=False):
        tasks.notifications_send_pending.delay().get()
    assert [m.to[0] for m in mail.outbox] == [alice.email], [(m.to, m.subject, m.extra_headers) for m in mail.outbox]
    skipped = _phase_rows(match).get(recipient=bob, error__startswith="skipped")
    assert "nothing awaits" in skipped.error
    # the email describes the ask open now, not the one that created it
    assert _phase_rows(match).get(recipient=alice, sent_at__isnull=False,
                                  error="", phase=third) is not None


def test_no_your_move_email_while_the_player_is_on_the_page(coalescing_guess, client,
                                                             django_capture_on_commit_callbacks):
    alice, bob = make_user("alice"), make_user("bob")
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(users=[alice, bob], schedule={"mode": "duration", "hours": 1},
                           config={"rounds": 10})
    Notification.objects.filter(kind="match_started").delete()  # not what is measured
    client.force_login(alice)
    poll_at = CURRENT_TIME + timedelta(minutes=30)
    with time_machine.travel(poll_at, tick=False):
        assert client.get(reverse("games:match-poll", args=[match.pk])).status_code in (200, 204)
    mail.outbox.clear()
    _close(match, poll_at + timedelta(seconds=30))
    assert [m.to[0] for m in mail.outbox] == [bob.email]  # Alice is looking at the page
    row = _phase_rows(match).get(recipient=alice)
    assert row.sent_at is None
    assert row.next_attempt_at == poll_at + timedelta(seconds=settings_on_page())
    # she left without answering: once the window passed, the email goes out
    with time_machine.travel(poll_at + timedelta(minutes=3), tick=False):
        tasks.notifications_send_pending.delay().get()
    assert [m.to[0] for m in mail.outbox] == [bob.email, alice.email], [(m.to, m.subject) for m in mail.outbox]


def settings_on_page() -> int:
    from django.conf import settings

    return settings.EMAIL_ON_PAGE_SECONDS


def test_presence_window():
    presence.mark_seen(match_id=1, user_id=2, now=CURRENT_TIME)
    assert (1, 2) in presence.seen_at([(1, 2)], now=CURRENT_TIME + timedelta(seconds=60))
    assert presence.seen_at([(1, 2)], now=CURRENT_TIME + timedelta(minutes=3)) == {}


def test_presence_is_written_at_most_every_eighth_of_the_window():
    from django.core.cache import cache

    presence.mark_seen(match_id=1, user_id=2, now=CURRENT_TIME)
    cache.delete("onpage:1:2")  # so a second write would show
    presence.mark_seen(match_id=1, user_id=2, now=CURRENT_TIME + timedelta(seconds=10))
    assert cache.get("onpage:1:2") is None  # 10 s after the last write: skipped
    later = CURRENT_TIME + timedelta(seconds=15)
    presence.mark_seen(match_id=1, user_id=2, now=later)
    assert cache.get("onpage:1:2") == later.timestamp()
    presence.mark_seen(match_id=3, user_id=2, now=later + timedelta(seconds=1))
    assert cache.get("onpage:3:2") is not None  # another match: its own stamp


HREF = re.compile(r'href="([^"]+)"')


def test_every_email_kind_links_absolutely_to_the_site(settings, director):
    settings.SITE_URL = "https://phases.example.org"
    user = make_user(email_mode="per_phase")
    other = make_user()
    match = make_match(users=[user, other])
    order_submit(match=match, seat=match.seats.get(user=user), payload={"guess": 5})
    phase_close(phase_id=selectors.current_phase(match).pk, force=True)
    phase = selectors.current_phase(match)
    seat = match.seats.get(user=user).number
    payloads = {
        "new_phase": {"seat": seat, "phase_id": phase.pk, "from_seq": 1, "to_seq": 9},
        "your_turn": {"seat": seat, "phase_id": phase.pk, "from_seq": 1, "to_seq": 9},
        "reminder": {"seat": seat, "phase_id": phase.pk},
        "digest": {"since": CURRENT_TIME.isoformat(),
                   "sections": [{"match_id": match.pk, "seat": seat, "from_seq": 1,
                                 "to_seq": 9}]},
        "match_started": {"seat": seat, "phase_id": phase.pk},
        "match_finished": {"from_seq": 1, "to_seq": 9},
        "director": {"subject": "s", "message": "m"},
        "start_overdue": {"message": "m"},
        "match_news": {"seat": seat, "events": [
            {"event": e, "seat": seat, "old": "a", "new": "b", "turn": 1,
             "phase_kind": "guess", "deadline": CURRENT_TIME.isoformat(), "from_seq": 1,
             "to_seq": 9, "reason": "director"}
            for e in ("paused", "resumed", "extended", "seat_taken", "seat_open",
                      "replaced", "took_seat", "died", "cancelled")]},
    }
    assert set(payloads) == set(Notification.Kind.values)  # a new kind must be added here
    for kind, payload in payloads.items():
        recipient = director if kind == "director" else user
        n = Notification.objects.create(recipient=recipient, kind=kind, match=match,
                                        phase=phase, payload=payload)
        message = emails.build(n)
        html = message.alternatives[0][0] if hasattr(message.alternatives[0], "__getitem__") \
            else message.alternatives[0].content
        links = HREF.findall(html)
        assert links, kind
        for link in links:
            assert re.match(r"https://phases\.example\.org(/|$)", link), (kind, link)
        assert "https://phases.example.org/" in message.body, kind
        for url in re.findall(r"https?://\S+", message.body):
            assert re.match(r"https://phases\.example\.org(/|$)", url), (kind, url)
