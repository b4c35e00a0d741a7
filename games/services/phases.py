"""Phases: opening (deadline from the schedule), the exactly-once close, the deadline sweep
with its dead-man switch, and the director's deadline edits (DESIGN.md "Phase lifecycle").

Locking order, everywhere in ``games.services``: the ``Match`` row first, then the
``Phase`` row. Order submission and check-in lock only the match; closing, extending,
pausing lock the match then the phase. One order means two closers, or a closer and a
check-in, queue behind each other instead of deadlocking.
"""

from __future__ import annotations

import logging
import traceback
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils.timezone import now as timezone_now

from games.exceptions import ApplicationError
from games.lib.oncommit import deferred, enqueue_on_commit
from games.lib.seeds import phase_seed
from games.models import (CheckIn, DirectorAction, Match, Order, Phase, Seat, Snapshot,
                          SweepHeartbeat)
from games.registry import get_rules
from games.rules import RulesError
from games.services import notifications
from games.services.diary import diary_append
from games.services.schedule import deadline_for

log = logging.getLogger(__name__)

PHASE_NOT_OPEN = "This phase is already closed."
PHASE_NO_DEADLINE = "This phase has no deadline to extend."
EXTEND_RANGE = "Extend by 1 to {max} hours."


class PhaseCloseFailed(Exception):
    """The engine (or the database) failed while closing; the failure was recorded."""


# --- opening ----------------------------------------------------------------------------

def phase_open(*, match: Match, now: datetime, number: int | None = None,
               seats: list[Seat] | None = None) -> Phase | None:
    """Open the phase ``match.state`` waits in; ``None`` when the engine says it is over.

    The caller holds the match lock. The deadline comes from the match schedule in the
    match's time zone (``games.services.schedule``); the phase seed is
    ``blake2b(match.seed, number)``. A phase whose awaited seats are all already checked in
    (dead, bots, removed) and that closes early is closed right after commit.
    """
    engine = get_rules(match.game)
    spec = engine.current_phase(engine.load(match.state))
    if spec is None:
        return None
    if number is None:
        number = (Phase.objects.filter(match=match).aggregate(n=Max("number"))["n"] or 0) + 1
    if seats is None:
        seats = list(Seat.objects.filter(match=match).select_related("user__profile"))
    phase = Phase.objects.create(
        match=match, number=number, kind=spec.kind, turn=spec.turn,
        seed=phase_seed(match.seed, number), opens_at=now,
        deadline_at=deadline_for(schedule=match.schedule, timezone_name=match.timezone,
                                 kind=spec.kind, timing=spec.timing, now=now),
        awaited=sorted(spec.awaited), close_when_all_checked_in=spec.close_when_all_checked_in,
        checkin_final=spec.checkin_final, default_text=(spec.default_text or "")[:300])
    notifications.seat_nags_schedule(phase=phase, seats=seats)
    if phase.close_when_all_checked_in:
        from games.services.seats import phase_all_checked_in

        if phase_all_checked_in(phase, seats=seats, fresh=True):
            enqueue_on_commit("phase_close", phase.pk)
    return phase


def phase_current(match: Match) -> Phase | None:
    """The match's open phase (at most one), quarantined or not."""
    return Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()


# --- closing ----------------------------------------------------------------------------

def _is_ready(phase: Phase, now: datetime) -> bool:
    """Due (deadline passed) or complete (every awaited seat checked in, early close)."""
    if phase.deadline_at is not None and phase.deadline_at <= now:
        return True
    if phase.close_when_all_checked_in:
        from games.services.seats import phase_all_checked_in

        return phase_all_checked_in(phase)
    return False


def _fill_absent(*, match: Match, phase: Phase, engine, state, seat_rows: list[Seat]):
    """Submit default (or bot) orders for awaited seats that did nothing; returns
    (state, events)."""
    seats = {s.number: s for s in seat_rows if s.number is not None}
    # one round trip: seats that ordered or checked in
    acted = set(Order.objects.filter(phase=phase).values_list("seat__number", flat=True).union(
        CheckIn.objects.filter(phase=phase).values_list("seat__number", flat=True)))
    events = []
    new_orders = []
    for number in phase.awaited:
        seat = seats.get(number)
        present = number in acted and seat is not None and seat.removed_at is None and not seat.is_bot
        if present:
            continue
        use_bot = match.bots_enabled or (seat is not None and (seat.is_bot or seat.removed_at))
        orders = (engine.bot_orders(state, number, phase.seed) if use_bot
                  else engine.default_orders(state, number))
        for order in orders:
            try:
                result = engine.submit(state, number, order)
            except RulesError as exc:
                # A default the rules refuse is skipped, not fatal: the seat simply does less.
                log.warning("match %s phase %s seat %s: default order %r refused: %s",
                            match.pk, phase.number, number, order, exc)
                continue
            state = result.state
            events.extend(result.events)
            if seat is not None:
                new_orders.append(Order(phase=phase, seat=seat, payload=dict(order),
                                        is_default=True))
    Order.objects.bulk_create(new_orders)
    return state, events


def _close_locked(*, match: Match, phase: Phase, now: datetime) -> Phase | None:
    """Steps 3–5 of the close, under both locks. Returns the next phase (None: finished)."""
    engine = get_rules(match.game)
    state = engine.load(match.state)
    seat_rows = list(Seat.objects.filter(match=match).select_related("user__profile"))
    # 1. absent awaited seats: the engine's default orders (or the bot's)
    state, default_events = _fill_absent(match=match, phase=phase, engine=engine, state=state,
                                         seat_rows=seat_rows)
    # 2. resolve with the phase seed (pure; may raise: the whole transaction rolls back)
    resolution = engine.resolve(state, phase.seed)
    new_state = resolution.state
    # 3. diary, snapshot, the phase closed, the match's new state
    from_seq = match.diary_seq + 1
    diary_append(match=match, phase=phase, events=[*default_events, *resolution.events])
    to_seq = match.diary_seq
    dumped = engine.dump(new_state)
    Snapshot.objects.create(match=match, phase=phase, state=dumped)
    phase.closed_at = now
    phase.save(update_fields=["closed_at"])
    match.state = dumped
    match.version += 1
    if any(s.next_nag_at is not None for s in seat_rows):
        Seat.objects.filter(match=match, next_nag_at__isnull=False).update(next_nag_at=None)
        for seat in seat_rows:
            seat.next_nag_at = None
    # 4. finished, or the next phase
    outcome = engine.outcome(new_state)
    next_phase = None
    if outcome is None:
        next_phase = phase_open(match=match, now=now, number=phase.number + 1, seats=seat_rows)
    if next_phase is None:
        match.status = Match.Status.FINISHED
        match.finished_at = now
        match.outcome = ({"winners": sorted(outcome.winners), "summary": outcome.summary,
                          "scores": {str(k): v for k, v in dict(outcome.scores).items()}}
                         if outcome is not None else {"winners": [], "summary": ""})
    match.save(update_fields=["state", "version", "diary_seq", "status", "finished_at",
                              "outcome"])
    # 5. outbox rows in this transaction; sending is queued on commit
    notifications.notify_new_phase(match=match, closed=phase, opened=next_phase,
                                   from_seq=from_seq, to_seq=to_seq, seats=seat_rows)
    return next_phase


def _record_failure(*, phase_id: int, exc: BaseException, now: datetime) -> None:
    """After a rolled-back close: count it, push the deadline, quarantine at the limit."""
    error = "".join(traceback.format_exception(exc))[-4000:]
    with transaction.atomic():
        match_id = Phase.objects.filter(pk=phase_id).values_list("match_id", flat=True).first()
        if match_id is None:
            return
        match = Match.objects.select_for_update().get(pk=match_id)
        phase = Phase.objects.select_for_update().get(pk=phase_id)
        if phase.closed_at is not None:
            return
        phase.close_failures += 1
        phase.last_error = error
        fields = ["close_failures", "last_error"]
        if phase.close_failures >= settings.PHASE_CLOSE_MAX_FAILURES:
            phase.quarantined_at = now
            fields.append("quarantined_at")
            match.needs_director = True
            match.director_note = (f"Phase {phase.number} ({phase.kind}) failed to resolve "
                                   f"{phase.close_failures} times and is quarantined: {exc!r}")
            match.save(update_fields=["needs_director", "director_note"])
            notifications.notify_director(
                match=match, phase=phase,
                subject=f"Match {match.name!r} needs the director",
                message=match.director_note)
            log.error("match %s phase %s quarantined", match.pk, phase.number)
        else:
            base = max(phase.deadline_at or now, now)
            phase.deadline_at = base + timedelta(seconds=settings.PHASE_CLOSE_RETRY_SECONDS)
            fields.append("deadline_at")
        phase.save(update_fields=fields)


def _close(*, phase_id: int, now: datetime, skip_locked: bool, require_ready: bool,
           force: bool = False) -> bool:
    try:
        row = Phase.objects.filter(pk=phase_id).values_list("match_id", "closed_at").first()
        if row is None or row[1] is not None:
            return False  # cheap pre-check; the locked re-check below is the real guard
        match_id = row[0]
        with transaction.atomic():
            match = (Match.objects.select_for_update(skip_locked=skip_locked)
                     .filter(pk=match_id).first())
            if match is None:
                return False  # another closer (or a submit) holds it; the sweep comes back
            phase = Phase.objects.select_for_update().get(pk=phase_id)
            if phase.closed_at is not None:
                return False
            if not force and (phase.quarantined_at is not None
                              or match.status != Match.Status.RUNNING):
                return False
            if match.status in (Match.Status.FINISHED, Match.Status.CANCELLED):
                return False
            if require_ready and not _is_ready(phase, now):
                return False
            _close_locked(match=match, phase=phase, now=now)
            return True
    except Exception as exc:
        log.exception("closing phase %s failed", phase_id)
        _record_failure(phase_id=phase_id, exc=exc, now=now)
        raise PhaseCloseFailed(f"Phase {phase_id} failed to close: {exc!r}") from exc


def phase_close(*, phase_id: int, now: datetime | None = None, require_ready: bool = False,
                force: bool = False) -> bool:
    """Close phase ``phase_id`` exactly once; True if this call closed it.

    Safe to call any number of times, from anywhere, concurrently:

    1. lock the match row, then the phase row (``select_for_update``);
    2. return False if the phase is closed (or quarantined, or the match is not running,
       unless ``force``; or, with ``require_ready``, if it is neither due nor complete);
    3. submit the engine's default orders (or bot orders) for absent awaited seats;
    4. ``engine.resolve`` with the phase seed; store the state, a Snapshot, the diary rows,
       ``Match.version += 1``; open the next phase or finish the match;
    5. create the notification rows; sending is queued with ``transaction.on_commit``.

    If anything raises, the transaction rolls back (nothing half-written), the failure is
    counted, the deadline pushed ``PHASE_CLOSE_RETRY_SECONDS`` forward, and at
    ``PHASE_CLOSE_MAX_FAILURES`` the phase is quarantined; then :class:`PhaseCloseFailed`
    is raised.
    """
    now = now or timezone_now()
    return _close(phase_id=phase_id, now=now, skip_locked=False, require_ready=require_ready,
                  force=force)


def _due_candidates(now: datetime, limit: int) -> list[int]:
    return list(Phase.objects.filter(
        closed_at__isnull=True, quarantined_at__isnull=True, deadline_at__lte=now,
        match__status=Match.Status.RUNNING,
    ).order_by("deadline_at", "id").values_list("pk", flat=True)[:limit])


def _try_close(phase_id: int, now: datetime) -> str:
    try:
        closed = _close(phase_id=phase_id, now=now, skip_locked=True, require_ready=True)
    except PhaseCloseFailed:
        return "failed"
    return "closed" if closed else "skipped"


def try_close_one_due_phase(*, now: datetime | None = None) -> bool:
    """Close the most overdue phase nobody else is closing; True if one was handled
    (closed, or failed and pushed back), False when nothing due is left for us."""
    now = now or timezone_now()
    for phase_id in _due_candidates(now, settings.SWEEP_BATCH_SIZE):
        if _try_close(phase_id, now) != "skipped":
            return True
    return False


def sweep_heartbeat(*, now: datetime) -> timedelta | None:
    """The dead-man switch. Record this sweep; if the previous one ran more than
    ``DEAD_MAN_SWITCH_MINUTES`` ago, push every running match's open deadline that passed
    during the outage forward by the outage's length (nobody is punished for our downtime).
    Returns the outage applied, if any."""
    limit = timedelta(minutes=settings.DEAD_MAN_SWITCH_MINUTES)
    with transaction.atomic():
        try:
            with transaction.atomic():
                beat, _ = SweepHeartbeat.objects.select_for_update().get_or_create(pk=1)
        except IntegrityError:  # two first-ever sweeps raced to create the row
            beat = SweepHeartbeat.objects.select_for_update().get(pk=1)
        last = beat.last_run_at
        if last is not None and now <= last:
            return None
        beat.last_run_at = now
        beat.save(update_fields=["last_run_at"])
        if last is None or now - last <= limit:
            return None
        outage = now - last
        shifted = Phase.objects.filter(
            closed_at__isnull=True, quarantined_at__isnull=True,
            deadline_at__gt=last, deadline_at__lte=now,
            match__status=Match.Status.RUNNING,
        ).update(deadline_at=F("deadline_at") + outage)
        log.warning("dead-man switch: the sweep did not run for %s; %d deadlines pushed back",
                    outage, shifted)
        return outage


def phases_close_due(*, now: datetime | None = None) -> int:
    """The sweep (beat, every few seconds): dead-man switch, then close every due phase in
    deadline order, ``SWEEP_BATCH_SIZE`` candidates at a time, skipping phases another
    sweeper holds (``skip_locked``), until nothing due is left. Returns how many closed."""
    with deferred():
        return _sweep(now)


def _sweep(now: datetime | None) -> int:
    fixed = now
    now = now or timezone_now()
    sweep_heartbeat(now=now)
    closed = 0
    while True:
        candidates = _due_candidates(fixed or timezone_now(), settings.SWEEP_BATCH_SIZE)
        progress = False
        if len(candidates) > 2:
            # Another sweeper holding the head of the list sweeps from the head: take the
            # rest from the tail, so two sweepers meet in the middle instead of colliding
            # on every row. (One sweeper alone keeps strict deadline order.)
            head = candidates[0]
            result = _try_close(head, fixed or timezone_now())
            closed += result == "closed"
            progress = result != "skipped"
            candidates = candidates[1:]
            if result == "skipped":
                candidates.reverse()
        for phase_id in candidates:
            # each close is stamped with its own time (the next deadline counts from it)
            result = _try_close(phase_id, fixed or timezone_now())
            if result == "closed":
                closed += 1
            progress = progress or result != "skipped"
        if not progress:
            return closed


# --- the director's deadline edits -------------------------------------------------------

def _log_action(*, match: Match, actor, action: str, details: dict, token: str | None = None):
    return DirectorAction.objects.create(match=match, actor=actor, action=action,
                                         details=details, token=token)


def phase_extend(*, phase: Phase, hours: float, actor, token: str | None = None,
                 now: datetime | None = None) -> bool:
    """Push ``phase``'s deadline ``hours`` later (0 < hours ≤ ``MAX_EXTEND_HOURS``).

    ``token`` (the form's one-time id) makes a double submit apply once: the second call
    returns False and changes nothing. Extending a quarantined phase does not release it.
    """
    now = now or timezone_now()
    try:
        hours = float(hours)
    except (TypeError, ValueError):
        hours = 0
    if not 0 < hours <= settings.MAX_EXTEND_HOURS:
        raise ApplicationError(EXTEND_RANGE.format(max=settings.MAX_EXTEND_HOURS),
                               code="EXTEND_RANGE", status=400, field="hours")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=phase.match_id)
        locked = Phase.objects.select_for_update().get(pk=phase.pk)
        if locked.closed_at is not None:
            raise ApplicationError(PHASE_NOT_OPEN, code="PHASE_CLOSED", status=409)
        if locked.deadline_at is None:
            raise ApplicationError(PHASE_NO_DEADLINE, code="NO_DEADLINE", status=409)
        old = locked.deadline_at
        try:
            with transaction.atomic():
                _log_action(match=match, actor=actor, action="extend",
                            details={"phase": locked.number, "hours": hours,
                                     "old_deadline": old.isoformat()},
                            token=token or uuid.uuid4().hex)
        except IntegrityError:
            return False  # the same form was submitted before: applied once already
        locked.deadline_at = old + timedelta(hours=hours)
        locked.save(update_fields=["deadline_at"])
        match.version += 1
        match.save(update_fields=["version"])
        notifications.seat_nags_schedule(phase=locked)
    phase.deadline_at = locked.deadline_at
    return True


def phase_close_now(*, phase: Phase, actor, now: datetime | None = None) -> bool:
    """The director closes ``phase`` at once (also a quarantined one: it gets one more try,
    e.g. after a fix was deployed). Logged as a DirectorAction."""
    now = now or timezone_now()
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=phase.match_id)
        locked = Phase.objects.select_for_update().get(pk=phase.pk)
        if locked.closed_at is not None:
            raise ApplicationError(PHASE_NOT_OPEN, code="PHASE_CLOSED", status=409)
        if match.status not in (Match.Status.RUNNING, Match.Status.PAUSED):
            raise ApplicationError("The match is not running.", code="MATCH_NOT_RUNNING",
                                   status=409)
        was_quarantined = locked.quarantined_at is not None
        # Released for one more try; close_failures stays, so a failure re-quarantines it.
        Phase.objects.filter(pk=locked.pk).update(quarantined_at=None)
        _log_action(match=match, actor=actor, action="close_now",
                    details={"phase": locked.number, "was_quarantined": was_quarantined})
    try:
        closed = phase_close(phase_id=phase.pk, now=now, force=True)
    except PhaseCloseFailed as exc:
        raise ApplicationError(f"The rules failed to resolve this phase: {exc.__cause__!r}",
                               code="RESOLVE_FAILED", status=409) from exc
    if closed and was_quarantined:
        Match.objects.filter(pk=phase.match_id).update(needs_director=False)
    return closed
