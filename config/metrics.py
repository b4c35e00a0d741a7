"""``GET /metrics``: what an operator watches, in Prometheus' text format (prometheus-client).

Every figure is read from the database (and the broker's queue lengths from Redis) when
Prometheus scrapes, so every web process answers the same and nothing is counted in
memory: phases overdue and how late the latest is, closes in the last minute, quarantined
phases, the email outbox (backlog, oldest due row's age, failures, rows held after a
restore), the Celery queues' depths, the sweep's age (docs/operations.md "Metrics").

Who may read it: with ``METRICS_TOKEN`` set, a request carrying
``Authorization: Bearer <token>``; without one, only the embedded server (``manage.py
run``) answers, and only to loopback. Anything else is a 403 (a 404 would hide a
misconfiguration from the operator).
"""

from __future__ import annotations

import hmac
import logging
from datetime import datetime, timedelta
from typing import Any, Iterator

from django.conf import settings
from django.db.models import Count, Max, Min, Q
from django.http import HttpRequest, HttpResponse
from django.utils.timezone import now as timezone_now
from django.views.decorators.http import require_GET
from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

LOOPBACK = {"127.0.0.1", "::1"}
QUEUES = ("clock", "mail", "default")
#: kombu's Redis transport keeps a queue's priority levels in keys "<queue>\x06\x16<n>"
PRIORITY_SEP = "\x06\x16"
PRIORITY_STEPS = (3, 6, 9)


def _seconds(delta: timedelta | None) -> float:
    return max(0.0, delta.total_seconds()) if delta is not None else 0.0


def phase_figures(now: datetime) -> dict[str, float]:
    from games.models import Match, Phase

    open_running = Phase.objects.filter(closed_at__isnull=True,
                                        match__status=Match.Status.RUNNING)
    overdue = open_running.filter(quarantined_at__isnull=True, deadline_at__lte=now).aggregate(
        n=Count("id"), oldest=Min("deadline_at"))
    quarantined = Phase.objects.filter(closed_at__isnull=True,
                                       quarantined_at__isnull=False).count()
    closes = Phase.objects.filter(closed_at__gt=now - timedelta(minutes=1),
                                  closed_at__lte=now).count()
    return {"overdue": overdue["n"],
            "overdue_max_s": _seconds(now - overdue["oldest"]) if overdue["oldest"] else 0.0,
            "quarantined": quarantined, "closes_last_minute": closes,
            "ready": open_running.filter(ready_at__isnull=False,
                                         quarantined_at__isnull=True).count()}


def outbox_figures(now: datetime) -> dict[str, float]:
    from games.models import Notification

    unsent = Notification.objects.filter(sent_at__isnull=True, failed_at__isnull=True)
    waiting = unsent.aggregate(
        backlog=Count("id", filter=Q(next_attempt_at__lte=now)),
        later=Count("id", filter=Q(next_attempt_at__gt=now, held_at__isnull=True)),
        held=Count("id", filter=Q(held_at__isnull=False)),
        retrying=Count("id", filter=Q(attempts__gt=0, next_attempt_at__gt=now,
                                      held_at__isnull=True)),
        oldest=Min("created_at", filter=Q(next_attempt_at__lte=now)))
    failures = Notification.objects.filter(failed_at__isnull=False).aggregate(
        total=Count("id"), last_hour=Count("id", filter=Q(failed_at__gt=now - timedelta(hours=1))),
        latest=Max("failed_at"))
    return {"backlog": waiting["backlog"], "later": waiting["later"], "held": waiting["held"],
            "retrying": waiting["retrying"],
            "oldest_s": _seconds(now - waiting["oldest"]) if waiting["oldest"] else 0.0,
            "failed_total": failures["total"], "failed_last_hour": failures["last_hour"]}


def queue_depths() -> dict[str, int] | None:
    """Messages waiting in each Celery queue (all priority levels), or None without a
    Redis broker (the embedded server runs tasks inline) or when Redis is unreachable."""
    url = settings.CELERY_BROKER_URL or ""
    if not url.startswith(("redis://", "rediss://")):
        return None
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        pipe = client.pipeline(transaction=False)
        for queue in QUEUES:
            pipe.llen(queue)
            for step in PRIORITY_STEPS:
                pipe.llen(f"{queue}{PRIORITY_SEP}{step}")
        lengths = pipe.execute()
    except (redis.exceptions.RedisError, OSError) as exc:
        log.warning("metrics: the broker's queue lengths are unavailable: %r", exc)
        return None
    per = 1 + len(PRIORITY_STEPS)
    return {q: int(sum(lengths[i * per:(i + 1) * per])) for i, q in enumerate(QUEUES)}


def sweep_age(now: datetime) -> float | None:
    from games.models import SweepHeartbeat

    last = SweepHeartbeat.objects.filter(pk=1).values_list("last_run_at", flat=True).first()
    return _seconds(now - last) if last else None


#: (metric, what it says, the figure's key) of :func:`phase_figures` and :func:`outbox_figures`
PHASE_GAUGES = (
    ("pbw_phases_overdue", "Open phases of running matches past their deadline (not "
     "quarantined): the sweep has not closed them yet.", "overdue"),
    ("pbw_phase_overdue_max_seconds", "How late the most overdue open phase is, in seconds "
     "(0 when none is overdue).", "overdue_max_s"),
    ("pbw_phases_ready", "Open phases every awaited player checked in for (the sweep closes "
     "them next).", "ready"),
    ("pbw_phases_quarantined", "Phases whose rules failed to resolve three times: waiting "
     "for the director.", "quarantined"),
    ("pbw_phase_closes_last_minute", "Phases closed in the last 60 seconds (closes per "
     "minute).", "closes_last_minute"),
)
OUTBOX_GAUGES = (
    ("pbw_outbox_backlog", "Emails due to be sent now and not sent yet.", "backlog"),
    ("pbw_outbox_oldest_unsent_seconds", "Age of the oldest email due and not sent (0 when "
     "none).", "oldest_s"),
    ("pbw_outbox_waiting", "Emails waiting for a later time (a retry's backoff, a coalesced "
     "'your move').", "later"),
    ("pbw_outbox_retrying", "Emails whose last attempt failed and that wait for their next.",
     "retrying"),
    ("pbw_outbox_held", "Emails held after a restore for the director to release or drop "
     "(manage.py mail_hold).", "held"),
    ("pbw_outbox_send_failures", "Emails that failed for good (refused address, or a day of "
     "temporary failures), all time.", "failed_total"),
    ("pbw_outbox_send_failures_last_hour", "Emails that failed for good in the last hour.",
     "failed_last_hour"),
)


class SiteCollector(Collector):
    """Reads every figure at scrape time (a handful of indexed queries)."""

    def collect(self) -> Iterator[Any]:
        now = timezone_now()
        for gauges, figures in ((PHASE_GAUGES, phase_figures(now)),
                                (OUTBOX_GAUGES, outbox_figures(now))):
            for name, doc, key in gauges:
                yield _gauge(name, doc, figures[key])
        age = sweep_age(now)
        if age is not None:
            yield _gauge("pbw_sweep_age_seconds", "Seconds since the deadline sweep last "
                         "ran.", age)
        depths = queue_depths()
        if depths is not None:
            family = GaugeMetricFamily("pbw_queue_depth", "Messages waiting in a Celery "
                                       "queue.", labels=["queue"])
            for queue, depth in depths.items():
                family.add_metric([queue], depth)
            yield family


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)


_registry = CollectorRegistry(auto_describe=False)
_registry.register(SiteCollector())


def allowed(request: HttpRequest) -> bool:
    """A bearer token when ``METRICS_TOKEN`` is set; else the embedded server on loopback."""
    token = getattr(settings, "METRICS_TOKEN", "")
    if token:
        kind, _, given = request.headers.get("Authorization", "").partition(" ")
        return kind.lower() == "bearer" and hmac.compare_digest(given.strip().encode(),
                                                               token.encode())
    return bool(settings.EMBEDDED) and request.META.get("REMOTE_ADDR") in LOOPBACK


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        response = HttpResponse("Forbidden: send 'Authorization: Bearer <METRICS_TOKEN>'.\n",
                                status=403, content_type="text/plain; charset=utf-8")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    # the format Prometheus asks for (text 0.0.4 by default, OpenMetrics on request)
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    response = HttpResponse(encoder(_registry), content_type=content_type)
    response["Cache-Control"] = "no-store"
    return response
