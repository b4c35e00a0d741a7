"""The fault bench, a fast subset (``manage.py bench_faults``): its own PostgreSQL, Redis,
SMTP catcher, Celery workers, beat and gunicorn; the database stopped under a logged-in
player, a worker killed inside a close, two beats (the full run: docs/operations.md)."""

from __future__ import annotations

import json
import shutil

import pytest
from django.core.management import call_command

FAST = ["database_down", "worker_killed_mid_close", "two_beats"]


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
