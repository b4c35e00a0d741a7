"""Names wherever a person reads (issue 10 §4): no diary line (player, spectator,
director), replay or email names a player by a seat placeholder such as ``p0``,
``player p2``, ``Seat 1`` or ``Player 2``; the reader is "you"."""

from __future__ import annotations

import re

from django.core import mail
from django.urls import reverse

from games import selectors
from games.models import Match
from tests.killgame.web.conftest import client_for, close_phase, kg_match, kg_tables  # noqa: F401

PLACEHOLDER = re.compile(r"\bp\d+\b|\b[Ss]eat \d+\b|\bPlayer \d+\b|\bgiocatore p\d+\b")


def assert_named(texts, where):
    for text in texts:
        assert not PLACEHOLDER.search(text), f"{where}: {text!r}"


def test_kill_game_diary_and_emails_name_players(db, django_capture_on_commit_callbacks):
    match, users = kg_match(3, config={"monster_count": 0})
    Match.objects.filter(pk=match.pk).update(bots_enabled=True)  # the bots fight
    mail.outbox.clear()
    for _ in range(8):
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING:
            break
        with django_capture_on_commit_callbacks(execute=True):
            close_phase(match)
    match.refresh_from_db()
    lines = {}
    for seat in match.seats.all():
        lines[seat.number] = [l.text for l in selectors.diary_for_seat(match, seat.number)]
        assert_named(lines[seat.number], f"seat {seat.number}")
    assert_named([l.text for l in selectors.diary_for_seat(match, None)], "spectator")
    director = [l.text for l in selectors.diary_for_seat(match, None, omniscient=True)]
    assert_named(director, "director")
    names = {u.username for u in users}
    assert any(name in text for text in director for name in names), director[:20]
    assert mail.outbox, "no email was sent"
    for message in mail.outbox:
        bodies = [message.subject, message.body] + [a[0] for a in message.alternatives]
        assert_named(bodies, f"email to {message.to}")
    html = client_for(users[0]).get(reverse("games:match-detail", args=[match.pk])).content
    text = re.sub(r"<[^>]+>", " ", html.decode()).replace("You are seat 1", "")
    text = re.sub(r"\(seat \d+\)", "", text)  # "u1 (seat 1)": a name with its seat
    assert_named([text], "match page")


def test_guess_game_lines_say_names_and_you(db):
    from games.services.orders import order_submit
    from games.services.phases import phase_close
    from tests.factories import make_match

    match = make_match(players=2)
    a, b = match.seats.order_by("number")
    phase = selectors.current_phase(match)
    order_submit(match=match, seat=a, payload={"guess": 10})
    order_submit(match=match, seat=b, payload={"guess": 90})
    phase_close(phase_id=phase.pk, force=True)
    texts = [l.text for l in selectors.diary_for_seat(match, 0, omniscient=True)]
    assert_named(texts, "guess")
    assert any(b.user.username in t for t in texts), texts
