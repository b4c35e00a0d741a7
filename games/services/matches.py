"""Match lifecycle: create (config validated by the engine), join/leave while forming,
start (seats numbered, engine setup, first phase), pause/resume (the open deadline moves
by the paused time), end, and the automatic start at ``starts_at``.
"""

from __future__ import annotations

import logging
import zoneinfo
from datetime import datetime
from typing import Any, Mapping

from django.db import transaction
from django.db.models import F
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_noop

from accounts.verification import is_verified
from config.textclean import clean_name
from games import signals
from games.exceptions import ApplicationError
from games.lib.text import say, to_json
from games.models import DirectorAction, Match, Phase, Seat, Snapshot
from games.registry import GameEntry, UnknownGame, get_game
from games.rules import RulesError, T
from games.services import notifications
from games.services.phases import phase_open
from games.services import news
from games.services.schedule import ScheduleError, validate_schedule

log = logging.getLogger(__name__)

DEFAULT_SCHEDULE = {"mode": "duration", "hours": 24}
MATCH_NOT_FORMING = gettext_noop("The match is no longer taking players.")
MATCH_FULL = gettext_noop("The match is full.")
ALREADY_JOINED = gettext_noop("You already have a seat in this match.")
EMAIL_UNVERIFIED = gettext_noop("Confirm your email address first: follow the link we emailed "
                                "you (your profile page sends it again).")
BAD_INVITE = gettext_noop("This match is private: you need its invite link.")
NOT_JOINED = gettext_noop("You have no seat in this match.")


def _default_schedule(entry: GameEntry, config: Mapping[str, Any]) -> dict[str, Any]:
    """The game's own default schedule (the one source: ``GameHooks.default_schedule``),
    else :data:`DEFAULT_SCHEDULE`."""
    hook = entry.hooks.default_schedule
    return dict(hook(config)) if hook is not None else dict(DEFAULT_SCHEDULE)


def _log(match: Match, actor, action: str, **details: Any) -> None:
    DirectorAction.objects.create(match=match, actor=actor, action=action, details=details)


def match_create(*, game: str, name: str, created_by=None, config: Mapping[str, Any] | None = None,
                 min_players: int | None = None, max_players: int | None = None,
                 timezone: str | None = None, schedule: Mapping[str, Any] | None = None,
                 is_private: bool = False, starts_at: datetime | None = None,
                 bots_enabled: bool = False, early_close: bool = True) -> Match:
    """A forming match; the config is the engine's ``validate_config`` output (defaults
    filled in). Refusals name the field."""
    try:
        entry = get_game(game)
    except UnknownGame as exc:
        raise ApplicationError(str(exc), code="UNKNOWN_GAME", status=400, field="game") from None
    name = clean_name(name or "")  # no bidi override or zero-width trick in a name
    if not name:
        raise ApplicationError("Give the match a name.", code="INVALID", status=400, field="name")
    try:
        raw_config = dict(config or {})
        # a game may fill its config from its own tables first (Kill Game snapshots the
        # admin-edited map and prices): GameHooks.config_prepare
        prepare = entry.hooks.config_prepare
        if prepare is not None:
            raw_config = dict(prepare(raw_config))
        full_config = entry.engine.validate_config(raw_config)
    except RulesError as exc:
        raise ApplicationError(str(say(exc.reason)), code=exc.code, status=400,
                               field=f"config.{exc.field}" if exc.field else "config",
                               details=exc.details) from None
    low = entry.min_seats if min_players is None else int(min_players)
    high = entry.max_seats if max_players is None else int(max_players)
    if not entry.min_seats <= low <= entry.max_seats:
        raise ApplicationError(f"{entry.name} needs {entry.min_seats} to {entry.max_seats} players.",
                               code="INVALID", status=400, field="min_players")
    if not low <= high <= entry.max_seats:
        raise ApplicationError(f"At most {entry.max_seats} players, and not fewer than the minimum.",
                               code="INVALID", status=400, field="max_players")
    if timezone:
        try:
            zoneinfo.ZoneInfo(timezone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ApplicationError(f"Unknown time zone {timezone!r}.", code="INVALID",
                                   status=400, field="timezone") from None
    try:
        full_schedule = validate_schedule(schedule if schedule is not None
                                          else _default_schedule(entry, full_config))
    except ScheduleError as exc:
        raise ApplicationError(str(exc), code="INVALID", status=400, field="schedule") from None
    kwargs: dict[str, Any] = {}
    if timezone:
        kwargs["timezone"] = timezone
    return Match.objects.create(
        game=entry.slug, name=name[:100], created_by=created_by, config=full_config,
        min_players=low, max_players=high, schedule=full_schedule, is_private=is_private,
        starts_at=starts_at, bots_enabled=bots_enabled, early_close=early_close, **kwargs)


def match_join(*, match: Match, user, invite_code: str | None = None) -> Seat:
    """Take a seat in a forming match (a private one needs its invite code; with
    ``ACCOUNT_EMAIL_VERIFICATION`` on, a confirmed address)."""
    if user is not None and not is_verified(user):
        raise ApplicationError(EMAIL_UNVERIFIED, code="EMAIL_UNVERIFIED", status=403)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.FORMING:
            raise ApplicationError(MATCH_NOT_FORMING, code="NOT_FORMING", status=409)
        if locked.is_private and invite_code != locked.invite_code:
            raise ApplicationError(BAD_INVITE, code="BAD_INVITE", status=403)
        if Seat.objects.filter(match=locked, user=user).exists():
            raise ApplicationError(ALREADY_JOINED, code="ALREADY_JOINED", status=409)
        if Seat.objects.filter(match=locked).count() >= locked.max_players:
            raise ApplicationError(MATCH_FULL, code="MATCH_FULL", status=409)
        seat = Seat.objects.create(match=locked, user=user)
        Match.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    return seat


def match_leave(*, match: Match, user) -> None:
    """Give up a seat before the start."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.FORMING:
            raise ApplicationError("You can leave only before the match starts.",
                                   code="NOT_FORMING", status=409)
        deleted, _ = Seat.objects.filter(match=locked, user=user).delete()
        if not deleted:
            raise ApplicationError(NOT_JOINED, code="NOT_A_PARTICIPANT", status=409)
        Match.objects.filter(pk=locked.pk).update(version=F("version") + 1)


def match_start(*, match: Match, actor=None, now: datetime | None = None) -> Match:
    """Start a forming match.

    1. Check the seat count against min/max.
    2. Number the seats 0..n-1 by user id (bot seats last).
    3. ``engine.setup(config, seats, match.seed)``; a start Snapshot (phase None).
    4. Open the first phase; "match started" notifications (sent after commit).
    """
    now = now or timezone_now()
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.FORMING:
            raise ApplicationError("Only a forming match can start.", code="NOT_FORMING",
                                   status=409)
        seats = sorted(Seat.objects.filter(match=locked),
                       key=lambda s: (s.user_id is None, s.user_id or 0, s.pk))
        if len(seats) < locked.min_players:
            raise ApplicationError(
                f"{len(seats)} joined; this match needs at least {locked.min_players}.",
                code="NOT_ENOUGH_PLAYERS", status=409)
        if len(seats) > locked.max_players:
            raise ApplicationError("More players than the maximum.", code="TOO_MANY_PLAYERS",
                                   status=409)
        for number, seat in enumerate(seats):
            Seat.objects.filter(pk=seat.pk).update(number=number)
        engine = get_game(locked.game).engine
        try:
            state = engine.setup(locked.config, list(range(len(seats))), locked.seed)
        except RulesError as exc:
            raise ApplicationError(str(say(exc.reason)), code=exc.code, status=400,
                                   field=exc.field) from None
        locked.state = engine.dump(state)
        locked.status = Match.Status.RUNNING
        locked.started_at = now
        locked.version += 1
        locked.save(update_fields=["state", "status", "started_at", "version"])
        Snapshot.objects.create(match=locked, phase=None, state=locked.state)
        phase = phase_open(match=locked, now=now)
        if phase is None:  # a game over before it began: odd, but consistent
            locked.status = Match.Status.FINISHED
            locked.finished_at = now
            locked.save(update_fields=["status", "finished_at"])
        if actor is not None:
            _log(locked, actor, "start")
        notifications.notify_match_started(match=locked, phase=phase)
    match.refresh_from_db()
    return match


def matches_start_due(*, now: datetime | None = None) -> dict[str, int]:
    """Start every forming match whose ``starts_at`` came and has enough players; tell the
    director (once) about those that have not."""
    now = now or timezone_now()
    started = waiting = 0
    for match in Match.objects.filter(status=Match.Status.FORMING, starts_at__lte=now):
        if match.seats.count() >= match.min_players:
            try:
                match_start(match=match, now=now)
                started += 1
            except ApplicationError as exc:
                log.warning("auto start of match %s refused: %s", match.pk, exc.message)
            continue
        with transaction.atomic():
            if not Match.objects.filter(pk=match.pk, start_overdue_notified_at__isnull=True).update(
                    start_overdue_notified_at=now):
                continue
            text = (f"Match {match.name!r} was due to start at {match.starts_at:%Y-%m-%d %H:%M} UTC "
                    f"but has {match.seats.count()} of the {match.min_players} players it needs; "
                    f"it stays forming.")
            notifications.notify_director(match=match, phase=None,
                                          subject=f"Match {match.name!r} could not start",
                                          message=text)
            if match.created_by is not None:
                notifications.notification_create(
                    recipient=match.created_by, kind=notifications.K.START_OVERDUE, match=match,
                    payload={"message": text})
            waiting += 1
    return {"started": started, "waiting": waiting}


def match_pause(*, match: Match, actor=None, now: datetime | None = None) -> Match:
    """Stop the clock: nothing closes, no orders, until resumed."""
    now = now or timezone_now()
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.RUNNING:
            raise ApplicationError("Only a running match can be paused.", code="NOT_RUNNING",
                                   status=409)
        locked.status, locked.paused_at = Match.Status.PAUSED, now
        locked.version += 1
        locked.save(update_fields=["status", "paused_at", "version"])
        _log(locked, actor, "pause")
        phase, params = news.open_phase_params(locked)
        news.news_to_table(match=locked, event=news.PAUSED, params=params, phase=phase, now=now)
    match.refresh_from_db()
    return match


def match_resume(*, match: Match, actor=None, now: datetime | None = None) -> Match:
    """Restart the clock; the open phase's deadline moves later by the paused time."""
    now = now or timezone_now()
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.PAUSED:
            raise ApplicationError("Only a paused match can be resumed.", code="NOT_PAUSED",
                                   status=409)
        paused_for = now - (locked.paused_at or now)
        phase = (Phase.objects.select_for_update().filter(match=locked, closed_at__isnull=True)
                 .first())
        if phase is not None and phase.deadline_at is not None:
            phase.deadline_at += paused_for
            phase.save(update_fields=["deadline_at"])
            notifications.seat_nags_schedule(phase=phase)
        locked.status, locked.paused_at = Match.Status.RUNNING, None
        locked.version += 1
        locked.save(update_fields=["status", "paused_at", "version"])
        _log(locked, actor, "resume", paused_seconds=int(paused_for.total_seconds()))
        phase, params = news.open_phase_params(locked)
        news.news_to_table(match=locked, event=news.RESUMED, params=params, phase=phase,
                           now=now)
    match.refresh_from_db()
    return match


def match_end(*, match: Match, actor, reason: str, now: datetime | None = None) -> Match:
    """The director ends a match now: the open phase closes unresolved, nobody wins."""
    now = now or timezone_now()
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status in (Match.Status.FINISHED, Match.Status.CANCELLED):
            raise ApplicationError("The match is already over.", code="MATCH_OVER", status=409)
        was_forming = locked.status == Match.Status.FORMING
        open_phase = (Phase.objects.select_for_update().filter(match=locked, closed_at__isnull=True)
                      .first())
        if open_phase is not None:
            open_phase.closed_at = now
            open_phase.save(update_fields=["closed_at"])
        Seat.objects.filter(match=locked).update(next_nag_at=None)
        locked.status = Match.Status.CANCELLED if was_forming else Match.Status.FINISHED
        locked.finished_at = now
        ended = T("Ended by the director: %(reason)s", reason=reason)
        locked.outcome = {"winners": [], "summary": str(ended), "summary_msg": to_json(ended),
                          "ended_by_director": True}
        locked.version += 1
        locked.needs_director = False
        locked.save(update_fields=["status", "finished_at", "outcome", "version",
                                   "needs_director"])
        _log(locked, actor, "end", reason=reason)
        if was_forming:  # the joined players hear it (a running match: the end email)
            for seat in Seat.objects.filter(match=locked, user__isnull=False).select_related(
                    "user__profile"):
                news.news_add(match=locked, user=seat.user, event=news.CANCELLED,
                              params={"reason": reason}, now=now)
            news.news_to_match(match=locked, event=news.CANCELLED, params={"reason": reason},
                               now=now)  # the match's own webhook (a group's channel)
        if not was_forming:
            signals.match_finished.send(sender=Match, match=locked)
        if not was_forming:
            notifications.notify_new_phase(match=locked, closed=open_phase, opened=None,
                                           from_seq=locked.diary_seq + 1, to_seq=locked.diary_seq)
    match.refresh_from_db()
    return match
