"""Deadline arithmetic: pure functions from (schedule, time zone, phase timing, now) to a UTC
deadline. No database, no clock (``now`` is passed in), so DST behaviour is unit-tested.

A match's ``schedule`` (``Match.schedule``) is one of::

    {"mode": "windows", "windows": {"tactical": "13:00", "action": "21:30"}}
    {"mode": "duration", "hours": 24}

plus optional ``"check_max_hours"`` (CHECK mode cap, default 24), ``"durations"``
(duration classes in seconds, ``{"short": 3600, "normal": 86400}``) and ``"min_minutes"``
(the minimum phase length: a window ending sooner than this after the phase opens is
skipped to its next occurrence; default half the window, ``0`` turns it off).

The minimum matters after an early close: every seat checks in to an Action phase at
20:28, the Tactical phase opens at once, and its window ends at 21:30 — a 62-minute phase
nobody would see. Under the default minimum (half of 13:00–21:30, 4 h 15) it runs to
21:30 the next day instead. CHECK-mode phases and duration classes keep their own length.

Windows are wall-clock times in the match's time zone (``zoneinfo``). ``{"tactical":
"13:00", "action": "21:30"}`` names when each window *opens*; a window ends when the next
one (in time-of-day order, cyclically) opens, so Tactical runs 13:00–21:30 and Action
21:30–13:00. A window may also be given explicitly as ``["13:00", "21:30"]``. A phase of
kind K closes at the first end of K's window strictly after the phase opened: 13:00 Rome
stays 13:00 Rome across both DST changes (the UTC instant moves by an hour instead).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone as dt_timezone
from typing import Any, Mapping

from games.lib.dates import safe_zone

DEFAULT_CHECK_MAX_HOURS = 24
DEFAULT_DURATION_HOURS = 24

TIMING_SCHEDULE = "schedule"
TIMING_CHECK = "check"
TIMING_NONE = "none"


class ScheduleError(ValueError):
    """The schedule cannot be read (bad time, unknown mode)."""


def parse_clock(raw: str) -> time:
    """``"13:00"`` -> ``time(13, 0)``; raises :class:`ScheduleError`."""
    try:
        hours, minutes = str(raw).strip().split(":")
        return time(int(hours), int(minutes))
    except (ValueError, TypeError) as exc:
        raise ScheduleError(f"{raw!r} is not a time of day like 13:00.") from exc


def next_wall_clock(after: datetime, clock: time, zone_name: str) -> datetime:
    """The first instant strictly after ``after`` whose local time in ``zone_name`` is
    ``clock``, in UTC.

    A clock time that does not exist that day (inside the spring-forward gap) maps to the
    instant just after the gap, as ``zoneinfo`` resolves it with ``fold=0``.
    """
    zone = safe_zone(zone_name)
    local_day: date = after.astimezone(zone).date()
    for offset in range(0, 3):
        candidate = datetime.combine(local_day + timedelta(days=offset), clock, tzinfo=zone)
        candidate_utc = candidate.astimezone(dt_timezone.utc)
        if candidate_utc > after:
            return candidate_utc
    raise AssertionError("unreachable: a wall-clock time recurs within two days")


def window_bounds(schedule: Mapping[str, Any], kind: str) -> tuple[time, time] | None:
    """(opens, closes) of ``kind``'s window, or ``None`` if the schedule has no such window."""
    windows = schedule.get("windows") or {}
    if kind not in windows:
        return None
    spec = windows[kind]
    if isinstance(spec, (list, tuple)):
        if len(spec) != 2:
            raise ScheduleError(f"Window {kind!r} must be [opens, closes].")
        return parse_clock(spec[0]), parse_clock(spec[1])
    opens = parse_clock(spec)
    starts = sorted({parse_clock(v if isinstance(v, str) else v[0]) for v in windows.values()})
    if len(starts) < 2:
        # A single window opens and closes at the same clock time: a day long.
        return opens, opens
    later = [s for s in starts if s > opens]
    return opens, (later[0] if later else starts[0])


def window_minutes(schedule: Mapping[str, Any], kind: str) -> int | None:
    """Length of ``kind``'s window on the wall clock, in minutes (a window that opens and
    closes at the same time is a day long); ``None`` without such a window."""
    bounds = window_bounds(schedule, kind)
    if bounds is None:
        return None
    opens, closes = bounds
    minutes = (closes.hour * 60 + closes.minute) - (opens.hour * 60 + opens.minute)
    return minutes % (24 * 60) or 24 * 60


def min_phase_minutes(schedule: Mapping[str, Any], kind: str) -> float:
    """The minimum length of a scheduled phase of ``kind``: the schedule's ``min_minutes``
    when set (``0``: none), else half of ``kind``'s window."""
    if "min_minutes" in (schedule or {}):
        return float(schedule["min_minutes"] or 0)
    length = window_minutes(schedule, kind)
    return length / 2 if length else 0.0


def validate_schedule(schedule: Mapping[str, Any]) -> dict[str, Any]:
    """The schedule with its defaults, or :class:`ScheduleError` naming what is wrong."""
    out = dict(schedule or {})
    mode = out.setdefault("mode", "duration")
    if mode not in {"windows", "duration"}:
        raise ScheduleError("Schedule mode must be 'windows' or 'duration'.")
    if mode == "windows":
        windows = out.get("windows")
        if not isinstance(windows, dict) or not windows:
            raise ScheduleError("A windows schedule needs windows, e.g. {'tactical': '13:00'}.")
        for kind in windows:
            window_bounds(out, kind)
    for key in ("hours", "check_max_hours", "min_minutes"):
        if key in out and (not isinstance(out[key], (int, float)) or isinstance(out[key], bool)
                           or out[key] < 0):
            raise ScheduleError(f"Schedule {key} must be a positive number.")
    durations = out.get("durations") or {}
    if not isinstance(durations, dict) or any(
            not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0
            for v in durations.values()):
        raise ScheduleError("Schedule durations must map names to seconds.")
    return out


def deadline_for(*, schedule: Mapping[str, Any], timezone_name: str, kind: str, timing: str,
                 now: datetime) -> datetime | None:
    """When a phase of ``kind`` with engine ``timing`` opened at ``now`` closes (UTC).

    1. ``timing == "none"``: no deadline (solo play).
    2. ``timing == "check"``: CHECK mode, ``now + check_max_hours`` (default 24 h).
    3. ``timing`` names a duration class in ``schedule["durations"]``: ``now + seconds``.
    4. otherwise (``"schedule"``): the end of ``kind``'s wall-clock window if the schedule
       has one — or the end of the next one, when that end is sooner than the minimum
       phase length (:func:`min_phase_minutes`) — else ``now + schedule["hours"]``
       (default 24 h).

    >>> from datetime import datetime, timezone
    >>> sched = {"mode": "windows", "windows": {"tactical": "13:00", "action": "21:30"}}
    >>> deadline_for(schedule=sched, timezone_name="Europe/Rome", kind="tactical",
    ...              timing="schedule", now=datetime(2026, 7, 1, 11, 0, tzinfo=timezone.utc))
    datetime.datetime(2026, 7, 1, 19, 30, tzinfo=datetime.timezone.utc)
    """
    schedule = schedule or {}
    if timing == TIMING_NONE:
        return None
    if timing == TIMING_CHECK:
        hours = schedule.get("check_max_hours", DEFAULT_CHECK_MAX_HOURS)
        return now + timedelta(hours=hours)
    durations = schedule.get("durations") or {}
    if timing in durations:
        return now + timedelta(seconds=durations[timing])
    if schedule.get("mode") == "windows":
        bounds = window_bounds(schedule, kind)
        if bounds is not None:
            _, closes = bounds
            deadline = next_wall_clock(now, closes, timezone_name)
            min_minutes = min_phase_minutes(schedule, kind)
            if min_minutes and deadline - now < timedelta(minutes=min_minutes):
                deadline = next_wall_clock(deadline, closes, timezone_name)
            return deadline
    return now + timedelta(hours=schedule.get("hours", DEFAULT_DURATION_HOURS))
