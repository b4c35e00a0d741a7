"""Deadline arithmetic (pure): wall-clock windows across both DST changes, durations,
duration classes, CHECK mode, no deadline."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from games.services.schedule import (ScheduleError, deadline_for, next_wall_clock,
                                     validate_schedule, window_bounds)

UTC = timezone.utc
ROME = ZoneInfo("Europe/Rome")
KILLGAME = {"mode": "windows", "windows": {"tactical": "13:00", "action": "21:30"}}


def _deadline(kind: str, now: datetime, schedule=KILLGAME, timing="schedule"):
    return deadline_for(schedule=schedule, timezone_name="Europe/Rome", kind=kind,
                        timing=timing, now=now)


def test_windows_are_tactical_13_to_2130_and_action_2130_to_13():
    assert window_bounds(KILLGAME, "tactical")[1].strftime("%H:%M") == "21:30"
    assert window_bounds(KILLGAME, "action")[1].strftime("%H:%M") == "13:00"
    explicit = {"mode": "windows", "windows": {"tactical": ["13:00", "21:30"]}}
    assert window_bounds(explicit, "tactical")[1].strftime("%H:%M") == "21:30"


def test_summer_tactical_closes_at_2130_rome_which_is_1930_utc():
    now = datetime(2026, 7, 1, 11, 0, tzinfo=UTC)  # 13:00 CEST
    assert _deadline("tactical", now) == datetime(2026, 7, 1, 19, 30, tzinfo=UTC)
    assert _deadline("action", datetime(2026, 7, 1, 19, 30, tzinfo=UTC)) == \
        datetime(2026, 7, 2, 11, 0, tzinfo=UTC)


def test_spring_forward_action_phase_still_ends_at_1300_rome():
    # DST starts Sunday 29 March 2026 at 02:00 CET -> 03:00 CEST.
    opened = datetime(2026, 3, 28, 20, 30, tzinfo=UTC)  # Saturday 21:30 CET
    deadline = _deadline("action", opened)
    assert deadline.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == "2026-03-29 13:00"
    assert deadline == datetime(2026, 3, 29, 11, 0, tzinfo=UTC)  # CEST: UTC+2
    assert deadline - opened == timedelta(hours=14, minutes=30)  # one hour shorter


def test_fall_back_action_phase_still_ends_at_1300_rome():
    # DST ends Sunday 25 October 2026 at 03:00 CEST -> 02:00 CET.
    opened = datetime(2026, 10, 24, 19, 30, tzinfo=UTC)  # Saturday 21:30 CEST
    deadline = _deadline("action", opened)
    assert deadline.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == "2026-10-25 13:00"
    assert deadline == datetime(2026, 10, 25, 12, 0, tzinfo=UTC)  # CET: UTC+1
    assert deadline - opened == timedelta(hours=16, minutes=30)  # one hour longer


def test_tactical_across_dst_days_keeps_wall_clock():
    before = _deadline("tactical", datetime(2026, 3, 28, 12, 0, tzinfo=UTC))
    after = _deadline("tactical", datetime(2026, 3, 29, 11, 0, tzinfo=UTC))
    assert before.astimezone(ROME).strftime("%H:%M") == after.astimezone(ROME).strftime("%H:%M") == "21:30"
    assert (before.hour, after.hour) == (20, 19)


def test_time_inside_the_spring_gap_maps_after_the_gap():
    moment = next_wall_clock(datetime(2026, 3, 28, 23, 0, tzinfo=UTC),
                             datetime.strptime("02:30", "%H:%M").time(), "Europe/Rome")
    assert moment == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 CEST


def test_a_phase_opened_just_after_its_window_end_waits_for_the_next_one():
    now = datetime(2026, 7, 1, 19, 31, tzinfo=UTC)  # 21:31 Rome
    assert _deadline("tactical", now) == datetime(2026, 7, 2, 19, 30, tzinfo=UTC)


def test_min_minutes_skips_a_window_that_ends_too_soon():
    sched = {**KILLGAME, "min_minutes": 60}
    now = datetime(2026, 7, 1, 19, 0, tzinfo=UTC)  # 21:00 Rome, window ends in 30 min
    assert _deadline("tactical", now, schedule=sched) == datetime(2026, 7, 2, 19, 30, tzinfo=UTC)


def test_durations_check_mode_classes_and_none():
    now = datetime(2026, 7, 1, 10, 0, tzinfo=UTC)
    sched = {"mode": "duration", "hours": 48, "durations": {"short": 600},
             "check_max_hours": 12}
    assert _deadline("turn", now, schedule=sched) == now + timedelta(hours=48)
    assert _deadline("turn", now, schedule=sched, timing="short") == now + timedelta(minutes=10)
    assert _deadline("turn", now, schedule=sched, timing="check") == now + timedelta(hours=12)
    assert _deadline("turn", now, schedule={}, timing="check") == now + timedelta(hours=24)
    assert _deadline("turn", now, schedule=sched, timing="none") is None
    # a windows schedule without a window for this kind falls back to the duration
    assert _deadline("other", now) == now + timedelta(hours=24)


def test_validate_schedule_names_what_is_wrong():
    assert validate_schedule({})["mode"] == "duration"
    with pytest.raises(ScheduleError):
        validate_schedule({"mode": "windows", "windows": {"tactical": "25:99"}})
    with pytest.raises(ScheduleError):
        validate_schedule({"mode": "sometimes"})
    with pytest.raises(ScheduleError):
        validate_schedule({"mode": "duration", "durations": {"short": -1}})


# --- the minimum phase length (issue 23) -------------------------------------------------

def test_default_minimum_is_half_the_window():
    from games.services.schedule import min_phase_minutes, window_minutes
    assert window_minutes(KILLGAME, "tactical") == 8 * 60 + 30
    assert window_minutes(KILLGAME, "action") == 15 * 60 + 30
    assert min_phase_minutes(KILLGAME, "tactical") == 255
    assert min_phase_minutes({**KILLGAME, "min_minutes": 0}, "tactical") == 0


def test_an_early_close_at_2028_gives_the_next_tactical_phase_the_next_window():
    # winter: 20:28 Rome is 19:28 UTC; the window ends 21:30 Rome, 62 minutes later
    now = datetime(2026, 12, 1, 19, 28, tzinfo=UTC)
    deadline = _deadline("tactical", now)
    assert deadline.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == "2026-12-02 21:30"
    assert deadline - now >= timedelta(minutes=255)


def test_a_phase_with_more_than_the_minimum_left_keeps_its_window():
    now = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)  # 16:00 Rome, 5 h 30 left
    assert _deadline("tactical", now).astimezone(ROME).strftime("%d %H:%M") == "01 21:30"


def test_the_minimum_across_the_spring_change_and_midnight():
    # 22:00 Rome on Saturday 28 March: the Action window ends 13:00 Sunday, after the
    # clocks jump; 14 h of wall clock but 14 h − 1 h real time, still above 7 h 45
    now = datetime(2026, 3, 28, 21, 0, tzinfo=UTC)
    deadline = _deadline("action", now)
    assert deadline.astimezone(ROME).strftime("%m-%d %H:%M") == "03-29 13:00"
    # 08:00 Rome on Sunday (after the change): 5 h left < 7 h 45 → Monday 13:00
    late = datetime(2026, 3, 29, 6, 0, tzinfo=UTC)
    assert _deadline("action", late).astimezone(ROME).strftime("%m-%d %H:%M") == "03-30 13:00"


def test_check_mode_and_duration_classes_ignore_the_minimum():
    now = datetime(2026, 12, 1, 19, 28, tzinfo=UTC)
    sched = {**KILLGAME, "durations": {"short": 600}, "check_max_hours": 2}
    assert _deadline("tactical", now, schedule=sched, timing="short") == now + timedelta(minutes=10)
    assert _deadline("tactical", now, schedule=sched, timing="check") == now + timedelta(hours=2)
