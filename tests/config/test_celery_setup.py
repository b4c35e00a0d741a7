"""The Celery configuration: queues and routes, time limits on every task, a visibility
timeout above the longest task, sweeps that expire, compose in step with the settings,
and the beat lock (config/beat.py) on the machine's Redis (db 12)."""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")


def _game_tasks():
    import games.tasks  # noqa: F401 - registers them

    return {name: task for name, task in app.tasks.items() if name.startswith("games.")}


def _queue(name: str) -> str:
    route = app.amqp.router.route({}, name)
    return route["queue"].name


def test_clock_and_mail_have_their_own_queues():
    assert _queue("games.tasks.phases_close_due") == "clock"
    assert _queue("games.tasks.phase_close") == "clock"
    assert _queue("games.tasks.notification_send") == "mail"
    assert _queue("games.tasks.notifications_send") == "mail"
    assert _queue("games.tasks.seats_send_nags") == "default"


def test_every_task_has_a_soft_and_a_hard_limit_below_the_visibility_timeout():
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility <= 600  # minutes, not an hour
    tasks = _game_tasks()
    assert len(tasks) >= 6
    for name, task in tasks.items():
        assert task.soft_time_limit and task.time_limit, name
        assert task.soft_time_limit < task.time_limit < visibility, name
        assert task.acks_late, name
    assert tasks["games.tasks.phase_close"].time_limit <= 30


def test_scheduled_tasks_expire_before_their_next_run():
    schedule = app.conf.beat_schedule
    sweep = schedule["phases-close-due"]
    assert sweep["options"]["expires"] <= sweep["schedule"]
    for name, entry in schedule.items():
        assert entry.get("options", {}).get("expires"), name
        when = entry["schedule"]
        if isinstance(when, (int, float)):
            interval = when
        elif len(when.hour) == 1 and len(when.minute) == 1:  # once a day
            interval = 24 * 3600
        else:  # a crontab over every hour of the day: its shortest gap
            assert len(when.hour) == 24, name
            minutes = sorted(when.minute)
            interval = 60 * min(b - a for a, b in zip(minutes, minutes[1:] + [minutes[0] + 60]))
        assert entry["options"]["expires"] <= interval, name
    assert settings.CELERY_BEAT_SCHEDULER == "config.beat:LockedScheduler"


def test_compose_runs_a_worker_per_queue_and_persists_redis():
    compose = (ROOT / "docker-compose.yml").read_text()
    queues = {r["queue"] for r in settings.CELERY_TASK_ROUTES.values()}
    queues.add(settings.CELERY_TASK_DEFAULT_QUEUE)
    served = set()
    for line in compose.splitlines():
        if "celery" in line and " worker " in line:
            match = re.search(r"-Q (\S+)", line)
            assert match, f"a worker without -Q consumes only the default queue: {line}"
            served |= set(match.group(1).split(","))
    assert served == queues
    assert "--appendonly\", \"yes" in compose
    beat = next(line for line in compose.splitlines() if "celery -A config beat" in line)
    assert "--pidfile= " in beat
    for service in ("web:", "worker-clock:", "worker-mail:", "worker-default:", "beat:",
                    "db:", "redis:", "mail:"):
        assert f"\n  {service}" in compose, service


@pytest.fixture
def redis_lock(settings):
    import redis

    from config import beat, liveness

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    settings.REDIS_URL = REDIS
    settings.REDIS_KEY_PREFIX = f"test-{os.getpid()}"  # other runs share this Redis
    liveness.client().delete(beat.lock_key())
    yield beat
    for key in liveness.client().scan_iter(match=liveness.key("*")):
        liveness.client().delete(key)


def test_only_one_beat_holds_the_lock_and_a_standby_takes_over(redis_lock):
    first = redis_lock.BeatLock(ttl_seconds=1)
    second = redis_lock.BeatLock(ttl_seconds=1)
    assert first.hold() is True and second.hold() is False
    assert first.hold() is True  # renewed
    time.sleep(1.2)  # the first beat crashed: it renews no more
    assert second.hold() is True
    assert first.hold() is False  # back from a pause: it must not steal the lock back
    second.release()
    assert first.hold() is True


def test_a_beat_without_the_lock_sends_nothing(redis_lock, tmp_path):
    from unittest import mock

    other = redis_lock.BeatLock(ttl_seconds=30)
    assert other.hold()
    scheduler = redis_lock.LockedScheduler(app=app, schedule_filename=str(tmp_path / "s"),
                                           lazy=False)
    try:
        long_ago = scheduler.app.now() - timedelta(hours=2)
        for entry in scheduler.schedule.values():  # every entry is overdue
            entry.last_run_at = long_ago
        with mock.patch.object(scheduler, "apply_async") as send:
            scheduler.tick()
            assert send.call_count == 0
            other.release()
            for _ in range(3):
                scheduler.tick()
            assert send.call_count >= 1  # holding the lock, the due entries go out
            assert scheduler.lock.held
    finally:
        scheduler.close()
    assert not scheduler.lock.held


def test_redis_down_means_no_lock(settings):
    from config import beat

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    assert beat.BeatLock(ttl_seconds=5).hold() is False
