"""The examples of docs/killgame-scenarios.md run and print exactly what the page shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from killgame.engine.scenario import run

DOC = Path(__file__).resolve().parents[3] / "docs" / "killgame-scenarios.md"
BLOCK = re.compile(r"```json (scenario|result)\n(.*?)\n```", re.S)


def test_doc_examples_run_as_shown():
    blocks = BLOCK.findall(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 4 and len(blocks) % 2 == 0
    for (k1, scenario), (k2, result) in zip(blocks[::2], blocks[1::2]):
        assert (k1, k2) == ("scenario", "result")
        assert run(json.loads(scenario)) == json.loads(result)


VIEW_DOC = DOC.parent / "killgame-view.md"


def test_view_doc_example_has_the_keys_of_a_real_view():
    from killgame import engine

    text = VIEW_DOC.read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)\n```", text, re.S).group(1))
    s = engine.setup({"mode": "teams", "team_count": 2}, list(range(4)), "v")
    for p in s.players:
        s = engine.submit(s, p.seat, {"type": "start_zone", "zone": "campi"}).state
    s = engine.resolve(engine.resolve(s, "v").state, "v").state
    live = engine.player_view(s, 0)
    assert set(example) == set(live)
    assert set(example["me"]) == set(live["me"])
    assert set(example["zone"]) == set(live["zone"])
    for key in live:
        assert f"`{key}`" in text, f"{key} is not documented"
