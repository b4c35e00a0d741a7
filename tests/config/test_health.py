"""``/healthz``: the database, Redis, the last sweep's age, the beat and the workers as
JSON; 503 when a part the site needs is down, whatever the cookies (config/health.py).

Redis-backed cases use the machine's Redis (db 12, keys removed after)."""

from __future__ import annotations

import os
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils.timezone import now as timezone_now

from config import liveness
from games.models import SweepHeartbeat
from tests.config.test_outage import database_down

REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")


@pytest.fixture
def broker(settings):
    """The site as deployed: a real Redis, Celery not eager."""
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    settings.REDIS_URL = REDIS
    settings.REDIS_KEY_PREFIX = f"test-{os.getpid()}"  # other runs share this Redis
    settings.CELERY_TASK_ALWAYS_EAGER = False
    client = liveness.client()
    yield client
    for key in client.scan_iter(match=liveness.key("*")):
        client.delete(key)


@pytest.mark.django_db
def test_embedded_site_is_healthy_with_its_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    report = response.json()
    assert report["ok"] is True and report["checks"]["database"]["ok"] is True
    assert report["checks"]["redis"] == {"ok": True, "configured": False,
                                         "ms": report["checks"]["redis"]["ms"]}


@pytest.mark.django_db(transaction=True)
def test_database_down_is_503_with_or_without_a_session_cookie(django_user_model):
    logged_in = Client(raise_request_exception=False)
    logged_in.force_login(django_user_model.objects.create_user("p", password="pw-12345!"))
    anonymous = Client(raise_request_exception=False)
    with database_down():
        for client in (logged_in, anonymous):
            response = client.get("/healthz")
            assert response.status_code == 503
            report = response.json()
            assert report["ok"] is False and "database" in report["down"]


@pytest.mark.django_db
def test_deployed_site_needs_a_fresh_sweep_and_a_clock_worker(client, broker):
    # nothing swept yet, no worker alive: the clock is down
    report = client.get("/healthz").json()
    assert report["down"] == ["clock"] and report["checks"]["redis"]["ok"] is True
    liveness.worker_heartbeat("clock@box", ["clock"])
    SweepHeartbeat.objects.update_or_create(pk=1, defaults={"last_run_at": timezone_now()})
    response = client.get("/healthz")
    assert response.status_code == 200
    report = response.json()
    assert report["status"] == "degraded" and report["degraded"] == ["mail workers",
                                                                     "default workers"]
    assert report["checks"]["workers"]["queues"]["clock"] == ["clock@box"]
    liveness.worker_heartbeat("mail@box", ["mail", "default"])
    assert client.get("/healthz").json()["status"] == "ok"
    # the sweep stopped a while ago (beat or clock worker dead): 503
    SweepHeartbeat.objects.filter(pk=1).update(last_run_at=timezone_now() - timedelta(minutes=5))
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["down"] == ["clock"]


@pytest.mark.django_db
def test_redis_down_is_503(client, broker, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["down"][0] == "redis"


def test_live_workers_are_read_from_their_set_without_a_keyspace_scan(broker, monkeypatch):
    liveness.worker_heartbeat("clock@box", ["clock"])
    liveness.worker_heartbeat("mail@box", ["mail"])
    broker.zadd(liveness.workers_key(), {"gone@box": time.time() - 60})  # stopped long ago
    broker.delete(liveness.worker_key("mail@box"))  # its mark expired (or was deleted)

    class NoScan:
        def scan_iter(self, *args, **kwargs):
            raise AssertionError("SCAN over the keyspace")

        def __getattr__(self, name):
            return getattr(broker, name)

    monkeypatch.setattr(liveness, "client", NoScan)
    live = liveness.workers()
    assert set(live) == {"clock@box"} and live["clock@box"]["queues"] == ["clock"]
    assert broker.zscore(liveness.workers_key(), "gone@box") is None  # pruned
