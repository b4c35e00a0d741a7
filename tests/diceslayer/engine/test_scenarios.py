"""Golden scenarios: every worked example of docs/diceslayer-rules.md through the runner.

Each ``scenarios/*.json`` holds ``rule`` (what it checks), ``scenario`` (the input of
docs/scenarios.md) and ``expected`` (the output, worked out by hand from the rules).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diceslayer.engine import scenario as runner

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
FILES = sorted((HERE / "scenarios").glob("*.json"))


def _run_cli(payload: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "diceslayer.engine.scenario"], input=payload,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_gives_expected_result(path: Path) -> None:
    body = json.loads(path.read_text())
    out = io.StringIO()
    err = io.StringIO()
    status = runner.main(io.StringIO(json.dumps(body["scenario"])), out, err)
    assert status == 0, err.getvalue()
    assert json.loads(out.getvalue()) == body["expected"], body["rule"]


def test_cli_prints_sorted_keys_and_exits_0() -> None:
    body = json.loads((HERE / "scenarios" / "solo_run_removes_both_neighbours.json").read_text())
    proc = _run_cli(json.dumps(body["scenario"]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == body["expected"]
    assert proc.stdout.strip() == json.dumps(body["expected"], sort_keys=True)


def test_cli_illegal_move_still_exits_0_with_error() -> None:
    body = json.loads((HERE / "scenarios" / "solo_face_absent_is_refused.json").read_text())
    proc = _run_cli(json.dumps(body["scenario"]))
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert result["error"] == "There is no 5 on the plate to pick."
    assert result["error_at"] == 0


MALFORMED = {
    "not json": "{not json",
    "not an object": "[1, 2]",
    "unknown top field": {"variant": "solo", "players": [{"plate": [1]}], "seed": 3},
    "unknown variant": {"variant": "chess", "players": [{"plate": [1]}]},
    "missing players": {"variant": "solo"},
    "face outside 1-6": {"variant": "solo", "players": [{"plate": [0, 3]}]},
    "face 7 in the stock": {"variant": "solo", "players": [{"plate": [3], "stock": [7]}]},
    "stock of four": {"variant": "solo", "players": [{"plate": [3], "stock": [1, 2, 3, 4]}]},
    "solo plate above 9": {"variant": "solo", "players": [{"plate": [1] * 10}]},
    "solo with two players": {"variant": "solo", "players": [{"plate": [1]}, {"plate": [2]}]},
    "versus with one player": {"variant": "versus2", "players": [{"plate": [1]}]},
    "wrong type of score": {"variant": "solo", "players": [{"plate": [1], "score": "10"}]},
    "unknown player field": {"variant": "solo", "players": [{"plate": [1], "hand": []}]},
    "grace outside versus1": {"variant": "solo", "players": [{"plate": [1], "grace": [2]}]},
    "wild outside solo_wild": {"variant": "versus2", "players": [{"plate": [1], "wild": 1},
                                                                  {"plate": [2]}]},
    "versus2 with both fields empty": {"variant": "versus2",
                                       "players": [{"plate": []}, {"plate": []}]},
    "bomb in solo": {"variant": "solo", "players": [{"plate": [1]}], "bomb": 0},
    "bad bomb": {"variant": "versus2", "players": [{"plate": [1]}, {"plate": [2]}], "bomb": 2},
    "target in versus1": {"variant": "versus1", "players": [{"plate": [1]}, {"plate": [2]}],
                          "target": 50},
    "to_move out of range": {"variant": "versus2", "players": [{"plate": [1]}, {"plate": [2]}],
                             "to_move": 2},
    "move not an object": {"variant": "solo", "players": [{"plate": [1]}], "moves": [4]},
    "move with unknown key": {"variant": "solo", "players": [{"plate": [1]}],
                              "moves": [{"take": 1}]},
    "move with a string face": {"variant": "solo", "players": [{"plate": [1]}],
                                "moves": [{"pick": "1"}]},
    "too few rolls": {"variant": "solo", "players": [{"plate": [1, 2]}], "rolls": [3],
                      "moves": [{"pick": 1}]},
    "rolls outside 1-6": {"variant": "solo", "players": [{"plate": [1, 2]}], "rolls": [9, 9],
                          "moves": [{"pick": 1}]},
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_scenario_exits_2_without_traceback(name: str) -> None:
    raw = MALFORMED[name]
    payload = raw if isinstance(raw, str) else json.dumps(raw)
    out, err = io.StringIO(), io.StringIO()
    assert runner.main(io.StringIO(payload), out, err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith("malformed scenario: ")
    assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize("name", ["not json", "too few rolls", "solo plate above 9"])
def test_cli_malformed_exits_2_with_message(name: str) -> None:
    raw = MALFORMED[name]
    proc = _run_cli(raw if isinstance(raw, str) else json.dumps(raw))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "malformed scenario" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unused_rolls_are_fine() -> None:
    body = {"variant": "solo", "players": [{"plate": [1, 2]}], "rolls": [3, 3, 3, 3],
            "moves": [{"pick": 1}]}
    result = runner.run(body)
    assert result["players"][0]["plate"] == [2, 3, 3]
