"""The sweep: catch-up after a short downtime (every overdue phase closes, in deadline
order) and the dead-man switch after a long one (deadlines pushed back by the outage)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.conf import settings

from games import selectors
from games.models import Phase, SweepHeartbeat
from games.services.phases import phases_close_due, sweep_heartbeat, try_close_one_due_phase
from tests.factories import make_match

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


def _matches_due_at(offsets_minutes):
    """One running match per offset; its phase falls due CURRENT_TIME + offset."""
    matches = []
    for minutes in offsets_minutes:
        match = make_match(players=1, now=CURRENT_TIME,
                           schedule={"mode": "duration", "hours": 1})
        Phase.objects.filter(match=match).update(
            deadline_at=CURRENT_TIME + timedelta(minutes=minutes))
        matches.append(match)
    return matches


def test_after_a_short_outage_every_overdue_phase_closes_in_order():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        SweepHeartbeat.objects.create(pk=1, last_run_at=CURRENT_TIME)
        matches = _matches_due_at([5, 1, 3])
        first_phases = {m.pk: selectors.current_phase(m).pk for m in matches}
        traveller.move_to(CURRENT_TIME + timedelta(minutes=8))  # < dead-man limit
        assert phases_close_due() == 3
        closed = Phase.objects.filter(pk__in=first_phases.values()).order_by("closed_at", "id")
        # one `now` for the whole sweep; the order is the deadline order (ids follow it)
        assert [p.deadline_at.minute for p in Phase.objects.filter(
            pk__in=first_phases.values()).order_by("deadline_at")] == [1, 3, 5]
        assert all(p.closed_at is not None for p in closed)
        assert phases_close_due() == 0


def test_sweep_closes_in_deadline_order():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        _matches_due_at([5, 1, 3])
        traveller.move_to(CURRENT_TIME + timedelta(minutes=6))
        order = []
        seen: set[int] = set()
        while try_close_one_due_phase():
            closed = set(Phase.objects.filter(closed_at__isnull=False).values_list("id", flat=True))
            (new,) = closed - seen
            seen = closed
            order.append(Phase.objects.get(pk=new).deadline_at)
        assert [d.minute for d in order] == [1, 3, 5]


def test_dead_man_switch_pushes_deadlines_missed_during_a_long_outage():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        SweepHeartbeat.objects.create(pk=1, last_run_at=CURRENT_TIME)
        late, missed = _matches_due_at([30, 90])
        untouched = _matches_due_at([600])[0]
        outage_end = CURRENT_TIME + timedelta(hours=2)
        traveller.move_to(outage_end)
        assert phases_close_due() == 0  # nobody is punished for our downtime
        outage = timedelta(hours=2)
        assert selectors.current_phase(late).deadline_at == CURRENT_TIME + timedelta(minutes=30) + outage
        assert selectors.current_phase(missed).deadline_at == CURRENT_TIME + timedelta(minutes=90) + outage
        assert selectors.current_phase(untouched).deadline_at == CURRENT_TIME + timedelta(minutes=600)
        assert SweepHeartbeat.objects.get(pk=1).last_run_at == outage_end
        # the next sweep finds a fresh heartbeat: no second shift; the phases close on time
        closes = 0
        for minutes in range(5, 35, 5):  # the beat is back: a sweep every 5 minutes
            traveller.move_to(outage_end + timedelta(minutes=minutes))
            closes += phases_close_due()
        assert closes == 1
        assert selectors.current_phase(late).number == 2


def test_dead_man_switch_is_quiet_within_the_limit_and_on_the_first_run():
    with time_machine.travel(CURRENT_TIME, tick=False):
        assert sweep_heartbeat(now=CURRENT_TIME) is None  # first ever run
        limit = timedelta(minutes=settings.DEAD_MAN_SWITCH_MINUTES)
        assert sweep_heartbeat(now=CURRENT_TIME + limit) is None
        assert sweep_heartbeat(now=CURRENT_TIME + limit * 3) == limit * 2


def test_one_crashing_phase_in_a_batch_does_not_hold_back_the_others():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        good = _matches_due_at([1, 3])
        bad = make_match(players=1, config={"crash": True}, now=CURRENT_TIME)
        Phase.objects.filter(match=bad).update(deadline_at=CURRENT_TIME + timedelta(minutes=2))
        traveller.move_to(CURRENT_TIME + timedelta(minutes=5))
        assert phases_close_due() == 2
        assert all(selectors.current_phase(m).number == 2 for m in good)
        failed = Phase.objects.get(match=bad)
        assert failed.closed_at is None and failed.close_failures == 1
        assert bad.__class__.objects.get(pk=bad.pk).version == bad.version  # untouched


def test_a_database_error_in_a_batch_is_retried_phase_by_phase(monkeypatch):
    from django.db import IntegrityError

    from games.services import phases

    real_write = phases._write

    def write(closings, now):
        if len(closings) > 1:
            raise IntegrityError("simulated")
        return real_write(closings, now)

    monkeypatch.setattr(phases, "_write", write)
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        matches = _matches_due_at([1, 2, 3])
        traveller.move_to(CURRENT_TIME + timedelta(minutes=5))
        assert phases_close_due() == 3
        assert all(selectors.current_phase(m).number == 2 for m in matches)
        assert not Phase.objects.filter(close_failures__gt=0).exists()
