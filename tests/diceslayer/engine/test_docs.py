"""The examples of docs/diceslayer-scenarios.md run as documented."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from diceslayer.engine import scenario as runner

DOC = Path(__file__).resolve().parents[3] / "docs" / "diceslayer-scenarios.md"
BLOCK = re.compile(r"```json (scenario|result|malformed)\n(.*?)```", re.S)


def _blocks():
    return [(kind, json.loads(body)) for kind, body in BLOCK.findall(DOC.read_text())]


def _pairs():
    blocks = _blocks()
    out = []
    for i, (kind, body) in enumerate(blocks):
        if kind == "scenario":
            assert blocks[i + 1][0] == "result", "each scenario block is followed by its result"
            out.append((body, blocks[i + 1][1]))
    return out


def test_the_doc_has_examples():
    assert len(_pairs()) >= 5


@pytest.mark.parametrize("index", range(6))
def test_doc_example_gives_the_documented_result(index):
    scenario, expected = _pairs()[index]
    out, err = io.StringIO(), io.StringIO()
    assert runner.main(io.StringIO(json.dumps(scenario)), out, err) == 0, err.getvalue()
    assert json.loads(out.getvalue()) == expected


def test_doc_malformed_examples_exit_2():
    bad = [body for kind, body in _blocks() if kind == "malformed"]
    assert bad
    for body in bad:
        err = io.StringIO()
        assert runner.main(io.StringIO(json.dumps(body)), io.StringIO(), err) == 2
        message = err.getvalue().strip()
        assert message.startswith("malformed scenario: ")
        assert f"`{message}`" in DOC.read_text()  # the doc quotes the exact message
