"""The written-down layers (docs/style.md §1, §11, §15), derived from ``settings.GAME_APPS``:
the import-linter contracts and the packages mypy checks name no game by hand, so a new game
is checked by adding it to ``GAME_APPS`` and nothing else.

- :func:`contracts` builds import-linter's configuration (the root packages and every
  contract) for a list of game apps; :func:`lint_imports` writes it to a temporary file and
  runs ``lint-imports --config`` on it.
- :func:`mypy_files` is what mypy checks: every package of the repository and every game
  app. The strict modules are a pattern in ``pyproject.toml`` (``*.engine``, ``*.engine.*``:
  a game's engine is its ``engine`` package, docs/adding-a-game.md), so no list there either.

Run it by hand: ``.venv/bin/python -m tests.architecture.layers`` (prints lint-imports' report).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
#: what an engine may not import (it imports only the standard library and games.rules)
ENGINE_FORBIDDEN = ["django", "celery", "redis", "psycopg", "games", "accounts", "config",
                    "players", "press"]
#: the apps beside the framework: they plug in through games.registry, never imported by games
PLUGGED_APPS = ["players", "press"]
#: tooling that may import everything and that nothing in production imports
TOOLING_APPS = ["bench"]
GAMES_LAYERS = [
    "views : api : unsubscribe : admin : tasks : urls : management",
    "services",
    "emails",
    "selectors",
]


#: what a leaf utility of games/lib may not import: the web-level helpers and every layer
#: above the models (games/lib/__init__.py)
ABOVE_THE_MODELS = ["games.views", "games.api", "games.admin", "games.tasks", "games.services",
                    "games.selectors", "games.forms", "games.emails", "games.unsubscribe",
                    "games.management"]


def lib_modules() -> tuple[list[str], list[str]]:
    """games/lib's web-level modules and its leaf utilities."""
    from games.lib import WEB

    every = sorted(p.stem for p in (ROOT / "games/lib").glob("*.py") if p.stem != "__init__")
    return ([f"games.lib.{m}" for m in every if m in WEB],
            [f"games.lib.{m}" for m in every if m not in WEB])


def game_apps() -> list[str]:
    """``settings.GAME_APPS``: the one list of games."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    from django.conf import settings

    return list(settings.GAME_APPS)


def packages() -> list[str]:
    """Every top-level package of the repository (a directory with ``__init__.py``), tests
    aside: a new app is checked without editing anything."""
    return sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")


def contracts(games: Iterable[str]) -> dict[str, Any]:
    """import-linter's ``[tool.importlinter]`` for these game apps."""
    games = list(games)
    roots = sorted(set(packages()) | {g.split(".")[0] for g in games})
    engines = [f"{g}.engine" for g in games]
    found = [
        {"name": "Engines import no Django and nothing of the framework but games.rules",
         "type": "forbidden", "source_modules": engines,
         "forbidden_modules": ENGINE_FORBIDDEN,
         "ignore_imports": [f"{e}{sub} -> games.rules" for e in engines for sub in ("", ".**")]},
        {"name": "games.rules (the engines' one contract) is Django-free",
         "type": "forbidden", "source_modules": ["games.rules"],
         "forbidden_modules": ["django", "celery", "accounts", "config", *games]},
        {"name": "games imports no game app nor an app that plugs into it (it reaches them "
                 "through games.registry)",
         "type": "forbidden", "source_modules": ["games"],
         "forbidden_modules": [*games, *PLUGGED_APPS]},
        {"name": "players and press name no game (GameHooks answer for each game)",
         "type": "forbidden", "source_modules": PLUGGED_APPS, "forbidden_modules": games},
        {"name": "accounts does not reach up into games or a game",
         "type": "forbidden", "source_modules": ["accounts"],
         "forbidden_modules": ["games", *PLUGGED_APPS, *games]},
        {"name": "No production app imports the benches",
         "type": "forbidden",
         "source_modules": [r for r in roots if r not in TOOLING_APPS],
         "forbidden_modules": [t for t in TOOLING_APPS if t in roots]},
        {"name": "games: views and tasks above services, services above emails, emails above "
                 "selectors",
         "type": "layers", "containers": ["games"], "layers": GAMES_LAYERS},
        {"name": "games/lib's leaf utilities import nothing above the models (nor the "
                 "web-level helpers)",
         "type": "forbidden", "source_modules": lib_modules()[1],
         "forbidden_modules": [*ABOVE_THE_MODELS, *lib_modules()[0]]},
    ]
    if len(games) > 1:
        found.insert(2, {"name": "Game apps never import each other", "type": "independence",
                         "modules": games})
    return {"root_packages": roots, "include_external_packages": True, "contracts": found}


def _toml(config: dict[str, Any]) -> str:
    """The configuration as TOML (strings, booleans and lists of strings only: JSON's
    string and list syntax is TOML's)."""
    def value(v: Any) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else json.dumps(v)

    lines = ["[tool.importlinter]"]
    lines += [f"{k} = {value(v)}" for k, v in config.items() if k != "contracts"]
    for contract in config["contracts"]:
        lines += ["", "[[tool.importlinter.contracts]]"]
        lines += [f"{k} = {value(v)}" for k, v in contract.items()]
    return "\n".join(lines) + "\n"


def lint_imports(games: Iterable[str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``lint-imports`` on the contracts derived from ``games`` (default: GAME_APPS)."""
    config = contracts(game_apps() if games is None else games)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "importlinter.toml"
        path.write_text(_toml(config))
        return subprocess.run([str(LINT_IMPORTS), "--config", str(path), "--no-cache"],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)


def mypy_files(games: Iterable[str] | None = None) -> list[str]:
    """What mypy checks: every package and every game app."""
    games = game_apps() if games is None else list(games)
    return sorted(set(packages()) | {g.replace(".", "/") for g in games})


if __name__ == "__main__":
    done = lint_imports()
    print(done.stdout, done.stderr, sep="")
    sys.exit(done.returncode)
