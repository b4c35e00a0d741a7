"""The examples of docs/sanguosha-scenarios.md run and print exactly what the page shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sanguosha.engine.scenario import play

DOCS = Path(__file__).resolve().parents[3] / "docs"
BLOCK = re.compile(r"```json (scenario|result)\n(.*?)\n```", re.S)


def test_doc_examples_run_as_shown():
    blocks = BLOCK.findall((DOCS / "sanguosha-scenarios.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 8 and len(blocks) % 2 == 0
    for (k1, scenario), (k2, result) in zip(blocks[::2], blocks[1::2]):
        assert (k1, k2) == ("scenario", "result")
        assert play(json.loads(scenario)) == json.loads(result)
