"""``/healthz``: what the site needs, as JSON (docs/operations.md "Health").

Checks: the database (``SELECT 1``), Redis (``PING``, when configured), the age of the last
deadline sweep (``SweepHeartbeat``, written by every sweep), the beat holding the lock and
the live Celery workers per queue (``config.liveness``). The answer is 503 when a part the
site needs is down — the database, Redis, the clock (the sweep stale or no worker on the
``clock`` queue) — and 200 otherwise; a missing ``mail`` or ``default`` worker is reported
as ``degraded`` (the site plays on, email waits in the outbox).

It is served by :class:`HealthzMiddleware` before sessions and authentication, so a
request with cookies gets the same answer as one without (a session lookup in a dead
database must not turn the probe into a 500).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.timezone import now as timezone_now

from config import liveness

PATH = "/healthz"
QUEUES = ("clock", "mail", "default")


def _timed(check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    started = time.monotonic()
    try:
        out = {"ok": True, **check()}
    except Exception as exc:  # noqa: BLE001 - any failure means this part is down
        out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    out["ms"] = round((time.monotonic() - started) * 1000, 1)
    return out


def _database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {}


def _redis() -> dict[str, Any]:
    redis = liveness.client()
    if redis is None:
        return {"configured": False}
    redis.ping()
    return {"configured": True}


def _sweep() -> dict[str, Any]:
    from games.models import SweepHeartbeat

    last = SweepHeartbeat.objects.filter(pk=1).values_list("last_run_at", flat=True).first()
    limit = settings.HEALTH_SWEEP_MAX_AGE_SECONDS
    if last is None:
        return {"ok": False, "last_run_at": None, "age_s": None, "max_age_s": limit}
    age = (timezone_now() - last).total_seconds()
    return {"ok": age <= limit, "last_run_at": last.isoformat(), "age_s": round(age, 1),
            "max_age_s": limit}


def _workers() -> dict[str, Any]:
    live = liveness.workers()
    per_queue = {q: sorted(n for n, w in live.items() if q in w["queues"]) for q in QUEUES}
    return {"queues": per_queue, "ok": all(per_queue.values())}


def health_report() -> tuple[int, dict[str, Any]]:
    """(HTTP status, report). Celery eager (the embedded server, tests): no broker, no
    workers, and the sweep runs in the server process, so only the database is needed."""
    embedded = settings.CELERY_TASK_ALWAYS_EAGER
    checks: dict[str, dict[str, Any]] = {"database": _timed(_database),
                                         "redis": _timed(_redis)}
    checks["sweep"] = (_timed(_sweep) if checks["database"]["ok"]
                       else {"ok": False, "error": "database down"})
    if embedded:
        checks["workers"] = {"ok": True, "embedded": True}
        checks["beat"] = {"ok": True, "embedded": True}
    elif checks["redis"]["ok"]:
        checks["workers"] = _timed(_workers)
        checks["beat"] = _timed(lambda: {"last": liveness.beat()})
    else:
        checks["workers"] = checks["beat"] = {"ok": False, "error": "redis down"}
    down = [name for name in ("database", "redis") if not checks[name]["ok"]]
    degraded = []
    if not embedded:
        clock_workers = checks["workers"].get("queues", {}).get("clock")
        if not checks["sweep"]["ok"] or not clock_workers:
            down.append("clock")
        degraded += [f"{q} workers" for q in ("mail", "default")
                     if not checks["workers"].get("queues", {}).get(q)]
    elif checks["sweep"].get("ok") is False and checks["database"]["ok"]:
        degraded.append("clock")  # the embedded sweeper has not run lately
    status = 503 if down else 200
    return status, {"ok": not down, "status": "down" if down else
                    "degraded" if degraded else "ok",
                    "down": down, "degraded": degraded, "checks": checks}


def healthz(request: HttpRequest) -> HttpResponse:
    status, report = health_report()
    response = JsonResponse(report, status=status)
    response["Cache-Control"] = "no-store"
    return response


class HealthzMiddleware:
    """Answer ``/healthz`` before the session, authentication and user middleware run."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == PATH and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
