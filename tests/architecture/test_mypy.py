"""mypy passes with the configuration of ``pyproject.toml`` on every package and every game of
``settings.GAME_APPS`` (``tests/architecture/layers.py``): ``--strict`` for the engines (the
pattern ``*.engine``) and ``games/rules.py`` (docs/style.md §18), django-stubs at a lenient level
for the Django layer.

Runs in-process through ``mypy.api`` with the incremental cache in ``.mypy_cache`` (git-ignored),
so a run after a small change takes seconds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from django.conf import settings
from mypy import api

from tests.architecture import layers

ROOT = Path(__file__).resolve().parents[2]


def test_the_engines_are_checked_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    strict = next(o for o in config["overrides"] if "games.rules" in o["module"])
    assert {"*.engine", "*.engine.*"} <= set(strict["module"])  # every game's engine
    assert strict["disallow_untyped_defs"] and strict["disallow_any_generics"]
    assert set(config["disable_error_code"]) <= set(strict["enable_error_code"])
    files = layers.mypy_files()
    assert set(layers.packages()) <= set(files)
    assert set(settings.GAME_APPS) <= set(files)
    for game in settings.GAME_APPS:  # each game has the engine package the pattern matches
        assert (ROOT / game / "engine" / "__init__.py").exists(), game


def test_mypy_is_clean(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--no-error-summary", "--show-error-codes",
                                *layers.mypy_files()])
    assert status == 0, out[-8000:] + err[-2000:]
