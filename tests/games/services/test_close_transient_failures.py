"""Quarantine counts only the rules' failures: a database that drops the connection, a
deadlock or a task's time limit during a close counts toward nothing, pushes no deadline,
and the next sweep closes the phase (games/lib/transient.py, docs/design.md "Phase lifecycle")."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from unittest import mock

import pytest
import time_machine
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from games import selectors, tasks
from games.models import Phase
from games.services import phases
from games.services.phases import phases_close_due
from tests.factories import make_match

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)
LATER = CURRENT_TIME + timedelta(days=2)


@pytest.mark.parametrize("error", [
    OperationalError("server closed the connection unexpectedly"),
    InterfaceError("connection already closed"),
    SoftTimeLimitExceeded(),
])
def test_an_infrastructure_failure_never_counts_toward_quarantine(error):
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        matches = [make_match(players=2), make_match(players=2)]
        traveller.move_to(LATER)
        for _ in range(5):  # more than PHASE_CLOSE_MAX_FAILURES
            with mock.patch.object(phases, "_write", side_effect=error):
                with pytest.raises(type(error)):
                    phases_close_due()
        for match in matches:
            phase = Phase.objects.get(match=match, number=1)
            assert (phase.close_failures, phase.quarantined_at, phase.closed_at) == (0, None, None)
            assert phase.deadline_at == CURRENT_TIME + timedelta(hours=24)  # not pushed
        assert phases_close_due() == 2  # the database is back: both close


def test_a_database_error_inside_the_rules_step_is_not_the_rules_fault():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        match = make_match(players=2)
        phase = selectors.current_phase(match)
        traveller.move_to(LATER)
        with mock.patch.object(phases, "diary_rows", side_effect=OperationalError("gone")):
            assert tasks.phase_close.apply(args=[phase.pk]).get() is False
        phase.refresh_from_db()
        assert phase.close_failures == 0 and phase.closed_at is None


def test_the_rules_failing_still_count(director):
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        match = make_match(players=1, config={"crash": True})
        traveller.move_to(LATER)
        phases_close_due()
        phase = selectors.current_phase(match)
        assert phase.close_failures == 1 and phase.deadline_at > LATER
