"""Exactly-once close under real concurrency on PostgreSQL: threads with their own
database connections, real row locks, no mocks of the locking (``transaction=True``)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils.timezone import now as timezone_now

from games import selectors
from games.models import DiaryEntry, Phase, Snapshot
from games.services.orders import order_submit
from games.services.phases import phase_close, phases_close_due
from games.services.seats import seat_checkin
from tests.factories import make_match
from tests.games import guessgame

pytestmark = pytest.mark.django_db(transaction=True)


def _run_together(*targets):
    """Start every target at the same instant (a barrier); return their results."""
    barrier = threading.Barrier(len(targets))
    results: list = [None] * len(targets)
    errors: list = []

    def runner(i, fn):
        try:
            barrier.wait()
            results[i] = fn()
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i, fn)) for i, fn in enumerate(targets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    return results


@pytest.fixture
def slow_resolve(monkeypatch):
    """Hold the lock a little longer, so the second closer really waits on it."""
    original = guessgame.resolve

    def resolve(state, seed):
        time.sleep(0.3)
        return original(state, seed)

    monkeypatch.setattr(guessgame, "resolve", resolve)


def _assert_closed_once(match, phase):
    assert Snapshot.objects.filter(phase=phase).count() == 1
    assert DiaryEntry.objects.filter(phase=phase, kind="round_over").count() == 1
    assert Phase.objects.filter(match=match).count() == 2
    assert Phase.objects.get(match=match, number=2).closed_at is None


def test_two_concurrent_closers_resolve_the_phase_once(slow_resolve):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    order_submit(match=match, seat=match.seats.get(number=0), payload={"guess": 7})
    results = _run_together(lambda: phase_close(phase_id=phase.pk),
                            lambda: phase_close(phase_id=phase.pk))
    assert sorted(results) == [False, True]
    _assert_closed_once(match, phase)


def test_the_last_checkin_racing_the_sweep_resolves_once(slow_resolve):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    s0, s1 = match.seats.order_by("number")
    seat_checkin(match=match, seat=s0)
    # the deadline has just passed: the beat sweep and the last check-in both want to close
    Phase.objects.filter(pk=phase.pk).update(deadline_at=timezone_now() - timedelta(seconds=1))
    results = _run_together(lambda: seat_checkin(match=match, seat=s1),
                            lambda: phases_close_due())
    assert results[1] in (0, 1)
    _assert_closed_once(match, phase)


def test_four_sweepers_close_every_due_phase_exactly_once():
    matches = [make_match(players=2) for _ in range(12)]
    Phase.objects.all().update(deadline_at=timezone_now() - timedelta(seconds=1))
    results = _run_together(*[phases_close_due for _ in range(4)])
    assert sum(results) == 12
    for match in matches:
        assert Phase.objects.filter(match=match).count() == 2
        assert Snapshot.objects.filter(match=match, phase__isnull=False).count() == 1


def test_orders_racing_the_close_are_either_in_or_refused(slow_resolve):
    from games.exceptions import ApplicationError

    match = make_match(players=1)
    phase = selectors.current_phase(match)
    seat = match.seats.get()

    def submit():
        time.sleep(0.05)  # the closer usually holds the lock by now
        try:
            order_submit(match=match, seat=seat, payload={"guess": 9}, phase_id=phase.pk)
            return "accepted"
        except ApplicationError as exc:
            return exc.code

    closed, submitted = _run_together(lambda: phase_close(phase_id=phase.pk), submit)
    assert closed is True
    revealed = DiaryEntry.objects.filter(phase=phase, kind="guess_revealed").count()
    # accepted before the close -> resolved in it; else refused as stale: never lost
    assert (submitted, revealed) in {("accepted", 1), ("STALE_PHASE", 0)}
