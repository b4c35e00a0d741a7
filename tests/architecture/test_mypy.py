"""mypy passes with the configuration of ``pyproject.toml``: ``--strict`` for the engines and
``games/rules.py`` (docs/style.md §18), django-stubs at a lenient level for the Django layer.

Runs in-process through ``mypy.api`` with the incremental cache in ``.mypy_cache`` (git-ignored),
so a run after a small change takes seconds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[2]


def test_the_engines_are_checked_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    strict = next(o for o in config["overrides"] if "games.rules" in o["module"])
    for engine in ("killgame.engine.*", "diceslayer.engine.*", "sanguosha.engine.*"):
        assert engine in strict["module"]
    assert strict["disallow_untyped_defs"] and strict["disallow_any_generics"]
    assert set(config["disable_error_code"]) <= set(strict["enable_error_code"])
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert packages <= set(config["files"]), "a new app is missing from [tool.mypy] files"


def test_mypy_is_clean(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--no-error-summary", "--show-error-codes"])
    assert status == 0, out[-8000:] + err[-2000:]
