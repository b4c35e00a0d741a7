"""Engines import only the standard library and games.rules (docs/style.md §1)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINES = [p for p in sorted(ROOT.glob("*/engine")) if p.is_dir()]
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_there_are_engines_to_check():
    assert ENGINES, "no <game>/engine package found"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda p: p.parent.name)
def test_engine_imports_only_stdlib_and_rules(engine: Path):
    game = engine.parent.name
    bad = []
    # ``from <game> import engine`` loads the game package's __init__, so it is checked too.
    for path in [*engine.rglob("*.py"), engine.parent / "__init__.py"]:
        for name in _imports(path):
            top = name.split(".")[0]
            if top in STDLIB or name in ("games.rules", game) or name.startswith(f"{game}.engine"):
                continue
            bad.append(f"{path.relative_to(ROOT)}: {name}")
    assert not bad, "engine imports outside stdlib/games.rules:\n" + "\n".join(bad)
