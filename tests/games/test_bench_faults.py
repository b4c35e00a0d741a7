"""The fault bench, a fast subset (``manage.py bench_faults``): its own PostgreSQL, Redis,
SMTP catcher, Celery workers, beat and gunicorn; the database stopped under a logged-in
player, a worker killed inside a close, two beats, Redis stopped while players play through
the API and the pages, reminders falling due under load (the full run:
docs/operations.md)."""

from __future__ import annotations

import json
import shutil

import pytest
from django.core.management import call_command

FAST = ["database_down", "worker_killed_mid_close", "two_beats", "redis_down",
        "nags_under_load"]


@pytest.mark.slow
def test_bench_faults_fast_subset_is_ok(capsys):
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    call_command("bench_faults", "--only", ",".join(FAST), "--json")
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    by_name = {s["name"]: s for s in result["scenarios"]}
    assert list(by_name) == FAST
    for scenario in result["scenarios"]:
        assert scenario["ok"], scenario
        assert scenario["closed_twice"] == scenario["lost_closes"] == 0
        assert scenario["lost_emails"] == scenario["duplicate_emails"] == 0
    down = by_name["database_down"]
    assert (down["healthz_status"], down["page_status"], down["api_status"]) == (503, 503, 503)
    assert down["close_failures"] == 0
    assert by_name["two_beats"]["beats_sending"] == 1
    redis = by_name["redis_down"]
    assert redis["5xx"] == {"reads": 0, "orders": 0, "posts": 0, "checkins": 0, "pages": 0}
    assert redis["status"]["orders"] == {"200": 6} and redis["wrong_token_status"] == 503
    nags = by_name["nags_under_load"]
    assert nags["deadlocks"] == nags["deadlocks_in_log"] == 0
    assert nags["reminders_queued"] > 0 and nags["status"].get("200", 0) > 0
