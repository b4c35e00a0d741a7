"""The new-phase email carries the reader's diary lines of the phase that closed and what
they can do now (the Kill Game block included through the registry's email hook)."""

from __future__ import annotations

import re

import pytest

from games import emails
from games.models import Notification
from tests.killgame.web.conftest import close_phase, kg_match, seat_of, submit

pytestmark = pytest.mark.django_db


def test_new_phase_email_has_diary_lines_and_what_you_can_do_now(db):
    match, users = kg_match(3)
    alice, bob, carol = users
    submit(match, alice, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, bob, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, carol, {"type": "start_zone", "zone": "cave_sud_est"})
    close_phase(match)
    n = Notification.objects.filter(recipient=alice, match=match,
                                    kind=Notification.Kind.NEW_PHASE).latest("id")
    assert n.payload["seat"] == seat_of(match, alice).number
    msg = emails.build(n)
    text = msg.body
    html = msg.alternatives[0][0]
    assert "You start in Ponte Ovest." in text  # the diary of the phase that closed
    assert "What you can do now:" in text and "What you can do now:" in html
    # the one monster, placed by the match's random seed, may share the zone
    assert re.search(r"You are in Ponte Ovest with u1(, a monster)?\.", text), text
    assert "You can attack with: sniper rifle, fists." in text
    # only the reader's own lines: Carol's start zone is not in Alice's mail
    # (the next zone to close is drawn by the match's seed: it may be Cave Sud-Est)
    assert "Cave Sud-Est" not in re.sub(r"Next zone to close: [^.]*\.", "", text)
    close_phase(match)
    n = Notification.objects.filter(recipient=alice, match=match,
                                    kind=Notification.Kind.NEW_PHASE).latest("id")
    text = emails.build(n).body
    assert "You can move to" in text and "The market is" in text


def test_a_batch_shares_the_body_and_gives_each_reader_only_their_own_parts(
        db, mailoutbox):
    """The outbox renders a close's emails once per batch (emails.SHARED_KINDS) and fills
    in each reader's own diary lines and "what you can do now": nobody gets another's."""
    from games.services.outbox import notifications_send_batch

    match, users = kg_match(3)
    alice, bob, carol = users
    submit(match, alice, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, bob, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, carol, {"type": "start_zone", "zone": "cave_sud_est"})
    Notification.objects.all().delete()
    close_phase(match)
    rows = Notification.objects.filter(match=match, kind=Notification.Kind.NEW_PHASE)
    mailoutbox.clear()
    Notification.objects.filter(pk__in=rows).update(sent_at=None, claimed_until=None)
    report = notifications_send_batch(ids=[n.pk for n in rows])
    assert len(report.sent) == 3 == len(mailoutbox)
    by_reader = {m.to[0]: (m.body, m.alternatives[0][0]) for m in mailoutbox}
    for user, start, other in ((alice, "Ponte Ovest", "Cave Sud-Est"),
                               (bob, "Ponte Ovest", "Cave Sud-Est"),
                               (carol, "Cave Sud-Est", "Ponte Ovest")):
        text, html = by_reader[user.email]
        assert f"Hello {user.username}," in text and f"You start in {start}." in text
        assert f"You are in {start}" in text and f"You are in {start}" in html
        assert f"You start in {other}." not in text + html
        assert f"You are in {other}" not in text + html
        assert "PBWREADER" not in text + html
        assert max(len(line.encode()) for line in html.splitlines()) <= 500


def test_a_closed_zone_reads_the_right_phase_words(db):
    """Issue 23: an Action-phase email told a player to "leave it in this Tactical phase"."""
    from games import selectors
    from games.registry import get_rules
    from killgame.pages import now_lines

    match, users = kg_match(3)
    alice, bob, carol = users
    for user, zone in ((alice, "ponte_ovest"), (bob, "ponte_ovest"), (carol, "cave_sud_est")):
        submit(match, user, {"type": "start_zone", "zone": zone})
    close_phase(match)  # the Action phase of turn 1
    match.refresh_from_db()
    engine = get_rules("killgame")
    seat = seat_of(match, alice).number
    view = engine.player_view(engine.load(match.state), seat)
    view = dict(view) if isinstance(view, dict) else view
    assert view["phase"] == "action"
    view["zone"] = {**view["zone"], "closed": True}
    lines = now_lines(view, selectors.seat_names(match))
    assert "Your zone is closed: leave it in the next Tactical phase." in lines
    assert not any("this Tactical phase" in line for line in lines)
