"""The written-down layers hold: ``lint-imports`` keeps every import-linter contract of
``pyproject.toml`` (engines Django-free, ``games`` imports no game, the game apps and
``accounts`` stay apart, and inside ``games`` views and tasks sit above services, services
above emails, emails above selectors)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def test_the_contracts_cover_the_layers_of_the_design():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    names = " / ".join(c["name"] for c in config["contracts"])
    for phrase in ("Engines import no Django", "games imports no game app",
                   "Game apps never import each other", "views and tasks above services"):
        assert phrase in names
    packages = sorted(p.parent.name for p in ROOT.glob("*/__init__.py")
                      if p.parent.name != "tests")
    assert set(packages) <= set(config["root_packages"]), "a new app is missing from root_packages"


def test_lint_imports_keeps_every_contract():
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
