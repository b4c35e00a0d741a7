"""``bench_notify`` at a tiny size: its standard output is the JSON alone (the seed's own
emails stay off it), every push decrypts and every webhook is signed, nothing is lost or
doubled. Its speed is read from the bench itself, never asserted here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def test_bench_notify_prints_only_its_json_and_loses_nothing():
    env = {k: v for k, v in os.environ.items() if k != "PBW_TEST_DB"}
    done = subprocess.run([sys.executable, "manage.py", "bench_notify", "--deliveries", "200",
                           "--players", "10", "--json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)  # the whole output: one JSON document
    assert result["ok"] is True
    assert result["deliveries"] == 200 and result["received"] == 200
    assert result["push"] > 0 and result["webhook"] > 0
    for field in ("lost", "duplicates", "unexpected", "undecryptable", "unsent"):
        assert result[field] == 0, field
    assert result["per_s"] > 0 and result["floor_posts_per_s"] > 0
