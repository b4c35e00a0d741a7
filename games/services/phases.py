"""Phases: opening (deadline from the schedule), the exactly-once close, the deadline sweep
with its dead-man switch, and the director's deadline edits (docs/design.md "Phase lifecycle").

Locking order, everywhere (docs/framework.md "Lock order"): the ``Match`` row first, then
the ``Phase`` row, then ``Seat`` rows, then outbox rows. Order submission and check-in lock
the match; closing, extending, pausing lock the match then the phase; the reminders lock
the match before they touch a seat. One order means two closers, a closer and a check-in,
or a reminder and an order queue behind each other instead of deadlocking.
"""

from __future__ import annotations

import json
import logging
import time
import traceback
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max
from django.db.models.base import ModelState
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext, gettext_noop

from accounts.models import Profile
from games import signals
from games.exceptions import ApplicationError
from games.lib import text
from games.lib.oncommit import deferred
from games.lib.seeds import phase_seed
from games.lib.transient import is_database_outage, is_transient
from games.models import (CheckIn, DirectorAction, Match, Order, Phase, Seat,
                          Snapshot, SweepHeartbeat)
from games.registry import get_rules
from games.rules import Event, Msg, RulesError
from games.selectors import phase_all_checked_in
from games.services import news, notifications
from games.services.diary import DiaryRow, diary_insert, diary_rows
from games.services.schedule import TIMING_SCHEDULE, deadline_for
from games.services.seats import phase_mark_ready

log = logging.getLogger(__name__)

PHASE_NOT_OPEN = gettext_noop("This phase is already closed.")
PHASE_NO_DEADLINE = gettext_noop("This phase has no deadline to extend.")
EXTEND_RANGE = gettext_noop("Extend by 1 to %(max)s hours.")


class PhaseCloseFailed(Exception):
    """The engine (or the database) failed while closing; the failure was recorded.

    ``error`` is the real exception in one line (``"RuntimeError: boom"``, the last line of
    the phase's ``last_error``): the cause itself was caught and recorded, not chained.
    """

    def __init__(self, message: str, *, error: str = "") -> None:
        super().__init__(message)
        self.error = error




# --- opening ----------------------------------------------------------------------------

def _build_phase(*, match: Match, engine, state, now: datetime, number: int) -> Phase | None:
    """The unsaved next Phase row for ``state`` (None when the engine says it is over)."""
    spec = engine.current_phase(state)
    if spec is None:
        return None
    return Phase(
        match=match, number=number, kind=spec.kind, turn=spec.turn,
        seed=phase_seed(match.seed, number), opens_at=now,
        deadline_at=deadline_for(schedule=match.schedule, timezone_name=match.timezone,
                                 kind=spec.kind, timing=spec.timing, now=now),
        awaited=sorted(spec.awaited),
        close_when_all_checked_in=early_close(match, spec.close_when_all_checked_in, spec.timing),
        checkin_final=spec.checkin_final, default_text=(spec.default_text or "")[:300])


def early_close(match: Match, engine_says: bool, timing: str) -> bool:
    """Whether a phase closes once every awaited seat is in: the engine's word, except that
    the director may turn it off (``Match.early_close``) for phases timed by the match
    schedule; turn steps, CHECK mode and untimed phases are game flow and keep it."""
    if timing == TIMING_SCHEDULE and not match.early_close:
        return False
    return engine_says


def _opened(phases: list[Phase], seats_by_match: dict[int, list[Seat]]) -> None:
    """After saving new phases: schedule the reminders, and queue the close of a phase
    whose awaited seats all count as checked in already (dead, bots, removed)."""
    changed: list[Seat] = []
    for phase in phases:
        seats = seats_by_match.get(phase.match_id, [])
        changed += notifications.nag_times(phase, seats)
        if phase.close_when_all_checked_in and phase_all_checked_in(phase, seats=seats,
                                                                     fresh=True):
            phase_mark_ready(phase, now=phase.opens_at)
    if changed:
        Seat.objects.bulk_update(changed, ["next_nag_at"])


def phase_open(*, match: Match, now: datetime, number: int | None = None,
               seats: list[Seat] | None = None) -> Phase | None:
    """Open the phase ``match.state`` waits in; ``None`` when the engine says it is over.

    The caller holds the match lock. The deadline comes from the match schedule in the
    match's time zone (``games.services.schedule``); the phase seed is
    ``blake2b(match.seed, number)``. A phase whose awaited seats are all already checked in
    (dead, bots, removed) and that closes early is closed right after commit.
    """
    engine = get_rules(match.game)
    if number is None:
        number = (Phase.objects.filter(match=match).aggregate(n=Max("number"))["n"] or 0) + 1
    phase = _build_phase(match=match, engine=engine, state=engine.load(match.state), now=now,
                         number=number)
    if phase is None:
        return None
    phase.save()
    if seats is None:
        seats = list(Seat.objects.filter(match=match).select_related("user__profile"))
    _opened([phase], {match.pk: seats})
    return phase


def phase_current(match: Match) -> Phase | None:
    """The match's open phase (at most one), quarantined or not."""
    return Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()


# --- closing ----------------------------------------------------------------------------

def _built(model, values: dict) -> Any:
    """A ``model`` instance of a database row's complete ``values`` (attname -> value),
    as the ORM builds it (saved, in the default database) without ``Model.__init__``'s
    per-field work and init signals: the close loads a dozen seats with their user and
    profile per match, six hundred of each per sweep batch, and building them cost a
    tenth of a close. Only for rows read whole (no deferred field)."""
    obj = model.__new__(model)
    obj.__dict__.update(values)
    state = ModelState()
    state.adding = False
    state.db = "default"
    obj._state = state
    return obj


def seats_with_readers(match_ids: list[int]) -> list[Seat]:
    """Every seat of ``match_ids`` with its user and the user's profile, as
    ``Seat.objects.filter(match_id__in=…).select_related("user__profile")`` gives them
    (``tests/games/services/test_close_queries.py`` compares the two), from one query of
    plain values."""
    user_model = get_user_model()
    parts = [(Seat, ""), (user_model, "user__"), (Profile, "user__profile__")]
    names = [[f.attname for f in model._meta.concrete_fields] for model, _ in parts]
    lookups = [prefix + (f.name if f.is_relation else f.attname)
               for model, prefix in parts for f in model._meta.concrete_fields]
    seat_n, user_n = len(names[0]), len(names[1])
    out = []
    rows = (Seat.objects.filter(match_id__in=match_ids)
            .order_by("match_id", "number", "joined_at").values_list(*lookups))
    for row in rows:
        seat = _built(Seat, dict(zip(names[0], row[:seat_n])))
        user = None
        if seat.user_id is not None:
            user = _built(user_model, dict(zip(names[1], row[seat_n:seat_n + user_n])))
            profile_row = row[seat_n + user_n:]
            if profile_row[0] is not None:
                profile = _built(Profile, dict(zip(names[2], profile_row)))
                profile._state.fields_cache["user"] = user
                user._state.fields_cache["profile"] = profile
        seat._state.fields_cache["user"] = user
        out.append(seat)
    return out


def _is_ready(phase: Phase, now: datetime, seats: list[Seat]) -> bool:
    """Due (deadline passed) or complete (every awaited seat checked in, early close)."""
    if phase.deadline_at is not None and phase.deadline_at <= now:
        return True
    if phase.close_when_all_checked_in:
        return phase_all_checked_in(phase, seats=seats)
    return False


@dataclass
class _Closing:
    """Everything one close writes, built in memory before anything is written."""

    match: Match
    phase: Phase
    seats: list[Seat]
    orders: list[Order] = field(default_factory=list)
    diary: list[DiaryRow] = field(default_factory=list)
    snapshot: Snapshot | None = None
    next_phase: Phase | None = None
    from_seq: int = 0
    to_seq: int = 0
    absent: list[int] = field(default_factory=list)
    fallen: set[int] = field(default_factory=set)


def _resolve_one(*, match: Match, phase: Phase, seats: list[Seat], acted: set[int],
                 now: datetime) -> _Closing:
    """Steps 3–5 of the close, in memory only: defaults for the absent, resolve, the diary,
    the snapshot, the match's new state, the next phase. Raises whatever the engine raises
    (nothing has been written then)."""
    engine = get_rules(match.game)
    state = engine.load(match.state)
    closing = _Closing(match=match, phase=phase, seats=seats)
    by_number = {s.number: s for s in seats if s.number is not None}
    events: list[Event] = []
    # 1. awaited seats that did nothing: the engine's default orders (or the bot's)
    for number in phase.awaited:
        seat = by_number.get(number)
        present = (number in acted and seat is not None and seat.removed_at is None
                   and not seat.is_bot)
        if present:
            continue
        closing.absent.append(number)
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
                closing.orders.append(Order(phase=phase, seat=seat, payload=dict(order),
                                            is_default=True))
    # 2. resolve with the phase seed (pure)
    resolution = engine.resolve(state, phase.seed)
    new_state = resolution.state
    # 3. diary rows (seq from Match.diary_seq), snapshot, the match's new state
    closing.from_seq = match.diary_seq + 1
    closing.diary = diary_rows(match=match, phase=phase, events=[*events, *resolution.events])
    closing.to_seq = match.diary_seq
    dumped = engine.dump(new_state)
    closing.fallen = news.fallen(match, match.state, dumped)  # died in this close
    closing.snapshot = Snapshot(match=match, phase=phase, state=dumped)
    phase.closed_at = now
    match.state = dumped
    match.version += 1
    # 4. finished, or the next phase
    outcome = engine.outcome(new_state)
    if outcome is None:
        closing.next_phase = _build_phase(match=match, engine=engine, state=new_state, now=now,
                                          number=phase.number + 1)
    if closing.next_phase is None:
        match.status = Match.Status.FINISHED
        match.finished_at = now
        match.outcome = ({"winners": sorted(outcome.winners), "summary": outcome.summary,
                          "summary_msg": text.to_json(outcome.summary)
                          if isinstance(outcome.summary, Msg) else None,
                          "scores": {str(k): v for k, v in dict(outcome.scores).items()}}
                         if outcome is not None else {"winners": [], "summary": ""})
    return closing


MATCH_CLOSE_FIELDS = ["state", "version", "diary_seq", "status", "finished_at", "outcome"]


def _write(closings: list[_Closing], now: datetime) -> None:
    """Write every close of a batch with a handful of bulk statements (same transaction)."""
    Order.objects.bulk_create([o for c in closings for o in c.orders])
    diary_insert([d for c in closings for d in c.diary])
    Phase.objects.filter(pk__in=[c.phase.pk for c in closings]).update(closed_at=now)
    nagged = [s for c in closings for s in c.seats if s.next_nag_at is not None]
    if nagged:
        Seat.objects.filter(pk__in=[s.pk for s in nagged]).update(next_nag_at=None)
        for seat in nagged:
            seat.next_nag_at = None
    opened = Phase.objects.bulk_create([c.next_phase for c in closings if c.next_phase])
    _opened(opened, {c.match.pk: c.seats for c in closings})
    _matches_update([c.match for c in closings])
    _snapshots_insert(closings)
    signals.phases_closed.send(sender=Phase, closes=[
        signals.ClosedPhase(match=c.match, phase=c.phase, absent=c.absent, opened=c.next_phase,
                            seats=c.seats)
        for c in closings])
    for c in closings:
        if c.match.status == Match.Status.FINISHED:
            signals.match_finished.send(sender=Match, match=c.match)
    # outbox rows in this transaction; sending is queued on commit; a player who died in
    # the close reads it in the email the close writes them anyway, or in one of its own
    rows = []
    with notifications.channels_prefetched(
            user_ids={s.user_id for c in closings for s in c.seats if s.user_id},
            match_ids={c.match.pk for c in closings}):
        for c in closings:
            mine = notifications.new_phase_rows(
                match=c.match, closed=c.phase, opened=c.next_phase, from_seq=c.from_seq,
                to_seq=c.to_seq, seats=c.seats)
            news.deaths_attach(match=c.match, closed=c.phase, dead=c.fallen, seats=c.seats,
                               rows=mine, from_seq=c.from_seq, to_seq=c.to_seq)
            rows += mine
    notifications.notifications_create_bulk(rows)


def _matches_update(matches: list[Match]) -> None:
    """Save the close fields of many matches in one statement.

    PostgreSQL: one ``UPDATE … FROM (VALUES …)`` (Django's ``bulk_update`` builds a CASE
    per field and row, which cost more CPU than the rest of the close together). Other
    databases: one UPDATE per match.
    """
    if connection.vendor != "postgresql":
        for match in matches:
            match.save(update_fields=MATCH_CLOSE_FIELDS)
        return
    table = Match._meta.db_table
    rows, params = [], []
    for match in matches:
        rows.append("(%s, %s, %s, %s, %s, %s, %s)")
        params += [match.pk, json.dumps(match.state), match.version, match.diary_seq,
                   match.status, match.finished_at,
                   None if match.outcome is None else json.dumps(match.outcome)]
    sql = (f'UPDATE "{table}" AS m SET "state" = v.state::jsonb, "version" = v.version::integer, '
           f'"diary_seq" = v.diary_seq::integer, "status" = v.status::varchar, '
           f'"finished_at" = v.finished_at::timestamptz, "outcome" = v.outcome::jsonb '
           f'FROM (VALUES {", ".join(rows)}) AS v(id, state, version, diary_seq, status, '
           f'finished_at, outcome) WHERE m.id = v.id::bigint')
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _snapshots_insert(closings: list[_Closing]) -> None:
    """The snapshots of a batch: the matches' new states. On PostgreSQL copied in the
    database from the match rows just updated (``INSERT … SELECT``): the state is sent and
    parsed once per close, not twice. Elsewhere ``bulk_create``."""
    if connection.vendor != "postgresql":
        Snapshot.objects.bulk_create([c.snapshot for c in closings])
        return
    table = connection.ops.quote_name(Snapshot._meta.db_table)
    matches = connection.ops.quote_name(Match._meta.db_table)
    sql = (f"INSERT INTO {table} (match_id, phase_id, state, created_at) "
           f"SELECT m.id, v.phase_id, m.state, %s FROM {matches} AS m "
           f"JOIN unnest(%s::bigint[], %s::bigint[]) AS v(match_id, phase_id) "
           f"ON m.id = v.match_id")
    with connection.cursor() as cursor:
        cursor.execute(sql, [timezone_now(), [c.match.pk for c in closings],
                             [c.phase.pk for c in closings]])


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


def _close_many(*, phase_ids: list[int], now: datetime, skip_locked: bool,
                require_ready: bool, force: bool = False
                ) -> tuple[list[int], list[tuple[int, BaseException]]]:
    """Close the given phases in ONE transaction; returns (closed ids, engine failures).

    Locks the matches (``skip_locked`` for the sweep: a match another closer or a player
    holds is left for the next pass), then their phases; re-checks each phase under the
    lock; resolves each in memory (an engine error leaves that phase out and is returned);
    writes the rest in bulk. A database error rolls the whole batch back and propagates.
    """
    with transaction.atomic():
        pairs = list(Phase.objects.filter(pk__in=phase_ids, closed_at__isnull=True)
                     .values_list("pk", "match_id"))
        if not pairs:
            return [], []
        # (not the config: the engine reads it from the state; a few KB of JSON a match)
        matches = {m.pk: m for m in Match.objects.select_for_update(skip_locked=skip_locked)
                   .filter(pk__in={m for _, m in pairs}).defer("config").order_by("pk")}
        if not matches:
            return [], []
        phases = list(Phase.objects.select_for_update()
                      .filter(pk__in=[p for p, m in pairs if m in matches])
                      .order_by("deadline_at", "pk"))
        seats_by_match: dict[int, list[Seat]] = defaultdict(list)
        for seat in seats_with_readers(list(matches)):
            seats_by_match[seat.match_id].append(seat)
        acted: dict[int, set[int]] = defaultdict(set)
        # one round trip: seats that ordered or checked in, per phase
        # (no ORDER BY inside the UNION: SQLite refuses it, and the models have orderings)
        for phase_id, number in Order.objects.filter(phase__in=phases).order_by().values_list(
                "phase_id", "seat__number").union(CheckIn.objects.filter(
                    phase__in=phases).order_by().values_list("phase_id", "seat__number")):
            acted[phase_id].add(number)
        closings: list[_Closing] = []
        failures: list[tuple[int, BaseException]] = []
        for phase in phases:
            match = matches[phase.match_id]
            seats = seats_by_match[match.pk]
            if phase.closed_at is not None:
                continue
            if match.status in (Match.Status.FINISHED, Match.Status.CANCELLED):
                continue
            if not force and (phase.quarantined_at is not None
                              or match.status != Match.Status.RUNNING):
                continue
            if require_ready and not _is_ready(phase, now, seats):
                if phase.ready_at is not None:  # no longer complete (a seat came back)
                    Phase.objects.filter(pk=phase.pk).update(ready_at=None)
                continue
            saved_match = (match.state, match.version, match.diary_seq)
            try:
                closings.append(_resolve_one(match=match, phase=phase, seats=seats,
                                             acted=acted[phase.pk], now=now))
            except Exception as exc:  # noqa: BLE001 - recorded by the caller, after commit
                if is_database_outage(exc):
                    raise  # the database's fault, not the rules': nothing is counted
                match.state, match.version, match.diary_seq = saved_match
                phase.closed_at = None
                failures.append((phase.pk, exc))
        if closings:
            _write(closings, now)
        return [c.phase.pk for c in closings], failures


def _close_recording(*, phase_ids: list[int], now: datetime, skip_locked: bool,
                     require_ready: bool, force: bool = False) -> tuple[list[int], list[int]]:
    """:func:`_close_many`, then record every failure (retry / quarantine).

    A database error in a batch of several is retried phase by phase, so one bad phase
    cannot hold back the others. A transient error (the database unreachable, a deadlock,
    the task's time limit: ``games.lib.transient``) is re-raised and counts toward no
    phase's quarantine: the next sweep tries again. Returns (closed ids, failed ids)."""
    try:
        closed, failures = _close_many(phase_ids=phase_ids, now=now, skip_locked=skip_locked,
                                       require_ready=require_ready, force=force)
    except Exception as exc:  # noqa: BLE001 - the batch rolled back as a whole
        if is_transient(exc):
            log.warning("closing %d phase(s) interrupted (%r); the next sweep retries",
                        len(phase_ids), exc)
            raise
        if len(phase_ids) > 1:
            log.warning("batch close of %d phases failed (%r); closing one by one",
                        len(phase_ids), exc)
            closed, failed = [], []
            for phase_id in phase_ids:
                c, f = _close_recording(phase_ids=[phase_id], now=now, skip_locked=skip_locked,
                                        require_ready=require_ready, force=force)
                closed += c
                failed += f
            return closed, failed
        failures = [(phase_ids[0], exc)]
        closed = []
    for phase_id, exc in failures:
        log.error("closing phase %s failed: %r", phase_id, exc, exc_info=exc)
        _record_failure(phase_id=phase_id, exc=exc, now=now)
    return closed, [phase_id for phase_id, _ in failures]


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
    closed, failed = _close_recording(phase_ids=[phase_id], now=now, skip_locked=False,
                                      require_ready=require_ready, force=force)
    if failed:
        phase = Phase.objects.filter(pk=phase_id).only("last_error").first()
        lines = (phase.last_error if phase else "").strip().splitlines()
        error = lines[-1] if lines else "unknown error"
        raise PhaseCloseFailed(f"Phase {phase_id} failed to close: {error}", error=error)
    return bool(closed)


def _due_candidates(now: datetime, limit: int) -> list[int]:
    """Phases to close: ready ones first (every awaited seat checked in, ``ready_at``),
    then due ones in deadline order; each list through its own partial index."""
    open_running = Phase.objects.filter(closed_at__isnull=True, quarantined_at__isnull=True,
                                        match__status=Match.Status.RUNNING)
    ready = list(open_running.filter(ready_at__isnull=False).order_by("ready_at", "id")
                 .values_list("pk", flat=True)[:limit])
    due = list(open_running.filter(deadline_at__lte=now).exclude(pk__in=ready)
               .order_by("deadline_at", "id").values_list("pk", flat=True)[:limit - len(ready)])
    return ready + due


def try_close_one_due_phase(*, now: datetime | None = None) -> bool:
    """Close the most overdue phase nobody else is closing; True if one was handled
    (closed, or failed and pushed back), False when nothing due is left for us."""
    now = now or timezone_now()
    for phase_id in _due_candidates(now, settings.SWEEP_BATCH_SIZE):
        closed, failed = _close_recording(phase_ids=[phase_id], now=now, skip_locked=True,
                                          require_ready=True)
        if closed or failed:
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
        missed = Phase.objects.filter(
            closed_at__isnull=True, quarantined_at__isnull=True,
            deadline_at__gt=last, deadline_at__lte=now,
            match__status=Match.Status.RUNNING)
        ids = list(missed.values_list("pk", flat=True))
        # the lock order: the matches first (in id order), then their phases and seats
        list(Match.objects.select_for_update().filter(phases__pk__in=ids).order_by("pk")
             .values_list("pk", flat=True))
        shifted = Phase.objects.filter(pk__in=ids).update(deadline_at=F("deadline_at") + outage)
        for phase in Phase.objects.filter(pk__in=ids):
            notifications.seat_nags_schedule(phase=phase)  # reminders move with the deadline
        log.warning("dead-man switch: the sweep did not run for %s; %d deadlines pushed back",
                    outage, shifted)
        return outage




def phases_close_due(*, now: datetime | None = None,
                     on_backlog: Callable[[], None] | None = None,
                     budget_seconds: float | None = None,
                     on_unfinished: Callable[[], None] | None = None) -> int:
    """The sweep (beat, every few seconds): dead-man switch, then close every due phase in
    deadline order, ``SWEEP_BATCH_SIZE`` candidates at a time in transactions of
    ``CLOSE_BATCH`` phases, skipping matches another sweeper holds (``skip_locked``), until
    nothing due is left. Returns how many closed.

    ``on_backlog`` is called once, before the first batch, when more phases are due than
    one batch holds (a deadline storm): the task asks the other clock processes to sweep
    alongside (``games.tasks.phases_close_due``). With ``budget_seconds`` the sweep starts
    no batch after that long (the task's time limit must not cut a batch off: its work
    would roll back) and calls ``on_unfinished`` if phases are still due: the task queues
    the next sweep at once. What the closes queued (the email) goes out when the sweep
    ends."""
    with deferred():
        return _sweep(now, on_backlog, budget_seconds, on_unfinished)


def phases_next_deadline(*, now: datetime) -> datetime | None:
    """The earliest deadline still ahead of ``now`` of a running match's open phase (the
    task schedules a sweep for that instant when it comes before the next beat)."""
    return (Phase.objects.filter(closed_at__isnull=True, quarantined_at__isnull=True,
                                 deadline_at__gt=now, match__status=Match.Status.RUNNING)
            .order_by("deadline_at").values_list("deadline_at", flat=True).first())


CLOSE_BATCH = 50


def _sweep(now: datetime | None, on_backlog: Callable[[], None] | None = None,
           budget_seconds: float | None = None,
           on_unfinished: Callable[[], None] | None = None) -> int:
    started = time.monotonic()
    fixed = now
    now = now or timezone_now()
    sweep_heartbeat(now=now)
    total = 0
    while True:
        candidates = _due_candidates(fixed or timezone_now(), settings.SWEEP_BATCH_SIZE)
        if on_backlog is not None and len(candidates) > CLOSE_BATCH:
            try:
                on_backlog()
            except Exception:  # noqa: BLE001 - help is welcome, never needed
                log.exception("could not ask for help with %d due phases", len(candidates))
        on_backlog = None
        chunks = [candidates[i:i + CLOSE_BATCH] for i in range(0, len(candidates), CLOSE_BATCH)]
        progress = False
        for index, chunk in enumerate(chunks):
            # each batch is stamped with its own time (the next deadline counts from it)
            closed, failed = _close_recording(phase_ids=chunk, now=fixed or timezone_now(),
                                              skip_locked=True, require_ready=True)
            total += len(closed)
            progress = progress or bool(closed or failed)
            if index == 0 and not closed and not failed and len(chunks) > 2:
                # Another sweeper holds the head of the list and walks it from the head:
                # take the rest from the tail, so two sweepers meet in the middle instead
                # of colliding on every batch. (One sweeper alone keeps deadline order.)
                chunks[1:] = chunks[:0:-1]
            if budget_seconds is not None and time.monotonic() - started > budget_seconds:
                if on_unfinished is not None:
                    on_unfinished()
                return total
        if not progress:
            return total


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
        raise ApplicationError(gettext(EXTEND_RANGE) % {"max": settings.MAX_EXTEND_HOURS},
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
        news.news_to_table(match=match, event=news.EXTENDED, phase=locked, now=now, params={
            "phase_kind": locked.kind, "turn": locked.turn,
            "deadline": locked.deadline_at.isoformat()})
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
        raise ApplicationError(f"The rules failed to resolve this phase: {exc.error}",
                               code="RESOLVE_FAILED", status=409) from exc
    if closed and was_quarantined:
        Match.objects.filter(pk=phase.match_id).update(needs_director=False)
    return closed
