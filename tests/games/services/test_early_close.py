"""Early close in every schedule mode (issue 10 §2, issue 11 §1): the check-in that completes
the awaited set marks the phase ready in its own transaction, the sweep closes ready phases
as well as due ones (a lost broker message loses nothing), the next phase keeps the
schedule's grid, and the director can turn early close off."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from games import selectors
from games.lib import oncommit
from games.models import Match, Phase
from games.services.phases import phases_close_due
from games.services.seats import seat_checkin, seat_checkin_withdraw
from tests.factories import make_match

pytestmark = pytest.mark.django_db
# 15:00 in Rome (summer): inside the Tactical window 13:00–21:30
CURRENT_TIME = datetime(2026, 7, 1, 13, 0, tzinfo=timezone.utc)
WINDOWS = {"mode": "windows", "windows": {"guess": "13:00", "other": "21:30"}}


@pytest.fixture
def traveller():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        yield traveller


@pytest.fixture
def broker_down(monkeypatch):
    """Every enqueue is lost (the broker is down: publishing raises, and the failure is
    logged after the commit): only the database can close early."""
    from kombu.exceptions import OperationalError

    lost: list[tuple] = []
    for name, task in oncommit.TASKS.items():
        def delay(*args, name=name, **kwargs):
            lost.append((name, args))
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        monkeypatch.setattr(task, "delay", delay)
    return lost


def _all_check_in(match: Match) -> Phase:
    phase = selectors.current_phase(match)
    for seat in match.seats.order_by("number"):
        seat_checkin(match=match, seat=seat, phase_id=phase.pk)
    phase.refresh_from_db()
    return phase


def test_completing_checkin_marks_the_phase_ready_and_the_sweep_closes_it(
        traveller, broker_down, django_capture_on_commit_callbacks):
    match = make_match(players=3, schedule=WINDOWS, timezone="Europe/Rome")
    phase = selectors.current_phase(match)
    assert phase.deadline_at == datetime(2026, 7, 1, 19, 30, tzinfo=timezone.utc)
    with django_capture_on_commit_callbacks(execute=True):
        phase = _all_check_in(match)
    assert phase.ready_at == CURRENT_TIME and phase.closed_at is None
    assert ("phase_close", (phase.pk,)) in broker_down  # the shortcut was tried and lost
    traveller.shift(timedelta(seconds=5))
    assert phases_close_due() == 1  # the sweep, hours before the deadline
    phase.refresh_from_db()
    assert phase.closed_at == CURRENT_TIME + timedelta(seconds=5)
    nxt = selectors.current_phase(match)
    # the next phase keeps the grid: it ends when its own window ends (21:30 Rome today)
    assert nxt.deadline_at == datetime(2026, 7, 1, 19, 30, tzinfo=timezone.utc)
    assert nxt.ready_at is None


def test_a_withdrawn_checkin_unmarks_the_phase(traveller, broker_down):
    match = make_match(players=2, schedule=WINDOWS, timezone="Europe/Rome")
    phase = _all_check_in(match)
    assert phase.ready_at is not None
    seat_checkin_withdraw(match=match, seat=match.seats.get(number=1), phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.ready_at is None
    assert phases_close_due() == 0
    phase.refresh_from_db()
    assert phase.closed_at is None


def test_a_stale_ready_mark_is_cleared_by_the_sweep(traveller, broker_down):
    match = make_match(players=2, schedule=WINDOWS, timezone="Europe/Rome")
    phase = selectors.current_phase(match)
    Phase.objects.filter(pk=phase.pk).update(ready_at=CURRENT_TIME)  # nobody checked in
    assert phases_close_due() == 0
    phase.refresh_from_db()
    assert phase.ready_at is None and phase.closed_at is None


def test_the_director_can_turn_early_close_off(traveller, broker_down,
                                               django_capture_on_commit_callbacks):
    match = make_match(players=2, schedule=WINDOWS, timezone="Europe/Rome", start=False)
    Match.objects.filter(pk=match.pk).update(early_close=False)
    from games.services.matches import match_start

    match.refresh_from_db()
    match_start(match=match)
    match.refresh_from_db()
    phase = selectors.current_phase(match)
    assert not phase.close_when_all_checked_in
    with django_capture_on_commit_callbacks(execute=True):
        phase = _all_check_in(match)
    assert phase.ready_at is None
    assert phases_close_due() == 0
    phases_close_due(now=phase.deadline_at - timedelta(minutes=1))  # no dead-man outage
    assert phases_close_due(now=phase.deadline_at) == 1


def test_check_mode_still_closes_early_with_early_close_off(traveller, broker_down):
    match = make_match(players=2, config={"timing": "check"}, start=False)
    Match.objects.filter(pk=match.pk).update(early_close=False)
    from games.services.matches import match_start

    match.refresh_from_db()
    match_start(match=match)
    match.refresh_from_db()
    phase = _all_check_in(match)
    assert phase.close_when_all_checked_in and phase.ready_at is not None
    assert phases_close_due() == 1


def test_the_embedded_server_sweeper_closes_ready_phases(traveller, broker_down, monkeypatch):
    """``manage.py run``'s sweeper thread runs the same sweep."""
    import threading

    from games.management.commands import run

    match = make_match(players=2, schedule=WINDOWS, timezone="Europe/Rome")
    phase = _all_check_in(match)
    stop = threading.Event()
    calls = []
    real = phases_close_due

    def once(**kwargs):
        try:
            calls.append(real(**kwargs))
        finally:
            stop.set()
        return calls[-1]

    monkeypatch.setattr("games.services.phases.phases_close_due", once)
    monkeypatch.setattr(run, "close_old_connections", lambda: None)  # the test's transaction
    said: list[str] = []
    run.sweep_forever(0.01, stop, said.append)
    assert calls == [1], said
    phase.refresh_from_db()
    assert phase.closed_at is not None
