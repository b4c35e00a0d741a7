"""Order submission: an order is accepted *into* the engine state at once (``engine.submit``,
see games/rules.py), recorded as an Order row (the replay source), and its immediate events
become diary rows. Refusals are ApplicationErrors and change nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_noop

from games.exceptions import ApplicationError
from games.lib.text import say
from games.models import CheckIn, Match, Order, Seat
from games.registry import get_rules
from games.rules import IllegalOrder, InvalidOrder, RulesError
from games.services.diary import diary_append
from games.services.versions import STALE_VERSION, change_audience, require_fresh, versions_bump  # noqa: F401
from games.services.seats import (ALREADY_CHECKED, NOT_AWAITED,  # noqa: F401  (re-exported)
                                  checkin_locked, not_awaited_error,
                                  phase_all_checked_in, phase_mark_ready, require_open_phase,
                                  require_seat)

ORDER_NOT_OBJECT = gettext_noop("An order must be a JSON object.")


def rules_error_to_application(exc: RulesError) -> ApplicationError:
    """Engine refusal → ApplicationError: the status the game's rules give the code
    (``exc.status``, e.g. a rules' error table: ``WRONG_PHASE`` 409, ``PLAYER_DEAD`` 403), else
    malformed 400, not allowed now 422."""
    status = exc.status or (
        400 if isinstance(exc, InvalidOrder) else 422 if isinstance(exc, IllegalOrder) else 400)
    # an engine's reason may be a games.rules.Msg: said in the reader's language
    return ApplicationError(str(say(exc.reason)), code=exc.code, status=status,
                            field=exc.field, details=exc.details)


def order_submit(*, match: Match, seat: Seat, payload: Any, phase_id: int | None = None,
                 version: int | None = None, seat_version: int | None = None,
                 now: datetime | None = None) -> Order:
    """Accept one order of ``seat`` in the open phase.

    1. Lock the match row (orders of one match are serialised; the closer waits for us).
    2. Refuse: a paused/finished/unstarted match, no open phase, a stale ``phase_id``,
       ``version`` (public) or ``seat_version`` (what this seat saw changed), a removed or
       foreign seat, a seat not awaited, a seat that already checked in.
    3. ``engine.submit`` (the rules' status, else InvalidOrder → 400, IllegalOrder → 422);
       store the new state,
       bump the versions of the readers who see a change (``games.services.versions``:
       a private order bumps only its own seat's), the Submitted events as diary rows,
       the Order row.
    4. ``Submitted.done`` checks the seat in (which may close the phase at once).
    """
    now = now or timezone_now()
    if not isinstance(payload, dict):
        raise ApplicationError(ORDER_NOT_OBJECT, code="MALFORMED", status=400)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        phase = require_open_phase(locked, phase_id)
        fresh = require_seat(locked, seat)
        require_fresh(match=locked, seat=fresh, version=version, seat_version=seat_version)
        engine = get_rules(locked.game)
        before = engine.load(locked.state)
        if fresh.number not in phase.awaited:
            raise not_awaited_error(engine=engine, state=before, seat=fresh)
        if CheckIn.objects.filter(phase=phase, seat=fresh).exists():
            raise ApplicationError(ALREADY_CHECKED, code="ALREADY_CHECKED", status=409)
        try:
            result = engine.submit(before, fresh.number, payload)
        except RulesError as exc:
            raise rules_error_to_application(exc) from exc
        locked.state = engine.dump(result.state)
        touched = change_audience(
            engine=engine, before=before, after=result.state, events=result.events,
            seat_numbers=Seat.objects.filter(match=locked, number__isnull=False)
            .exclude(pk=fresh.pk).values_list("number", flat=True))
        touched.seats.add(fresh.number)
        versions_bump(match=locked, touched=touched)
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
