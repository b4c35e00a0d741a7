"""The Celery configuration: queues and routes, time limits on every task, a visibility
timeout above the longest task, sweeps that expire, compose in step with the settings,
and the beat lock (celery-redbeat, config/beat.py) on the machine's Redis (db 12)."""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app, beat_schedule

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
    schedule = beat_schedule()
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
    assert settings.CELERY_BEAT_SCHEDULER == "config.beat:Scheduler"


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
    assert re.search(r"--pidfile=(\s|$)", beat)
    for service in ("web:", "worker-clock:", "worker-mail:", "worker-default:", "beat:",
                    "db:", "redis:", "mail:"):
        assert f"\n  {service}" in compose, service


@pytest.fixture
def beat_app():
    """A Celery app of its own for celery-redbeat on the machine's Redis (db 12), under a
    key prefix of this run (other runs share this Redis); redbeat's lock and schedule are
    those config/beat.py gets from the settings, with a short tick for the standby."""
    import redis
    from celery import Celery

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    prefix = f"test-{os.getpid()}-{time.monotonic_ns()}:beat:"
    beat_app = Celery("beat-test", set_as_current=False)
    beat_app.conf.update(
        broker_url="memory://", beat_schedule=beat_schedule(), timezone="UTC",
        redbeat_redis_url=REDIS, redbeat_key_prefix=prefix, redbeat_lock_key=prefix + "lock",
        redbeat_lock_timeout=30, redbeat_redis_options={"socket_timeout": 2})
    yield beat_app
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(match=prefix + "*"):
        client.delete(key)


def _scheduler(beat_app, tmp_path, name):
    from config.beat import Scheduler

    return Scheduler(app=beat_app, schedule_filename=str(tmp_path / name), lazy=False,
                     max_interval=0.05)


def _all_overdue(beat_app):
    from redbeat.schedulers import RedBeatSchedulerEntry

    long_ago = beat_app.now() - timedelta(hours=2)
    for name in beat_app.conf.beat_schedule:
        key = RedBeatSchedulerEntry.generate_key(beat_app, name)
        RedBeatSchedulerEntry.from_key(key, app=beat_app).reschedule(last_run_at=long_ago)


def test_one_beat_sends_a_standby_takes_over_when_the_lock_goes(beat_app, tmp_path,
                                                                 monkeypatch):
    """The holder extends the lock to its full time to live on every tick; a standby
    waits, sending nothing, and takes the lock as soon as it is free (here: the key
    deleted, as the TTL would expire it after a crash); the old holder, back from a pause,
    does not steal it back. No sleep against the TTL: the bound is the TTL plus the tick."""
    import threading

    import redis

    from config import liveness

    marks = []
    monkeypatch.setattr(liveness, "beat_mark", marks.append)
    first, second = _scheduler(beat_app, tmp_path, "a"), _scheduler(beat_app, tmp_path, "b")
    lock_key = beat_app.redbeat_conf.lock_key
    client = redis.Redis.from_url(REDIS)
    sent = {"first": 0, "second": 0}
    monkeypatch.setattr(first, "apply_async", lambda *a, **k: sent.__setitem__(
        "first", sent["first"] + 1))
    monkeypatch.setattr(second, "apply_async", lambda *a, **k: sent.__setitem__(
        "second", sent["second"] + 1))
    try:
        first.tick()
        assert first.lock is not None and first.lock.owned()
        assert 0 < client.pttl(lock_key) <= 30_000  # a dead holder's lock expires by itself
        _all_overdue(beat_app)
        first.tick()
        assert sent["first"] >= 1 and marks  # due entries went out; /healthz sees the beat
        _all_overdue(beat_app)
        took, done, seen = threading.Event(), threading.Event(), {}

        def standby_life():  # a lock's token belongs to the thread that took it
            second.tick()  # waits while the lock is held
            seen["owned"] = second.lock.owned()
            second.tick()
            took.set()
            done.wait(10)
            second.lock.release()

        standby = threading.Thread(target=standby_life, daemon=True)
        standby.start()
        assert not took.wait(0.5) and sent["second"] == 0  # waiting, sending nothing
        client.delete(lock_key)  # the holder died and its time to live ran out
        assert took.wait(5) and seen["owned"] and sent["second"] >= 1
        first_sent = sent["first"]
        assert first.tick() == first.max_interval  # back from a pause: the lock is gone
        assert first.lock is None and sent["first"] == first_sent
        done.set()
        standby.join(5)
    finally:
        if first.lock is not None and first.lock.owned():
            first.lock.release()


def test_redis_lost_mid_run_means_standby_not_exit(beat_app, tmp_path, monkeypatch):
    import redis

    scheduler = _scheduler(beat_app, tmp_path, "c")
    monkeypatch.setattr(scheduler, "apply_async", lambda *a, **k: None)
    scheduler.tick()
    held = scheduler.lock

    def down(*args, **kwargs):
        raise redis.ConnectionError("Redis went away")

    monkeypatch.setattr(held, "extend", down)
    assert scheduler.tick() == scheduler.max_interval and scheduler.lock is None
    from config import beat

    monkeypatch.setattr(beat, "acquire_distributed_beat_lock", down)
    assert scheduler.tick() == scheduler.max_interval and scheduler.lock is None  # retries
    held.release()


def test_beat_settings_reach_redbeat():
    from redbeat.schedulers import RedBeatConfig

    conf = RedBeatConfig(app)
    assert conf.lock_timeout == settings.BEAT_LOCK_TTL_SECONDS
    assert conf.lock_key == f"{settings.REDIS_KEY_PREFIX}:beat:lock"
    assert conf.is_key_in_conf("redbeat_redis_options")  # ours, not the broker's
    assert app.conf.beat_max_loop_interval < settings.BEAT_LOCK_TTL_SECONDS


@pytest.mark.django_db(transaction=True)
def test_tasks_queue_on_commit_and_a_broker_down_is_logged_not_raised(monkeypatch, caplog):
    """Celery's ``delay_on_commit`` (config.celery.Task): nothing is published before the
    commit, and a publish that fails after it never breaks what committed."""
    from django.db import transaction
    from kombu.exceptions import OperationalError

    from config.celery import Task
    from games.tasks import phase_close

    assert isinstance(phase_close, Task)
    sent = []

    def down(*args, **kwargs):
        sent.append(args)
        raise OperationalError("Connection refused")

    monkeypatch.setattr(phase_close, "delay", down)
    with caplog.at_level("ERROR"):
        with transaction.atomic():
            phase_close.delay_on_commit(42)
            assert sent == []  # not before the commit
    assert sent == [(42,)] and "Connection refused" in caplog.text
