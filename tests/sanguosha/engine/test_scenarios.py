"""Every worked example of rules §14 as a golden scenario, plus the runner's exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sanguosha.engine.scenario import play

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def test_every_worked_example_has_scenarios():
    names = {p.name[:3] for p in SCENARIOS}
    for n in range(2, 29):
        assert f"e{n:02d}" in names, f"E{n} has no scenario"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path: Path):
    data = json.loads(path.read_text())
    assert play(data["input"]) == data["expected"]


def _run(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sanguosha.engine.scenario"], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_runner_prints_sorted_json_and_exits_0():
    data = json.loads((Path(__file__).parent / "scenarios" / "e04a_kill_dodge_limit.json").read_text())
    res = _run(json.dumps(data["input"]))
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == data["expected"]
    assert res.stdout.strip() == json.dumps(data["expected"], sort_keys=True)


@pytest.mark.parametrize("text", [
    "not json",
    "[]",
    json.dumps({"seats": [{"identity": "lord", "hp": 4}], "bogus": 1}),
    json.dumps({"seats": [{"identity": "rebel", "hp": 4}, {"identity": "lord", "hp": 4}]}),
    json.dumps({"seats": [{"identity": "lord", "hp": 4}, {"identity": "lord", "hp": 4}]}),
    json.dumps({"seats": [{"identity": "lord", "hp": 4, "hand": [1]},
                          {"identity": "rebel", "hp": 4, "hand": [1]}]}),
    json.dumps({"seats": [{"identity": "lord", "hp": 4, "hand": [999]},
                          {"identity": "rebel", "hp": 4}]}),
    json.dumps({"seats": [{"identity": "lord", "hp": 4, "equip": {"weapon": 1}},
                          {"identity": "rebel", "hp": 4}]}),
    json.dumps({"seats": [{"identity": "lord", "hp": 5, "max_hp": 4},
                          {"identity": "rebel", "hp": 4}]}),
    json.dumps({"seats": [{"identity": "lord", "hp": 4}, {"identity": "rebel", "hp": 4}],
                "orders": [{"seat": 0}]}),
])
def test_malformed_scenarios_exit_2_without_traceback(text: str):
    res = _run(text)
    assert res.returncode == 2
    assert res.stdout == ""
    assert "Traceback" not in res.stderr and res.stderr.strip()


def test_a_needed_reshuffle_exits_2():
    sc = {"seats": [{"identity": "lord", "hp": 4, "hand": [70]}, {"identity": "rebel", "hp": 4}],
          "draw_pile": [40], "discard_pile": [41, 42], "orders": [{"seat": 0, "order": {"use": 70}}]}
    res = _run(json.dumps(sc))
    assert res.returncode == 2 and "reshuffle" in res.stderr


def test_running_out_with_an_empty_discard_pile_is_a_draw():
    sc = {"seats": [{"identity": "lord", "hp": 4, "hand": [70]}, {"identity": "rebel", "hp": 4}],
          "draw_pile": [40], "orders": [{"seat": 0, "order": {"use": 70}}]}
    out = play(sc)
    assert out["over"] is True and out["winners"] == [] and out["ask"] is None


def test_illegal_order_reports_error_and_position_before_it():
    sc = {"seats": [{"identity": "lord", "hp": 4, "hand": [1]}, {"identity": "rebel", "hp": 4}],
          "orders": [{"seat": 1, "order": {"end": True}}]}
    out = play(sc)
    assert out["error_at"] == 0 and out["error"] and out["ask"] == {"kind": "play", "awaited": [0]}
    assert out["seats"][0]["hand"] == [1]


def test_a_scenario_without_a_lord_plays_on_after_a_death():
    sc = {"seats": [{"identity": "rebel", "hp": 4, "hand": [1]}, {"identity": "renegade", "hp": 1},
                    {"identity": "rebel", "hp": 4}],
          "orders": [{"seat": 0, "order": {"use": 1, "targets": [1]}}]}
    out = play(sc)
    assert out["over"] is False and out["seats"][1]["alive"] is False
