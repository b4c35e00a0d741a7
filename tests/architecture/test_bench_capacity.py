"""``bench_capacity`` at its tiny size (one match of 12 players, a few seconds a step): it
starts the stack as deployed, prints the JSON the capacity issue reads with no error,
and leaves nothing behind (database, Redis, processes). Speed is not asserted here."""

from __future__ import annotations

import json
import os
import socket

import psycopg
import pytest
from django.core.management import CommandError, call_command, get_commands

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_bench_capacity_lives_in_the_bench_app():
    assert get_commands().get("bench_capacity") == "bench"


@pytest.mark.parametrize("args", [["--compare", "gevent-9"], ["--compare", "sync-"],
                                  ["--web-env", "WEB_CONCURRENCY"]])
def test_bad_worker_models_are_refused_before_anything_starts(args):
    with pytest.raises(CommandError, match="--compare|--web-env"):
        call_command("bench_capacity", "--json", "--tiny", "--port", "0",
                     "--redis-port", "0", *args)


def test_bench_capacity_tiny_prints_knees_players_and_cpu_then_cleans_up(capsys):
    name = f"pbw_capacity_test_{os.getpid()}_bench"
    port = _free_port()
    call_command("bench_capacity", "--json", "--tiny", "--port", str(port),
                 "--redis-port", "0",
                 "--database-url", f"postgres://postgres@127.0.0.1:5432/{name}")
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])

    # speed is not asserted (a shared machine): every request answered, none failed
    assert result["healthz_at_start"] == 200  # workers, beat and the sweep alive
    assert set(result["knees"]) == {"poll", "page", "order", "healthz"}
    steps = result["steps"]
    assert steps and all(s["players"] == 12 and s["errors"] == 0 for s in steps)
    step = steps[-1]
    assert result["players_held"] == (12 if any(s["held"] for s in steps) else 0)
    assert step["by_kind"]["poll"]["requests"] > 0
    assert set(step["by_kind"]["poll"]["status"]) <= {"200", "204"}
    for kind in result["knee_steps"].values():
        assert kind["steps"]
        for rate in kind["steps"]:
            assert rate["errors"] == 0 and rate["requests"] > 0, rate
    # the order cycle really ordered and withdrew: two htmx POSTs, each answered 200
    orders = result["knee_steps"]["order"]["steps"][0]
    assert set(orders["status"]) == {"200"}
    assert orders["actions"] == {"ordered": orders["requests"], "withdrawn": orders["requests"]}
    cpu = step["cpu_cores"]
    assert {"web", "celery", "beat", "postgres", "redis", "loadgen", "machine",
            "other"} <= set(cpu)
    assert len(step["load_average"]) == 3 and len(result["load_average"]) == 3
    assert result["stack"]["settings"] == "config.settings.production"
    assert result["seed"]["accounts"] == 12 and result["seed"]["running"] == 1

    # nothing left: the database dropped, the web port and Redis closed
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as conn:
        assert conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                            [name]).fetchone() is None
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
