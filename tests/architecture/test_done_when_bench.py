"""The benches the speed and capacity issues read, run at a tiny size: each prints the JSON
fields those issues' checks read (ratios to a floor measured in the same run, the floor
itself, the drain after the last close). Speed is measured by the benches, never asserted
here: a timed test on a shared machine would only measure the neighbours."""

from __future__ import annotations

import json
import os

import psycopg
import pytest
from django.core.management import call_command, get_commands

pytestmark = pytest.mark.slow


def _json(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_the_benches_live_in_the_bench_app():
    commands = get_commands()
    for name in ("bench_pages", "bench_deadlines", "bench_email", "bench_faults"):
        assert commands.get(name) == "bench", name


def test_bench_pages_prints_the_floor_and_each_ratio(capsys):
    call_command("bench_pages", "--json", "--iterations", "3", "--only", "ds_versus")
    result = _json(capsys)
    assert result["floor_ms"] > 0 and result["floor_cpu_ms"] > 0
    assert "trivial view" in result["floor"]
    (page,) = result["pages"]
    assert page["name"] == "ds_versus" and page["limit"] == 8
    for field in ("ms", "ratio", "ratio_cpu", "floor_ms", "queries", "bytes", "cpu_ms"):
        assert page[field] > 0, field
    assert set(result["healthz"]) >= {"ms", "ratio"}
    assert "director_close" in result and "over_limit" in result
    assert len(result["load_average"]) == 3


def test_bench_deadlines_prints_its_ratio_and_the_drain(capsys):
    name = f"pbw_done_{os.getpid()}_bench"
    try:
        call_command("bench_deadlines", "--matches", "10", "--game", "killgame", "--json",
                     "--timeout", "120", "--drain-timeout", "90", "--profile-closes", "2",
                     "--database-url", f"postgres://postgres@127.0.0.1:5432/{name}",
                     "--redis-url", f"redis://127.0.0.1:6379/{1 + os.getpid() % 14}")
    finally:
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                             autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    result = _json(capsys)
    assert result["closed"] == 10 and result["closed_twice"] == 0
    assert result["engine_floor_seconds"] > 0
    assert result["ratio"] > 0 and result["ratio_cpu"] > 0
    assert result["emails_drain_seconds_after_last_close"] is not None
    assert result["progress"] and "scale" in result


def test_bench_email_prints_both_sides_cpu_per_email(capsys):
    call_command("bench_email", "--emails", "60", "--json", "--timeout", "120")
    result = _json(capsys)
    assert result["sent"] == 60 and result["lost"] == 0 and result["duplicates"] == 0
    assert result["cpu_ms_per_email_workers"] > 0
    assert result["cpu_ms_per_email_smtp_server"] > 0
    assert result["ratio"] > 0

