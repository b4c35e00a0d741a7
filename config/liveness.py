"""Who is alive, kept in Redis with a time to live: each Celery worker writes which queues it
consumes every few seconds, and the beat that holds the scheduler lock writes its own mark.
``/healthz`` reads them back (docs/operations.md "Health").

Every call here is short (one-second socket timeouts) and never raises: a dead Redis
must not break a worker, the beat or the health page; it shows up as "down" instead.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)



def key(*parts: str) -> str:
    """A Redis key in this site's namespace (``REDIS_KEY_PREFIX``: several sites, or
    several test runs, may share one Redis)."""
    return ":".join([settings.REDIS_KEY_PREFIX, *parts])


def worker_key(hostname: str = "") -> str:
    return key("live", "worker", hostname)


def workers_key() -> str:
    """The names of the workers that marked themselves alive, scored by the time of their
    last mark: ``/healthz`` reads the live ones in two round trips instead of a ``SCAN``
    of the broker's whole keyspace, which holds every session (issue 33: 6–10 ms of web
    CPU and 3–4 ms of Redis CPU per probe with 4,000 sessions)."""
    return key("live", "workers")

WORKER_BEAT_SECONDS = 5
WORKER_TTL_SECONDS = 20

_clients: dict[str, Any] = {}


def redis_url() -> str:
    """The Redis the site uses (cache and broker), or "" when it runs embedded."""
    url = settings.REDIS_URL or ""
    broker = settings.CELERY_BROKER_URL or ""
    if not url and broker.startswith(("redis://", "rediss://")):
        url = broker
    return url


def client():
    """A Redis client with short timeouts (one per URL and process), or None."""
    url = redis_url()
    if not url:
        return None
    if url not in _clients:
        import redis

        _clients[url] = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    return _clients[url]


def owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def worker_heartbeat(hostname: str, queues: list[str]) -> None:
    """Record that worker ``hostname`` is alive and consumes ``queues``."""
    redis = client()
    if redis is None:
        return
    now = time.time()
    try:
        pipe = redis.pipeline(transaction=False)
        pipe.set(worker_key(hostname), json.dumps({"queues": sorted(queues), "at": now}),
                 ex=WORKER_TTL_SECONDS)
        pipe.zadd(workers_key(), {hostname: now})
        pipe.execute()
    except Exception as exc:  # noqa: BLE001 - liveness must never break the worker
        log.debug("worker heartbeat not written: %r", exc)


def workers() -> dict[str, dict[str, Any]]:
    """Live workers: ``{hostname: {"queues": [...], "age_s": seconds since its mark}}``.
    Raises when Redis cannot be read (the caller reports Redis as down)."""
    redis = client()
    if redis is None:
        return {}
    prefix = worker_key()
    now = time.time()
    pipe = redis.pipeline(transaction=False)
    pipe.zremrangebyscore(workers_key(), "-inf", now - WORKER_TTL_SECONDS)
    pipe.zrange(workers_key(), 0, -1)
    names = pipe.execute()[1]
    if names:
        keys = [prefix + n.decode() for n in names]
    else:  # workers of a release before the set: their marks found by name
        keys = [k.decode() for k in redis.scan_iter(match=prefix + "*", count=100)]
    out = {}
    for raw_key, raw in zip(keys, redis.mget(keys) if keys else []):
        if raw is None:
            continue
        data = json.loads(raw)
        name = raw_key[len(prefix):]
        out[name] = {"queues": data.get("queues", []), "age_s": round(now - data["at"], 1)}
    return out


def beat_mark(owner: str) -> None:
    """The beat holding the lock says it is alive (read by /healthz)."""
    redis = client()
    if redis is None:
        return
    try:
        redis.set(key("live", "beat"), json.dumps({"owner": owner, "at": time.time()}), ex=300)
    except Exception as exc:  # noqa: BLE001
        log.debug("beat mark not written: %r", exc)


def beat() -> dict[str, Any] | None:
    """``{"owner", "age_s"}`` of the last beat that held the lock, or None."""
    redis = client()
    if redis is None:
        return None
    raw = redis.get(key("live", "beat"))
    if raw is None:
        return None
    data = json.loads(raw)
    return {"owner": data["owner"], "age_s": round(time.time() - data["at"], 1)}


def install_worker_heartbeat() -> None:
    """Connect the Celery signals: once a worker is ready, mark it alive every few seconds
    from its own timer (no extra thread in a process that forks pool children)."""
    from celery.signals import worker_ready, worker_shutdown

    state: dict[str, Any] = {}

    @worker_ready.connect(weak=False)
    def _ready(sender=None, **_: Any) -> None:
        hostname = sender.hostname
        queues = [q.name for q in sender.task_consumer.queues] if sender.task_consumer else []
        state["hostname"] = hostname

        def beat_once() -> None:
            worker_heartbeat(hostname, queues)

        beat_once()
        sender.timer.call_repeatedly(WORKER_BEAT_SECONDS, beat_once)

    @worker_shutdown.connect(weak=False)
    def _gone(**_: Any) -> None:
        redis = client()
        if redis is not None and state.get("hostname"):
            try:
                redis.delete(worker_key(state["hostname"]))
            except Exception:  # noqa: BLE001
                pass
