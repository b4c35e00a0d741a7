"""Order submission: an order is accepted *into* the engine state at once (``engine.submit``,
see games/rules.py), recorded as an Order row (the replay source), and its immediate events
become diary rows. Refusals are ApplicationErrors and change nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.timezone import now as timezone_now

from games.exceptions import ApplicationError
from games.models import CheckIn, Match, Order, Seat
from games.registry import get_rules
from games.rules import IllegalOrder, InvalidOrder, RulesError
from games.services.diary import diary_append
from games.services.seats import (NOT_AWAITED, checkin_locked, phase_all_checked_in,
                                  phase_mark_ready, require_open_phase, require_seat)

ORDER_NOT_OBJECT = "An order must be a JSON object."
ALREADY_CHECKED = "You already checked in: your orders are locked for this phase."
STALE_VERSION = "The match has changed since you loaded it; reload and try again."


def rules_error_to_application(exc: RulesError) -> ApplicationError:
    """Engine refusal → ApplicationError: malformed 400, not allowed now 422."""
    status = 400 if isinstance(exc, InvalidOrder) else 422 if isinstance(exc, IllegalOrder) else 400
    return ApplicationError(exc.reason, code=exc.code, status=status, field=exc.field,
                            details=exc.details)


def order_submit(*, match: Match, seat: Seat, payload: Any, phase_id: int | None = None,
                 version: int | None = None, now: datetime | None = None) -> Order:
    """Accept one order of ``seat`` in the open phase.

    1. Lock the match row (orders of one match are serialised; the closer waits for us).
    2. Refuse: a paused/finished/unstarted match, no open phase, a stale ``phase_id`` or
       ``version`` (the client saw an older page), a removed or foreign seat, a seat not
       awaited, a seat that already checked in.
    3. ``engine.submit`` (InvalidOrder → 400, IllegalOrder → 422); store the new state,
       ``Match.version += 1``, the Submitted events as diary rows, the Order row.
    4. ``Submitted.done`` checks the seat in (which may close the phase at once).
    """
    now = now or timezone_now()
    if not isinstance(payload, dict):
        raise ApplicationError(ORDER_NOT_OBJECT, code="MALFORMED", status=400)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        phase = require_open_phase(locked, phase_id)
        if version is not None and int(version) != locked.version:
            raise ApplicationError(STALE_VERSION, code="STALE_VERSION", status=409,
                                   details={"version": locked.version})
        fresh = require_seat(locked, seat)
        if fresh.number not in phase.awaited:
            raise ApplicationError(NOT_AWAITED, code="NOT_AWAITED", status=409)
        if CheckIn.objects.filter(phase=phase, seat=fresh).exists():
            raise ApplicationError(ALREADY_CHECKED, code="ALREADY_CHECKED", status=409)
        engine = get_rules(locked.game)
        try:
            result = engine.submit(engine.load(locked.state), fresh.number, payload)
        except RulesError as exc:
            raise rules_error_to_application(exc) from exc
        locked.state = engine.dump(result.state)
        locked.version += 1
        diary_append(match=locked, phase=phase, events=result.events)
        locked.save(update_fields=["state", "version", "diary_seq"])
        order = Order.objects.create(phase=phase, seat=fresh, payload=payload)
        if result.done:
            checkin_locked(match=locked, phase=phase, seat=fresh, now=now)
        _narrow_awaited(engine=engine, state=result.state, phase=phase)
    match.version = locked.version
    return order


def _narrow_awaited(*, engine: Any, state: Any, phase: Any) -> None:
    """A phase that closes at the first qualifying order (``checkin_final``, e.g. a
    Sanguosha Negate window: the first Negate closes it, rules §12.6) narrows its awaited
    set when the engine's phase spec does; it then closes once the narrowed set is in."""
    if not (phase.checkin_final and phase.close_when_all_checked_in):
        return
    spec = engine.current_phase(state)
    if spec is None or spec.kind != phase.kind:
        return
    narrowed = set(spec.awaited)
    if narrowed < set(phase.awaited):
        phase.awaited = sorted(narrowed)
        phase.save(update_fields=["awaited"])
        if phase_all_checked_in(phase):
            phase_mark_ready(phase)


def order_validate(*, match: Match, seat: Seat, payload: Any) -> None:
    """Dry run for forms: raise the ApplicationError ``order_submit`` would, save nothing."""
    if not isinstance(payload, dict):
        raise ApplicationError(ORDER_NOT_OBJECT, code="MALFORMED", status=400)
    fresh = require_seat(match, seat)
    engine = get_rules(match.game)
    try:
        engine.validate_order(engine.load(match.state), fresh.number, payload)
    except RulesError as exc:
        raise rules_error_to_application(exc) from exc
