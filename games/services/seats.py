"""Seats: check-in (and withdrawing it) and the director's seat changes (replace by
another user or the bot, remove).

"Checked in" has one meaning everywhere (issue #2 §5): the early close, the counts a page
shows and the reminders all call :func:`games.selectors.seat_is_checked_in` (a read, so it
lives among the selectors; re-exported here for the callers that import it from seats).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_noop

from games.exceptions import ApplicationError
from games.lib.oncommit import enqueue_on_commit
from games.lib.text import say
from games.models import CheckIn, DirectorAction, Match, Phase, Seat
from games.registry import get_rules
from games.rules import idle_reason
from games.services.versions import require_fresh, seat_version_bump
from games.selectors import checked_in_numbers as checked_in_numbers
from games.selectors import phase_all_checked_in as phase_all_checked_in
from games.selectors import seat_is_checked_in as seat_is_checked_in
from games.services import news
from games.services.notifications import seat_nags_schedule

NOT_YOUR_SEAT = gettext_noop("You have no seat in this match.")
NOT_AWAITED = gettext_noop("You have nothing to do in this phase.")
ALREADY_CHECKED = gettext_noop("You already checked in: your orders are locked for this phase.")
CHECKIN_FINAL = gettext_noop("A check-in in this phase cannot be withdrawn.")
NOT_CHECKED_IN = gettext_noop("You have not checked in.")
MATCH_PAUSED = gettext_noop("The match is paused.")
MATCH_OVER = gettext_noop("The match is over.")
MATCH_NOT_STARTED = gettext_noop("The match has not started yet.")
NO_OPEN_PHASE = gettext_noop("There is no open phase.")
STALE_PHASE = gettext_noop("The phase has changed since you loaded the page; reload and try again.")
PHASE_QUARANTINED = gettext_noop("This phase is waiting for the director.")


def phase_mark_ready(phase: Phase, *, now: datetime | None = None) -> None:
    """Record in the caller's transaction that ``phase`` may close early (every awaited
    seat is in): the sweep closes ready phases as well as due ones, so the early close
    survives a lost broker message; the queued close after commit is only a shortcut."""
    now = now or timezone_now()
    Phase.objects.filter(pk=phase.pk, ready_at__isnull=True).update(ready_at=now)
    phase.ready_at = phase.ready_at or now
    # The close runs in its own transaction after ours commits; it re-checks readiness
    # under its lock, so a racing sweep or withdraw is harmless.
    enqueue_on_commit("phase_close", phase.pk)


def require_open_phase(match: Match, phase_id: int | None) -> Phase:
    """The locked match's open phase, or the precise refusal (used by orders and check-in)."""
    if match.status == Match.Status.PAUSED:
        raise ApplicationError(MATCH_PAUSED, code="MATCH_PAUSED", status=409)
    if match.status in (Match.Status.FINISHED, Match.Status.CANCELLED):
        raise ApplicationError(MATCH_OVER, code="MATCH_OVER", status=409)
    if match.status != Match.Status.RUNNING:
        raise ApplicationError(MATCH_NOT_STARTED, code="MATCH_NOT_STARTED", status=409)
    phase = Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()
    if phase is None:
        raise ApplicationError(NO_OPEN_PHASE, code="NO_OPEN_PHASE", status=409)
    if phase_id is not None and int(phase_id) != phase.pk:
        raise ApplicationError(STALE_PHASE, code="STALE_PHASE", status=409)
    if phase.quarantined_at is not None:
        raise ApplicationError(PHASE_QUARANTINED, code="PHASE_QUARANTINED", status=409)
    return phase


def require_seat(match: Match, seat: Seat | None) -> Seat:
    """A fresh copy of ``seat``, refused unless it is a live seat of ``match``."""
    if seat is None:
        raise ApplicationError(NOT_YOUR_SEAT, code="NOT_A_PARTICIPANT", status=403)
    fresh = Seat.objects.filter(pk=seat.pk, match=match).first()
    if fresh is None or fresh.number is None or fresh.removed_at is not None:
        raise ApplicationError(NOT_YOUR_SEAT, code="NOT_A_PARTICIPANT", status=403)
    return fresh


def checkin_locked(*, match: Match, phase: Phase, seat: Seat, now: datetime) -> CheckIn:
    """Check ``seat`` in (caller holds the match lock and validated the phase); queues the
    early close on commit when this completes the awaited set."""
    checkin, created = CheckIn.objects.get_or_create(phase=phase, seat=seat)
    if created:
        Seat.objects.filter(pk=seat.pk).update(last_checkin_at=now, next_nag_at=None)
        # only this seat's version: another seat's check-in never makes my page stale
        seat_version_bump(seat)
        if phase.close_when_all_checked_in and phase_all_checked_in(phase):
            phase_mark_ready(phase, now=now)
    return checkin


def seat_checkin(*, match: Match, seat: Seat, phase_id: int | None = None,
                 version: int | None = None, seat_version: int | None = None,
                 now: datetime | None = None) -> CheckIn:
    """The seat declares itself done for the open phase; a second check-in is refused
    (``ALREADY_CHECKED``), a seat the phase does not wait for gets the game's reason; with
    ``version`` / ``seat_version`` refused as stale when what this seat saw changed."""
    now = now or timezone_now()
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        phase = require_open_phase(locked, phase_id)
        fresh = require_seat(locked, seat)
        if fresh.number not in phase.awaited:
            engine = get_rules(locked.game)
            raise not_awaited_error(engine=engine, state=engine.load(locked.state), seat=fresh)
        if CheckIn.objects.filter(phase=phase, seat=fresh).exists():
            # killgame.md §19: a second CHECK is ALREADY_CHECKED, not a silent success
            raise ApplicationError(ALREADY_CHECKED, code="ALREADY_CHECKED", status=409)
        require_fresh(match=locked, seat=fresh, version=version, seat_version=seat_version)
        return checkin_locked(match=locked, phase=phase, seat=fresh, now=now)


def not_awaited_error(*, engine: Any, state: Any, seat: Seat) -> ApplicationError:
    """The refusal for a seat the open phase does not wait for: the game's own reason
    when it gives one (a dead player, not your turn; :func:`games.rules.idle_reason`),
    else ``NOT_AWAITED``."""
    reason = idle_reason(engine, state, seat.number) if seat.number is not None else None
    if reason is None:
        return ApplicationError(NOT_AWAITED, code="NOT_AWAITED", status=409)
    return ApplicationError(str(say(reason.reason)), code=reason.code, status=reason.status or 409,
                            field=reason.field, details=reason.details)


def seat_checkin_withdraw(*, match: Match, seat: Seat, phase_id: int | None = None) -> None:
    """Undo a check-in while the phase is open (refused when ``phase.checkin_final``)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        phase = require_open_phase(locked, phase_id)
        fresh = require_seat(locked, seat)
        if phase.checkin_final:
            raise ApplicationError(CHECKIN_FINAL, code="CHECKIN_FINAL", status=409)
        deleted, _ = CheckIn.objects.filter(phase=phase, seat=fresh).delete()
        if not deleted:
            raise ApplicationError(NOT_CHECKED_IN, code="NOT_CHECKED_IN", status=409)
        Phase.objects.filter(pk=phase.pk).update(ready_at=None)  # no longer complete
        seat_version_bump(fresh)
        seat_nags_schedule(phase=phase)


def _close_if_complete(match: Match) -> None:
    """A seat change may complete the awaited set (a removed or bot seat counts as in)."""
    phase = Phase.objects.filter(match=match, closed_at__isnull=True).first()
    if (phase is not None and match.status == Match.Status.RUNNING
            and phase.close_when_all_checked_in and phase_all_checked_in(phase)):
        phase_mark_ready(phase)


def seat_replace(*, seat: Seat, user=None, bot: bool = False, actor) -> Seat:
    """The director gives ``seat`` to another ``user`` or to the bot (``bot=True``)."""
    if (user is None) == (not bot):
        raise ApplicationError("Choose either a user or the bot.", code="INVALID", status=400)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=seat.match_id)
        if match.status in (Match.Status.FINISHED, Match.Status.CANCELLED):
            raise ApplicationError(MATCH_OVER, code="MATCH_OVER", status=409)
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        before = fresh.user.get_username() if fresh.user_id else "bot"
        leaver = fresh.user if fresh.user_id and not fresh.is_bot else None
        if user is not None:
            if Seat.objects.filter(match=match, user=user).exclude(pk=fresh.pk).exists():
                raise ApplicationError(f"{user.get_username()} already has a seat here.",
                                       code="ALREADY_SEATED", status=409, field="user")
            fresh.user, fresh.is_bot, fresh.removed_at = user, False, None
        else:
            fresh.user, fresh.is_bot = None, True
        fresh.next_nag_at = None
        fresh.save(update_fields=["user", "is_bot", "removed_at", "next_nag_at"])
        match.version += 1
        match.save(update_fields=["version"])
        after = user.get_username() if user is not None else "bot"
        DirectorAction.objects.create(match=match, actor=actor, action="replace_seat", details={
            "seat": fresh.number, "from": before, "to": after})
        _replace_news(match=match, seat=fresh, leaver=leaver, user=user, before=before,
                      after=after)
        _close_if_complete(match)
    return fresh


def _replace_news(*, match: Match, seat: Seat, leaver, user, before: str, after: str) -> None:
    """Tell the old holder, the new one and the rest of the table (games.services.news)."""
    phase, params = news.open_phase_params(match)
    params = {**params, "seat": seat.number, "old": before, "new": after}
    if leaver is not None:
        news.news_add(match=match, user=leaver, event=news.REPLACED, params=params,
                      phase=phase)
    if user is not None:
        news.news_add(match=match, user=user, event=news.TOOK_SEAT, params=params,
                      phase=phase, seat=seat)
    news.news_to_table(match=match, event=news.SEAT_TAKEN, params=params, phase=phase,
                       exclude={u.pk for u in (leaver, user) if u is not None})


def seat_remove(*, seat: Seat, actor, now: datetime | None = None) -> None:
    """The director removes a player: before the start the seat goes; afterwards it stays
    (the engine's seat lives on) with ``removed_at`` set, and plays the defaults."""
    now = now or timezone_now()
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=seat.match_id)
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        who = fresh.user.get_username() if fresh.user_id else "bot"
        DirectorAction.objects.create(match=match, actor=actor, action="remove_seat",
                                      details={"seat": fresh.number, "user": who})
        if match.status == Match.Status.FORMING:
            fresh.delete()
        else:
            if fresh.removed_at is not None:
                raise ApplicationError("That player was already removed.", code="ALREADY_REMOVED",
                                       status=409)
            fresh.removed_at = now
            fresh.next_nag_at = None
            fresh.save(update_fields=["removed_at", "next_nag_at"])
        match.version += 1
        match.save(update_fields=["version"])
        _close_if_complete(match)
