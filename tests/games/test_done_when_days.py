"""Issue 23's "Done when", on the demo data of ``make run`` (``seed_demo``), through the API
and the director's services, with the clock moved by time-machine:

1. seeded a few minutes before a window ends, the demo's first deadline is hours away; all
   seats checking in to a scheduled Kill Game phase at 20:28 Rome open a next phase that
   lasts at least the minimum (half its window);
2. with one seat away, the others' check-ins close the phase;
3. after a pause, a resume and an extension every seat has an email saying so;
4. a player killed in a close gets an email that says they died.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import selectors
from games.models import Match
from games.services.phases import phases_close_due
from games.services.schedule import min_phase_minutes

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")
#: 21:24 Rome on a winter evening: six minutes before the Tactical window ends
SEEDED_AT = datetime(2026, 12, 1, 20, 24, tzinfo=timezone.utc)


def _login(username: str) -> Client:
    c = Client(raise_request_exception=False)
    c.force_login(get_user_model().objects.get(username=username))
    return c


def _post(c: Client, url: str, body: dict):
    return c.post(url, json.dumps(body), content_type="application/json")


def _checkin_all(match: Match, usernames) -> None:
    phase = selectors.current_phase(match)
    for username in usernames:
        r = _post(_login(username), reverse("games:api-checkin", args=[match.pk]),
                  {"phase_id": phase.pk})
        assert r.status_code == 200, (username, r.content)


def _seed() -> Match:
    from games.management.commands.run import seed_demo

    seed_demo(lambda *_: None)
    return Match.objects.get(game="killgame")


def test_a_scheduled_phase_after_an_early_close_lasts_at_least_the_minimum(settings):
    settings.OTP_REQUIRED_FOR_STAFF = False
    with time_machine.travel(SEEDED_AT, tick=False):
        match = _seed()
        first = selectors.current_phase(match)
        assert first.kind == "tactical"
        # seeded six minutes before 21:30: the first deadline is the next day's 21:30
        assert first.deadline_at - SEEDED_AT >= timedelta(minutes=min_phase_minutes(
            match.schedule, "tactical"))
        players = [s.user.username for s in match.seats.order_by("number")]
        _checkin_all(match, players)
        phases_close_due()
    action = selectors.current_phase(match)
    assert action.kind == "action" and action.number == first.number + 1
    # the Action phase runs to 13:00 Rome (15 h 30 after 21:30 less the six minutes)
    assert action.deadline_at - action.opens_at >= timedelta(minutes=min_phase_minutes(
        match.schedule, "action"))
    # all check in to the Action phase at 20:28 Rome the next day (a day end and a new
    # turn): the Tactical phase of turn 2 must not open with 62 minutes left
    at = datetime(2026, 12, 2, 19, 28, tzinfo=timezone.utc)
    with time_machine.travel(at, tick=False):
        action.deadline_at = at + timedelta(hours=1)  # an Action phase still open then
        action.save(update_fields=["deadline_at"])
        _checkin_all(match, players)
        phases_close_due()
    tactical = selectors.current_phase(match)
    assert tactical.kind == "tactical" and tactical.turn == 2
    length = tactical.deadline_at - tactical.opens_at
    assert length >= timedelta(minutes=min_phase_minutes(match.schedule, "tactical"))
    assert tactical.deadline_at.astimezone(ROME).strftime("%m-%d %H:%M") == "12-03 21:30"


def test_with_one_seat_away_the_others_check_ins_close_the_phase(settings):
    settings.OTP_REQUIRED_FOR_STAFF = False
    with time_machine.travel(SEEDED_AT, tick=False):
        match = _seed()
        phase = selectors.current_phase(match)
        players = [s.user.username for s in match.seats.order_by("number")]
        # demo1 declares 1–3 December away on the away page
        r = _login(players[0]).post(reverse("players:away"),
                                    {"first": "2026-12-01", "last": "2026-12-03"})
        assert r.status_code == 302, r.content
        _checkin_all(match, players[1:])
        page = _login(players[1]).get(reverse("games:match-detail", args=[match.pk]))
        n = len(players) - 1
        assert f"{n} of {n} active (1 away)" in page.content.decode()
        phases_close_due()
    phase.refresh_from_db()
    assert phase.closed_at == SEEDED_AT  # at once, a day before its deadline
    assert selectors.current_phase(match).kind == "action"


def _inbox(username: str) -> str:
    from django.core import mail

    email = get_user_model().objects.get(username=username).email
    return "\n".join(f"{m.subject}\n{m.body}" for m in mail.outbox if email in m.to)


def test_pause_resume_extension_reach_every_seat_and_the_dead_hear_they_died(settings):
    from django.core import mail
    from django.test import TestCase

    from games.services.director import match_pause, match_resume, phase_extend

    settings.OTP_REQUIRED_FOR_STAFF = False
    admin = get_user_model().objects.filter(username="admin")
    with time_machine.travel(SEEDED_AT, tick=False):
        match = _seed()
        director = admin.get()
        players = [s.user.username for s in match.seats.order_by("number")]
        mail.outbox.clear()
        # 3. the director pauses, resumes (an hour later) and extends: everyone is told
        with TestCase.captureOnCommitCallbacks(execute=True):
            match_pause(match=match, actor=director)
        with TestCase.captureOnCommitCallbacks(execute=True):
            match_resume(match=match, actor=director, now=SEEDED_AT + timedelta(hours=1))
        with TestCase.captureOnCommitCallbacks(execute=True):
            phase_extend(phase=selectors.current_phase(match), hours=2, actor=director)
        for username in players:
            box = _inbox(username)
            assert "The match is paused" in box, username
            assert "resumed the match" in box, username
            assert "extended the Tactical phase (turn 1)" in box, username
        # 4. the last seat dies in the Action close (no energy left): told so, with what
        # happened (turn 1's Tactical close only places the players)
        _checkin_all(match, players)
        phases_close_due()
        doomed = match.seats.order_by("number").last()
        match.refresh_from_db()
        state = dict(match.state)
        for p in state["players"]:
            if p["seat"] == doomed.number:
                p["energy"] = 0
        Match.objects.filter(pk=match.pk).update(state=state)
        mail.outbox.clear()
        _checkin_all(match, players)
        with TestCase.captureOnCommitCallbacks(execute=True):
            phases_close_due()
    box = _inbox(doomed.user.username)
    assert "You died" in box, box
    assert "You died in the Action phase of turn 1" in box
    assert "You died" not in _inbox(players[0])
    # what happened: the reader's own diary line of the close, in the same email
    assert "died" in box.split("You died in the Action phase of turn 1")[1].lower()
