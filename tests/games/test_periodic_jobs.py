"""Periodic jobs are declared once (``games.registry.PeriodicJob``): beat's schedule and the
embedded server's sweeper both come from the registered list."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from celery.schedules import crontab
from django.utils.module_loading import import_string

from config.celery import app, beat_schedule
from games import registry
from games.management.commands import run


def test_every_job_names_a_task_and_a_function_that_exist():
    jobs = registry.periodic_jobs()
    assert {"phases-close-due", "press-emails-due", "sessions-clear-ended",
            "diceslayer-challenges-expire"} <= {j.name for j in jobs}
    app.loader.import_default_modules()
    for job in jobs:
        assert callable(import_string(job.function)), job.name
        assert job.task in app.tasks, job.name


def test_the_beat_schedule_is_the_registered_jobs():
    schedule = beat_schedule()
    assert set(schedule) == {j.name for j in registry.periodic_jobs()}
    assert schedule["digests-send"]["schedule"] == crontab(minute=0)
    assert schedule["notifications-retry"]["schedule"] == 30.0


def test_a_job_registered_by_an_app_reaches_beat_and_the_sweeper():
    job = registry.PeriodicJob("probe-job", "games.tasks.retention_prune",
                               "games.services.retention.retention_prune",
                               cron={"minute": "*/10"}, expires=500)
    registry.register_app(registry.AppHooks(label="probe", periodic=(job,)))
    try:
        assert beat_schedule()["probe-job"]["options"] == {"expires": 500}
        assert job in registry.periodic_jobs()
    finally:
        registry.unregister_app("probe")
    assert "probe-job" not in beat_schedule()


@pytest.mark.parametrize("cron,when,due", [
    ({}, datetime(2026, 1, 5, 3, 7, tzinfo=timezone.utc), True),
    ({"minute": 0}, datetime(2026, 1, 5, 3, 7, tzinfo=timezone.utc), False),
    ({"minute": 0}, datetime(2026, 1, 5, 3, 0, tzinfo=timezone.utc), True),
    ({"minute": 30, "hour": 3}, datetime(2026, 1, 5, 3, 30, tzinfo=timezone.utc), True),
    ({"minute": 30, "hour": 3}, datetime(2026, 1, 5, 4, 30, tzinfo=timezone.utc), False),
    ({"minute": "*/5"}, datetime(2026, 1, 5, 4, 35, tzinfo=timezone.utc), True),
    ({"minute": "*/5"}, datetime(2026, 1, 5, 4, 36, tzinfo=timezone.utc), False),
    ({"minute": 0, "hour": 0, "day_of_week": "sun"},
     datetime(2026, 1, 4, 0, 0, tzinfo=timezone.utc), True),  # a Sunday
    ({"minute": 0, "hour": 0, "day_of_week": "sun"},
     datetime(2026, 1, 5, 0, 0, tzinfo=timezone.utc), False),
])
def test_the_sweeper_reads_a_crontab_as_beat_does(cron, when, due):
    assert run._cron_matches(crontab(**cron), when) is due


def test_the_sweeper_runs_each_job_on_its_own_clock(monkeypatch):
    clock = iter([0.0, 1.0, 31.0])
    monkeypatch.setattr(run.time, "monotonic", lambda: next(clock))
    job = registry.PeriodicJob("j", "t", "f", seconds=30.0)
    last: dict = {}
    assert run._due(job, 5.0, last, {})          # the first tick runs everything
    assert not run._due(job, 5.0, last, {})      # 1 s later: not yet
    assert run._due(job, 5.0, last, {})          # 31 s: again
