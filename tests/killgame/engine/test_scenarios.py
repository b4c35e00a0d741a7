"""Every worked example of killgame.md §22 as a golden scenario, plus the runner's exit codes.

Each ``scenarios/*.json`` holds ``input`` (the scenario format of
``docs/killgame-scenario-format.md``) and ``expected``: a partial result, checked key by key —
top-level keys exactly, ``players``/``monsters`` entries matched by id on the fields given,
``events`` that must appear (kind and a subset of data), ``absent_events`` that must not,
and ``energy_sum`` (the total energy of a group of players, for random victims).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from killgame.engine.scenario import run

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
FILES = sorted((HERE / "scenarios").glob("*.json"))


def _subset(small: Any, big: Any) -> bool:
    if isinstance(small, dict):
        return isinstance(big, dict) and all(k in big and _subset(v, big[k])
                                              for k, v in small.items())
    return small == big


def check_expected(result: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, want in expected.items():
        if key == "players" or key == "monsters":
            by_id = {e["id"]: e for e in result[key]}
            for entry in want:
                got = by_id.get(entry["id"])
                assert got is not None, f"{entry['id']} missing"
                for f, v in entry.items():
                    assert got[f] == v, f"{entry['id']}.{f}: {got[f]!r} != {v!r}"
        elif key == "events":
            for ev in want:
                hits = [e for e in result["events"] if e["kind"] == ev["kind"]
                        and _subset(ev.get("data", {}), e["data"])
                        and (not ev.get("public") or e["visible_to"] is None)]
                assert hits, f"no event like {ev}"
        elif key == "absent_events":
            for ev in want:
                hits = [e for e in result["events"] if e["kind"] == ev["kind"]
                        and _subset(ev.get("data", {}), e["data"])]
                assert not hits, f"unexpected event {hits[0]}"
        elif key == "energy_sum":
            by_id = {e["id"]: e for e in result["players"]}
            for group in want:
                total = sum(by_id[i]["energy"] for i in group["ids"])
                assert total == group["value"], f"energy of {group['ids']}: {total}"
        else:
            assert result[key] == want, f"{key}: {result[key]!r} != {want!r}"


def test_every_worked_example_has_a_scenario():
    rules = {json.loads(f.read_text())["rule"] for f in FILES}
    assert {f"§22.{i}" for i in range(1, 21)} <= rules


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario(path: Path):
    sc = json.loads(path.read_text())
    result = run(sc["input"], with_events=True)
    check_expected(result, sc["expected"])


def _runner(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "killgame.engine.scenario"], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_runner_prints_sorted_json_and_exits_0():
    sc = json.loads(FILES[0].read_text())["input"]
    proc = _runner(json.dumps(sc))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert proc.stdout.strip() == json.dumps(out, sort_keys=True)
    assert out == run(sc)


def test_runner_reports_an_illegal_order_with_exit_0():
    path = HERE / "scenarios" / "ex20_exclusive_conflict.json"
    proc = _runner(json.dumps(json.loads(path.read_text())["input"]))
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["error_code"] == "EXCLUSIVE_ACTION_CONFLICT"
    assert out["error"] and out["error_at"] == [0, "a", 1]


@pytest.mark.parametrize("bad", [
    "not json",
    "[]",
    json.dumps({"players": [{"id": "a", "zone": "paese"}], "bogus": 1}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "atlantis"}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese", "energy": 26}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese", "energy": 0}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese", "persuasion": 101}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese", "seat": 1},
                                       {"id": "b", "zone": "paese", "seat": 1}]}),
    json.dumps({"turn": 2, "closed": ["ingresso"], "players": [{"id": "a", "zone": "paese"}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese"}],
                "monsters": [{"id": "m1", "zone": "paese", "energy": 6},
                             {"id": "m2", "zone": "paese", "energy": 6}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese", "firearm": "pistol"}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese",
                                        "items": {"sniper_rifle": 1}}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese", "energy": "full"}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese"}],
                "phases": [{"orders": {"zz": []}}]}),
    json.dumps({"turn": 2, "config": {"nope": 1}, "players": [{"id": "a", "zone": "paese"}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": {}}]}),
    json.dumps({"turn": 2, "config": {"mode": []}, "players": [{"id": "a", "zone": "paese"}]}),
    json.dumps({"turn": 2, "players": [{"id": "a", "zone": "paese"}],
                "monsters": [{"id": "m1", "zone": ["paese"], "energy": 6}]}),
])
def test_runner_exits_2_on_malformed_scenario_without_traceback(bad: str):
    proc = _runner(bad)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr and proc.stderr.strip()


def _check_scenario(check_enabled: bool) -> dict:
    return {"seed": "chk", "config": {"check_enabled": check_enabled, "monster_count": 0},
            "turn": 2, "phase": "tactical", "closed": ["landa_del_sud"],
            "players": [{"id": "a", "zone": "strada"}, {"id": "b", "zone": "grotta"}],
            "phases": [{"orders": {"a": [{"type": "move", "to": "campi"}]}, "check": ["a"]},
                       {"check": ["a", "b"]}]}


def test_check_entries_in_check_mode_and_ignored_otherwise():
    on = run(_check_scenario(True), with_events=True)
    off = run(_check_scenario(False), with_events=True)
    assert on["error"] is None and off["error"] is None
    assert on["players"] == off["players"]
    assert on["turn"] == 3 and on["phase"] == "tactical"
    assert [p["zone"] for p in on["players"]] == ["campi", "grotta"]
