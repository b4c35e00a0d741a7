"""Away periods (vacation): declaring one within the allowance, who is away when, and
stretching deadlines for matches whose rules say so.

Arithmetic is in wall-clock time of the relevant zone: a player's away days are calendar
days in *their* time zone (a week across a DST change is still 7 days), and a stretched
deadline moves by the away time as the wall clock of the *match's* zone reads it, so a
13:00 deadline stays 13:00 when the clocks change in between.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext, pgettext

from games.exceptions import ApplicationError
from games.lib.htmlcache import LocalHTML
from games.models import DirectorAction, Match, Phase, Seat
from players.models import Away, MatchRules


#: how far ahead an away period may start (days from today)
AWAY_AHEAD_DAYS = 365


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def local_day_bounds(first: date, last: date, tz_name: str) -> tuple[datetime, datetime]:
    """From the start of ``first`` to the end of ``last`` (inclusive) in ``tz_name``."""
    tz = _zone(tz_name)
    return (datetime.combine(first, time.min, tzinfo=tz),
            datetime.combine(last + timedelta(days=1), time.min, tzinfo=tz))


def wall_duration(start: datetime, end: datetime, tz_name: str) -> timedelta:
    """``end - start`` as the wall clock of ``tz_name`` reads it (DST shifts ignored)."""
    tz = _zone(tz_name)
    return (end.astimezone(tz).replace(tzinfo=None) - start.astimezone(tz).replace(tzinfo=None))


def _overlap(a0: datetime, a1: datetime, b0: datetime, b1: datetime) -> timedelta:
    return max(timedelta(0), min(a1, b1) - max(a0, b0))


def away_days_used(user, *, window_start: datetime, window_end: datetime,
                   tz_name: str, extra: tuple[datetime, datetime] | None = None) -> float:
    """Away time inside the window, in wall-clock days of the player's zone."""
    periods = [(a.starts_at, a.ends_at) for a in Away.objects.filter(
        user=user, ends_at__gt=window_start, starts_at__lt=window_end)]
    if extra:
        periods.append(extra)
    total = timedelta(0)
    for s, e in periods:
        s, e = max(s, window_start), min(e, window_end)
        if e > s:
            total += wall_duration(s, e, tz_name)
    return total / timedelta(days=1)


def away_declare(*, user, first: date, last: date, now: datetime | None = None) -> Away:
    """Declare ``first``–``last`` (calendar days in the player's zone) as away.

    Refused when it starts in the past, is longer than ``AWAY_MAX_DAYS``, overlaps another
    period, or would make the away time in any ``AWAY_WINDOW_DAYS`` window around it exceed
    ``AWAY_MAX_DAYS``.
    """
    now = now or timezone_now()
    tz_name = getattr(getattr(user, "profile", None), "timezone", "UTC")
    if last < first:
        raise ApplicationError("The last away day comes before the first.", code="INVALID",
                               status=400, field="last")
    cap = settings.AWAY_MAX_DAYS
    if (last - first).days + 1 > cap:
        raise ApplicationError(f"At most {cap} days away at a time.", code="TOO_LONG",
                               status=400, field="last")
    # checked before any arithmetic: 9999-12-31 plus a day is an OverflowError (a 500)
    if first > now.date() + timedelta(days=AWAY_AHEAD_DAYS):
        raise ApplicationError(
            gettext("An away period starts within %(days)d days from today.")
            % {"days": AWAY_AHEAD_DAYS}, code="INVALID", status=400, field="first")
    starts_at, ends_at = local_day_bounds(first, last, tz_name)
    if ends_at <= now:
        raise ApplicationError("That period is already over.", code="INVALID", status=400,
                               field="first")
    starts_at = max(starts_at, now)
    window = timedelta(days=settings.AWAY_WINDOW_DAYS)
    with transaction.atomic():
        if Away.objects.select_for_update().filter(
                user=user, ends_at__gt=starts_at, starts_at__lt=ends_at).exists():
            raise ApplicationError("That overlaps an away period you already declared.",
                                   code="OVERLAP", status=409, field="first")
        for w0, w1 in ((ends_at - window, ends_at), (starts_at, starts_at + window)):
            used = away_days_used(user, window_start=w0, window_end=w1, tz_name=tz_name,
                                  extra=(starts_at, ends_at))
            if used > cap + 1e-9:
                raise ApplicationError(
                    f"At most {cap} days away in any {settings.AWAY_WINDOW_DAYS} days; "
                    f"this would make {used:g}.", code="ALLOWANCE", status=400, field="last")
        away = Away.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
        _notes_changed(user)
        for phase in Phase.objects.filter(
                closed_at__isnull=True, match__status=Match.Status.RUNNING,
                match__seats__user=user).select_related("match").order_by("match_id"):
            stretch_for_away(phase=phase, now=now)
            if starts_at <= now:
                _close_if_only_away(phase, now=now)
    return away


def _close_if_only_away(phase: Phase, *, now: datetime) -> None:
    """An away period that begins now may leave only away seats unchecked: the others'
    check-ins close the phase (``games.selectors.phase_all_checked_in``). The lock order
    (docs/framework.md): the match row first."""
    from games.selectors import phase_all_checked_in
    from games.services.seats import phase_mark_ready

    Match.objects.select_for_update().filter(pk=phase.match_id).first()
    if phase.close_when_all_checked_in and phase_all_checked_in(phase, now=now):
        phase_mark_ready(phase, now=now)


def away_seats(match_id: int, users: dict[int, int], now: datetime, *,
               version: Any = None) -> set[int]:
    """``AppHooks.away_seats`` hook: the seat numbers of ``users`` ({number: user
    id}) whose player is away at ``now``, unless the match's away rule is "stretch" (then
    the deadline waits for them instead). One query when nobody is away, two otherwise.

    ``version``: the match's public version (with its creation time) as the match page
    read it (it counts check-ins on every load): the away periods of ``users`` are then
    kept in this process under the match, that version and those users
    (:func:`_periods_kept`), so a load runs no query while nobody is away."""
    if version is None:
        away = away_until(set(users.values()), now=now)
    else:
        away = {uid for uid, start, end in _periods_kept(match_id, version, users.values(), now)
                if start <= now < end}
    if not away or MatchRules.objects.filter(
            match_id=match_id, away_rule=MatchRules.AwayRule.STRETCH).exists():
        return set()
    return {number for number, uid in users.items() if uid in away}


#: what a match page reads of the away periods and absences, kept in this process under
#: the match's public version (and creation time) and who it asks about, valid while the
#: version holds: a period is only ever declared or cancelled with a bump of the public
#: version of every running or paused match the player sits in (:func:`_notes_changed`;
#: a deleted account leaves its seats with one too, players/account.py), a seat is marked
#: absent or back by a close (which bumps it), and a takeover or a rename changes the seats
#: in the key. The clock is applied when an entry is read back (a period that begins or
#: ends needs no new entry); an entry is read from the database at ``now`` and used for
#: that moment or later only. ``key -> (read at, rows)``; small entries.
KEPT_SIZE = 4096
_away_kept = LocalHTML(KEPT_SIZE)


def _kept(key: tuple[Any, ...], now: datetime, read) -> Any:
    entry = _away_kept.get(key)
    if entry is None or now < entry[0]:
        entry = (now, read())
        _away_kept.put(key, entry)
    return entry[1]


def _periods_kept(match_id: int, version: Any, user_ids,
                  now: datetime) -> tuple[tuple[int, datetime, datetime], ...]:
    """(user id, starts_at, ends_at) of the away periods of ``user_ids`` not over at
    ``now`` (one query, then kept: above)."""
    users = tuple(sorted(set(user_ids)))
    return _kept(("periods", match_id, version, users), now, lambda: tuple(
        Away.objects.filter(user_id__in=users, ends_at__gt=now)
        .values_list("user_id", "starts_at", "ends_at")))


def away_cancel(*, away: Away, user, now: datetime | None = None) -> None:
    """End an away period now (a period not begun yet is deleted)."""
    now = now or timezone_now()
    if away.user_id != user.pk:
        raise ApplicationError("That is not your away period.", code="FORBIDDEN", status=403)
    if away.starts_at >= now:
        away.delete()
    elif away.ends_at > now:
        away.ends_at = now
        away.save(update_fields=["ends_at"])
    _notes_changed(user)


def _notes_changed(user) -> None:
    """The "away until …" note under the players is public: a declared or cancelled period
    bumps the public version of the user's running matches, so their pages (and the
    fragment cache, games/lib/htmlcache.py) show it at once. The clock's own changes
    (a period that begins or ends) reach the pages within a minute (the seat list's key)."""
    Match.objects.filter(
        pk__in=Seat.objects.filter(user=user, removed_at__isnull=True,
                                   match__status__in=[Match.Status.RUNNING,
                                                      Match.Status.PAUSED])
        .values("match_id")).update(version=F("version") + 1)


def away_until(user_ids, *, now: datetime | None = None) -> dict[int, datetime]:
    """``{user_id: end}`` for those of ``user_ids`` away right now (one query)."""
    now = now or timezone_now()
    out: dict[int, datetime] = {}
    for uid, end in Away.objects.filter(user_id__in=list(user_ids), starts_at__lte=now,
                                        ends_at__gt=now).values_list("user_id", "ends_at"):
        out[uid] = max(end, out.get(uid, end))
    return out


def stretch_for_away(*, phase: Phase, now: datetime | None = None,
                     rules: MatchRules | None = None) -> timedelta:
    """Under the "stretch" rule, move ``phase``'s deadline later by the away time of its
    awaited players that falls before the deadline (wall clock of the match's zone), up to
    the match's cap in total. Returns the stretch applied now. ``rules``: the match's, when
    the caller read them already."""
    now = now or timezone_now()
    match = phase.match
    if rules is None:
        rules = MatchRules.objects.filter(match=match).first()
    if rules is None or rules.away_rule != MatchRules.AwayRule.STRETCH:
        return timedelta(0)
    if phase.deadline_at is None or phase.closed_at is not None:
        return timedelta(0)
    if transaction.get_connection().in_atomic_block:
        # the lock order (docs/framework.md): the match before its phase
        Match.objects.select_for_update().filter(pk=match.pk).first()
    users = list(Seat.objects.filter(match=match, number__in=phase.awaited, user__isnull=False,
                                     removed_at__isnull=True).values_list("user_id", flat=True))
    cap = timedelta(hours=rules.stretch_cap_hours)
    done = _stretched_so_far(phase)
    best = timedelta(0)
    for a in Away.objects.filter(user_id__in=users, starts_at__lt=phase.deadline_at,
                                 ends_at__gt=max(now, phase.opens_at)):
        start = max(a.starts_at, phase.opens_at, now)
        best = max(best, wall_duration(start, a.ends_at, match.timezone))
    extra = min(best, cap) - done
    if extra <= timedelta(0):
        return timedelta(0)
    tz = _zone(match.timezone)
    local = phase.deadline_at.astimezone(tz).replace(tzinfo=None) + extra
    phase.deadline_at = local.replace(tzinfo=tz).astimezone(phase.deadline_at.tzinfo)
    phase.save(update_fields=["deadline_at"])
    Match.objects.filter(pk=match.pk).update(version=F("version") + 1)
    DirectorAction.objects.create(match=match, actor=None, action="away_stretch", details={
        "phase": phase.number, "seconds": int(extra.total_seconds())})
    return extra


def _stretched_so_far(phase: Phase) -> timedelta:
    seconds = sum(int(d.get("seconds", 0)) for d in DirectorAction.objects.filter(
        match_id=phase.match_id, action="away_stretch").values_list("details", flat=True)
        if d.get("phase") == phase.number)
    return timedelta(seconds=seconds)


#: the emails an away player does not get (match news, results and messages still come)
PAUSED_KINDS = {"new_phase", "your_turn", "reminder"}


def away_send_veto(rows, now: datetime) -> dict[int, str]:
    """``AppHooks.send_veto`` hook: no "your move", new-phase or reminder email, nor
    news about the table (a pause, an extension), while the reader is away (they resume
    by themselves afterwards); news about the reader (their death, their seat taken over)
    still goes."""
    from games.services.news_audience import is_table_news

    paused = [r for r in rows if r.kind in PAUSED_KINDS
              or (r.kind == "match_news" and is_table_news(r.payload))]
    if not paused:
        return {}
    away = away_until({r.recipient_id for r in paused}, now=now)
    return {r.pk: "away" for r in paused if r.recipient_id in away}


def seat_notes(match: Match, seats) -> list[str]:
    """``AppHooks.seat_notes`` hook: who is away until when, and which seats are marked
    absent, for everyone reading a running match's page. One query, kept (above) under the
    match's public version and the seats (numbers, players, names: the page's rows), so the
    seat list rendered anew each minute (its key holds the clock) reads nothing more."""
    from django.utils import formats, timezone

    now = timezone_now()
    numbered = [s for s in seats if s.number is not None]
    if all(hasattr(s, "username") for s in numbered):
        key = ("notes", match.pk, match.version, match.created_at,
               tuple((s.number, s.user_id, s.username) for s in numbered))
        rows = _kept(key, now, lambda: _note_rows(match, now))
    else:
        rows = _note_rows(match, now)
    active = [(number, name, end if start is not None and start <= now < end else None,
               absent) for number, name, start, end, absent in rows]
    notes: dict[int, str] = {}
    absent_names: dict[int, str] = {}
    for number, name, away_end, absent in active:
        who = name or "bot"
        if away_end is not None:
            when = formats.date_format(timezone.localtime(away_end), "D j M, H:i")
            notes[number] = gettext("%(name)s is away until %(when)s") % {"name": who,
                                                                          "when": when}
            absent_names.pop(number, None)
        elif absent is not None and number not in notes:
            absent_names[number] = who
    out = [notes[n] for n in sorted(notes)]
    # one line for the absent seats, not one each (a 100-seat match with bots had 99)
    names = [absent_names[n] for n in sorted(absent_names)]
    if len(names) == 1:
        out.append(gettext("%(name)s is absent (missed several phases in a row)")
                   % {"name": names[0]})
    elif names:
        # Translators: what separates the items of a list ("Alice, Bob")
        joined = pgettext("list separator", ", ").join(names)
        out.append(gettext("Absent (missed several phases in a row): %(names)s")
                   % {"names": joined})
    return out


def _note_rows(match: Match, now: datetime) -> tuple[tuple[Any, ...], ...]:
    """(number, username, away starts_at, ends_at, absent_since) of the live seats with an
    away period not over at ``now`` or marked absent, in seat order (a seat once per
    period)."""
    from django.db.models import Q

    return tuple(Seat.objects.filter(match=match, number__isnull=False, removed_at__isnull=True)
                 .filter(Q(user__away_periods__ends_at__gt=now)
                         | Q(record__absent_since__isnull=False))
                 .values_list("number", "user__username", "user__away_periods__starts_at",
                              "user__away_periods__ends_at", "record__absent_since")
                 .order_by("number"))
