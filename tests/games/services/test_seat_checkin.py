"""Check-in: the one predicate (seats with nothing to do count as checked in), withdraw,
final check-ins, counts, and reminders that use the same predicate."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from games import selectors
from games.exceptions import ApplicationError
from games.models import Notification, Phase
from games.services.notifications import seats_send_nags
from games.services.seats import (seat_checkin, seat_checkin_withdraw, seat_is_checked_in,
                                  seat_remove)
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


@pytest.fixture
def traveller():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        yield traveller


def test_seats_not_awaited_count_as_checked_in(traveller):
    match = make_match(players=3)
    phase = selectors.current_phase(match)
    s0, s1, s2 = match.seats.order_by("number")
    Phase.objects.filter(pk=phase.pk).update(awaited=[0, 1])  # seat 2 is "dead"
    phase.refresh_from_db()
    assert seat_is_checked_in(phase, s2)
    assert not seat_is_checked_in(phase, s0)
    assert selectors.checkin_counts(phase) == (0, 2)  # the dead never count
    seat_checkin(match=match, seat=s0)
    assert seat_is_checked_in(phase, s0)
    assert selectors.checkin_counts(phase) == (1, 2)
    with pytest.raises(ApplicationError) as err:
        seat_checkin(match=match, seat=s2)
    assert err.value.code == "NOT_AWAITED"


def test_checkin_of_the_last_living_seat_closes(traveller, django_capture_on_commit_callbacks):
    match = make_match(players=3)
    phase = selectors.current_phase(match)
    Phase.objects.filter(pk=phase.pk).update(awaited=[0, 1])
    s0, s1, _ = match.seats.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        seat_checkin(match=match, seat=s0)
        seat_checkin(match=match, seat=s1)
    phase.refresh_from_db()
    assert phase.closed_at is not None


def test_a_removed_player_no_longer_holds_up_the_phase(traveller, director,
                                                       django_capture_on_commit_callbacks):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    s0, s1 = match.seats.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        seat_checkin(match=match, seat=s0)
    with django_capture_on_commit_callbacks(execute=True):
        seat_remove(seat=s1, actor=director)
    phase.refresh_from_db()
    assert phase.closed_at is not None
    assert match.director_actions.filter(action="remove_seat").exists()


def test_checkin_can_be_withdrawn_unless_final(traveller):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    seat = match.seats.get(number=0)
    seat_checkin(match=match, seat=seat)
    seat_checkin_withdraw(match=match, seat=seat, phase_id=phase.pk)
    assert not seat_is_checked_in(phase, seat)
    with pytest.raises(ApplicationError) as err:
        seat_checkin_withdraw(match=match, seat=seat)
    assert err.value.code == "NOT_CHECKED_IN"
    Phase.objects.filter(pk=phase.pk).update(checkin_final=True)
    seat_checkin(match=match, seat=seat)
    with pytest.raises(ApplicationError) as err:
        seat_checkin_withdraw(match=match, seat=seat)
    assert err.value.code == "CHECKIN_FINAL"
    assert seat_is_checked_in(phase, seat)


def test_checkin_with_a_stale_phase_is_refused(traveller):
    match = make_match(players=1)
    with pytest.raises(ApplicationError) as err:
        seat_checkin(match=match, seat=match.seats.get(), phase_id=999999)
    assert err.value.code == "STALE_PHASE"


def test_reminders_go_once_to_awaited_seats_not_checked_in(traveller,
                                                           django_capture_on_commit_callbacks,
                                                           mailoutbox):
    early = make_user(reminder_hours=6)
    normal = make_user()  # default 3 h
    done = make_user()
    dead = make_user()
    never = make_user(reminder_hours=0)
    match = make_match(users=[early, normal, done, dead, never])
    phase = selectors.current_phase(match)
    by_user = {s.user_id: s for s in match.seats.all()}
    Phase.objects.filter(pk=phase.pk).update(
        awaited=[s.number for s in match.seats.all() if s.user_id != dead.pk])
    seat_checkin(match=match, seat=by_user[done.pk])
    deadline = phase.deadline_at
    assert by_user[early.pk].next_nag_at == deadline - timedelta(hours=6)
    traveller.move_to(deadline - timedelta(hours=5))
    with django_capture_on_commit_callbacks(execute=True):
        assert seats_send_nags() == 1
    traveller.move_to(deadline - timedelta(hours=2))
    with django_capture_on_commit_callbacks(execute=True):
        assert seats_send_nags() == 1
        assert seats_send_nags() == 0  # once per phase
    reminded = set(Notification.objects.filter(kind="reminder").values_list("recipient", flat=True))
    assert reminded == {early.pk, normal.pk}
    assert sorted(m.to[0] for m in mailoutbox if "Reminder" in m.subject) == sorted(
        [early.email, normal.email])
