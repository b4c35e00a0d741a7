"""Reminders that help (issue 23): the lead grows with the phase's length, never before
three quarters of it, none for a short phase, never to a player who acted, checked in or
is on the page, at most one per phase and player."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from games import selectors
from games.lib import presence
from games.models import Notification, Phase
from games.services.notifications import reminder_at, seats_send_nags
from games.services.orders import order_submit
from games.services.seats import seat_checkin
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
#: 23:00 UTC, the night the clocks go back in Europe: the phases end after midnight
CURRENT_TIME = datetime(2026, 10, 24, 23, 0, tzinfo=timezone.utc)


def _phase(hours: float) -> Phase:
    return Phase(opens_at=CURRENT_TIME, deadline_at=CURRENT_TIME + timedelta(hours=hours))


def test_the_lead_grows_with_the_phase():
    assert reminder_at(_phase(24), 3) == CURRENT_TIME + timedelta(hours=21)
    assert reminder_at(_phase(1), 3) == CURRENT_TIME + timedelta(minutes=45)  # not at once
    assert reminder_at(_phase(1 / 60), 3) is None  # a 1-minute ask: no reminder
    assert reminder_at(_phase(24), 0) is None  # the reader turned them off


def _nag_all(match, at):
    with time_machine.travel(at, tick=False):
        return seats_send_nags(now=at)


def test_one_reminder_per_phase_and_never_to_who_acted_or_is_on_the_page():
    users = [make_user(reminder_hours=3) for _ in range(4)]
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(users=users, config={"rounds": 3},
                           schedule={"mode": "duration", "hours": 1})
        s0, s1, s2, s3 = match.seats.order_by("number")
        phase = selectors.current_phase(match)
        seat_checkin(match=match, seat=s1)
        order_submit(match=match, seat=s2, payload={"guess": 5})
    # too early: nothing (the 1-hour phase's reminder is 15 minutes before its end)
    assert _nag_all(match, CURRENT_TIME + timedelta(minutes=10)) == 0
    at = CURRENT_TIME + timedelta(minutes=46)
    presence.mark_seen(match_id=match.pk, user_id=s3.user_id, now=at)
    assert _nag_all(match, at) == 1
    reminded = set(Notification.objects.filter(kind="reminder", phase=phase)
                   .values_list("recipient_id", flat=True))
    assert reminded == {s0.user_id}
    assert _nag_all(match, at + timedelta(minutes=5)) == 0  # once per phase
