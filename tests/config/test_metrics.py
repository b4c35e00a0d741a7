"""``/metrics``: Prometheus text with the phase, outbox and queue figures; a bearer token
(``METRICS_TOKEN``), or the embedded server from loopback; 403 otherwise."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils.timezone import now as timezone_now
from prometheus_client.parser import text_string_to_metric_families

from games.models import Notification, Phase
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def _values(body: bytes) -> dict[str, float]:
    return {s.name: s.value for f in text_string_to_metric_families(body.decode())
            for s in f.samples if not s.labels}


def test_token_or_embedded_loopback_only(settings):
    client = Client()
    settings.METRICS_TOKEN = ""
    settings.EMBEDDED = False
    assert client.get("/metrics").status_code == 403
    settings.EMBEDDED = True
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    settings.METRICS_TOKEN = "s3cret-token"
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    resp = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token")
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("text/plain; version=0.0.4")


def test_the_figures(settings):
    settings.METRICS_TOKEN = "t"
    client = Client()
    late, ok = make_match(players=2), make_match(players=2)
    now = timezone_now()
    Phase.objects.filter(match=late, closed_at__isnull=True).update(
        deadline_at=now - timedelta(minutes=10))
    Phase.objects.filter(match=ok, closed_at__isnull=True).update(
        quarantined_at=now, deadline_at=now - timedelta(hours=1))
    user = make_user()
    Notification.objects.all().delete()
    waiting = Notification.objects.create(recipient=user, kind="director")
    Notification.objects.filter(pk=waiting.pk).update(created_at=now - timedelta(minutes=5),
                                                      next_attempt_at=now - timedelta(minutes=5))
    Notification.objects.create(recipient=user, kind="director", failed_at=now)
    values = _values(client.get("/metrics", HTTP_AUTHORIZATION="Bearer t").content)
    assert values["pbw_phases_overdue"] == 1
    assert 590 <= values["pbw_phase_overdue_max_seconds"] <= 700
    assert values["pbw_phases_quarantined"] == 1
    assert values["pbw_outbox_backlog"] == 1
    assert 290 <= values["pbw_outbox_oldest_unsent_seconds"] <= 400
    assert values["pbw_outbox_send_failures"] == 1
    assert values["pbw_phase_closes_last_minute"] == 0
    Phase.objects.filter(match=late).update(closed_at=timezone_now())
    values = _values(client.get("/metrics", HTTP_AUTHORIZATION="Bearer t").content)
    assert values["pbw_phase_closes_last_minute"] == 1
    assert values["pbw_phases_overdue"] == 0


def test_queue_depths_from_a_redis_broker(settings):
    import redis

    from config.metrics import queue_depths

    url = "redis://127.0.0.1:6379/13"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
        client.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    settings.CELERY_BROKER_URL = url
    client.delete("clock", "mail", "default", "mail\x06\x163")
    try:
        client.rpush("mail", "a", "b")
        client.rpush("mail\x06\x163", "c")  # a priority level of the same queue
        client.rpush("clock", "d")
        assert queue_depths() == {"clock": 1, "mail": 3, "default": 0}
    finally:
        client.delete("clock", "mail", "default", "mail\x06\x163")
    settings.CELERY_BROKER_URL = "memory://"
    assert queue_depths() is None  # the embedded server: no broker to read
