"""Issue 27's "Done when", on the demo data of ``make run`` (``seed_demo``): a player
downloads their data as JSON and deletes their account, after which their login fails and
the demo match shows "former player"; ``/metrics`` from loopback answers in Prometheus'
text format with the phase and outbox gauges. (The bench half, ``bench_faults --json``
with ``redis_down``, ``nags_under_load`` and ``worker_killed_mid_send``, runs in
tests/games/test_bench_faults.py and by hand: docs/operations.md.)"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from prometheus_client.parser import text_string_to_metric_families

from games.models import Match

pytestmark = pytest.mark.django_db


def _login(username: str, password: str) -> Client:
    c = Client(raise_request_exception=False)
    c.post(reverse("accounts:login"), {"username": username, "password": password})
    return c


def test_a_player_takes_their_data_and_leaves_and_metrics_answer(settings):
    from games.management.commands.run import DEMO_PASSWORD, seed_demo

    settings.OTP_REQUIRED_FOR_STAFF = False
    seed_demo(lambda *_: None)
    match = Match.objects.get(game="killgame")

    # 1. demo1 logs in and downloads their data as JSON
    demo1 = _login("demo1", DEMO_PASSWORD)
    assert "_auth_user_id" in demo1.session
    profile = demo1.get(reverse("accounts:profile"))
    assert reverse("account-export").encode() in profile.content  # the button
    resp = demo1.get(reverse("account-export"))
    assert resp.status_code == 200 and resp["Content-Type"] == "application/json"
    data = resp.json()
    assert data["profile"]["username"] == "demo1"
    assert {m["id"] for m in data["matches"]} >= {match.pk}
    assert {"matches", "messages", "ratings", "profile"} <= set(data)

    # 2. and deletes the account on the profile's delete page, with the password
    assert demo1.get(reverse("account-delete")).status_code == 200
    resp = demo1.post(reverse("account-delete"), {"password": DEMO_PASSWORD})
    assert resp.status_code == 302

    # 3. the login fails
    again = _login("demo1", DEMO_PASSWORD)
    assert "_auth_user_id" not in again.session

    # 4. the demo match shows "former player" (to another player and to a visitor)
    demo2 = _login("demo2", DEMO_PASSWORD)
    page = demo2.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert "former player" in page and "demo1" not in page

    # 5. /metrics from loopback under the embedded defaults: Prometheus text with the
    # phase and outbox gauges
    settings.EMBEDDED, settings.METRICS_TOKEN = True, ""
    resp = Client().get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("text/plain")
    families = {f.name: f for f in text_string_to_metric_families(resp.content.decode())}
    for name in ("pbw_phases_overdue", "pbw_phase_overdue_max_seconds",
                 "pbw_phases_quarantined", "pbw_phase_closes_last_minute",
                 "pbw_outbox_backlog", "pbw_outbox_oldest_unsent_seconds",
                 "pbw_outbox_send_failures"):
        assert families[name].type == "gauge", name
    assert Client().get("/metrics", REMOTE_ADDR="192.0.2.7").status_code == 403
