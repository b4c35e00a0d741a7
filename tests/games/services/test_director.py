"""The director's deadline edits are bounded: at most 48 h per extend, and a double-submitted
extend (same token) applies once. Seat replacement."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from games import selectors
from games.exceptions import ApplicationError
from games.models import DirectorAction, Phase
from games.services.phases import phase_extend
from games.services.seats import seat_replace
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


def test_extend_is_bounded_and_a_double_submit_applies_once(director):
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(players=1)
        phase = selectors.current_phase(match)
        start = phase.deadline_at
        for bad in (0, -1, 48.5, 1000, "x"):
            with pytest.raises(ApplicationError) as err:
                phase_extend(phase=phase, hours=bad, actor=director, token=f"t{bad}")
            assert err.value.field == "hours"
        assert phase_extend(phase=phase, hours=48, actor=director, token="form-1") is True
        assert phase_extend(phase=phase, hours=48, actor=director, token="form-1") is False
        assert Phase.objects.get(pk=phase.pk).deadline_at == start + timedelta(hours=48)
        assert phase_extend(phase=phase, hours=2, actor=director, token="form-2") is True
        assert Phase.objects.get(pk=phase.pk).deadline_at == start + timedelta(hours=50)
        assert DirectorAction.objects.filter(action="extend").count() == 2


def test_extend_a_phase_without_deadline_or_closed_is_refused(director):
    match = make_match(players=1, config={"timing": "none"})
    phase = selectors.current_phase(match)
    assert phase.deadline_at is None
    with pytest.raises(ApplicationError) as err:
        phase_extend(phase=phase, hours=1, actor=director, token="a")
    assert err.value.code == "NO_DEADLINE"


def test_replace_a_player_by_another_user_or_the_bot(director):
    match = make_match(players=2)
    seat = match.seats.get(number=1)
    newcomer = make_user()
    seat_replace(seat=seat, user=newcomer, actor=director)
    assert selectors.seat_for_user(match, newcomer).number == 1
    with pytest.raises(ApplicationError):
        seat_replace(seat=match.seats.get(number=0), user=newcomer, actor=director)
    seat_replace(seat=seat, bot=True, actor=director)
    seat.refresh_from_db()
    assert seat.is_bot and seat.user is None
    assert DirectorAction.objects.filter(action="replace_seat").count() == 2
