"""Issue 29's structure half, exactly its "Done when":

- ``tests/games/fourth`` adds its game with only ``GAME_APPS`` changed outside its folder
  (its own test says so and checks lobby, create form, admin and diary: run here);
- no game name appears in ``pyproject.toml``, nor in the code of ``games/``, ``press/``,
  ``players/``, ``config/`` (identifiers, strings, imports, their templates and the shared
  ``templates/`` outside a game's folder; comments and docstrings are documentation,
  ``tests``, ``docs`` and the benches aside);
- no import from ``games`` into ``press`` or ``players`` (and none of a game);
- no module sends SMTP or builds MIME by hand;
- import-linter, mypy and the import-cycle test pass.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from django.conf import settings

from tests.architecture import layers
from tests.architecture.test_import_cycles import PACKAGES, import_circles

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORK = ["games", "press", "players", "config"]


def game_words() -> list[str]:
    """Each game's slug, app name and display name (``GAME_APPS`` and the registry)."""
    from games import registry

    words = {app.rsplit(".", 1)[-1] for app in settings.GAME_APPS}
    words |= {g.slug for g in registry.all_games()} | {g.name for g in registry.all_games()}
    return sorted(w for w in words if w != "guess")  # the tests' dev game is not a game app


def _skipped(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return ("migrations" in parts or "tests" in parts or "locale" in parts
            or any("bench" in part for part in parts))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _the_one_list(tree: ast.AST) -> set[int]:
    """The nodes of ``GAME_APPS = …``: the one place the games are named."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "GAME_APPS" for t in node.targets):
            found |= {id(n) for n in ast.walk(node.value)}
    return found


def code_words(path: Path) -> list[str]:
    """The identifiers, imported names and strings (docstrings and the ``GAME_APPS`` list
    aside) of a module."""
    tree = ast.parse(path.read_text(), str(path))
    docs = _docstrings(tree) | _the_one_list(tree)
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            out.append(node.value)
        elif isinstance(node, ast.Name):
            out.append(node.id)
        elif isinstance(node, ast.Attribute):
            out.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(node.name)
        elif isinstance(node, ast.alias):
            out.append(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
        elif isinstance(node, ast.keyword) and node.arg:
            out.append(node.arg)
    return out


def framework_mentions(words: list[str]) -> list[str]:
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    found = []
    for package in FRAMEWORK:
        for path in sorted((ROOT / package).rglob("*")):
            if not path.is_file() or _skipped(path):
                continue
            if path.suffix == ".py":
                texts = code_words(path)
            elif path.suffix in (".html", ".txt") and "templates" in path.parts:
                texts = [path.read_text()]
            else:
                continue
            found += [f"{path.relative_to(ROOT)}: {t[:80]!r}" for t in texts if pattern.search(t)]
    games = {app.rsplit(".", 1)[-1] for app in settings.GAME_APPS}
    for path in sorted((ROOT / "templates").rglob("*")):  # the shared templates, a game's aside
        parts = path.relative_to(ROOT / "templates").parts
        if path.is_file() and parts[0] not in games and pattern.search(path.read_text()):
            found.append(f"templates/{'/'.join(parts)}")
    return found


def test_the_fourth_game_needs_only_gamesapps():
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests/games/fourth")], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout


def test_no_game_name_in_pyproject():
    text = (ROOT / "pyproject.toml").read_text().lower()
    assert [w for w in game_words() if w.lower() in text] == []


def test_no_game_name_in_the_framework_code():
    assert framework_mentions(game_words()) == []


def test_the_scan_would_see_a_game_name(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""Kill Game in a docstring is documentation."""\n'
                     '# so is killgame in a comment\n'
                     'GAME_APPS = ["killgame"]\n'
                     'MODES = {"killgame": 1}\n')
    assert code_words(probe) == ["GAME_APPS", "MODES", "killgame"]


def test_games_imports_neither_press_nor_players_nor_a_game():
    graph = grimp.build_graph("games", "press", "players", *settings.GAME_APPS, cache_dir=None)
    for target in ("press", "players", *settings.GAME_APPS):
        chains = graph.find_shortest_chains(importer="games", imported=target,
                                            as_packages=True)
        assert not chains, f"games imports {target}: {sorted(chains)[:5]}"


def test_no_module_sends_smtp_or_builds_mime_by_hand():
    from tests.architecture import test_done_when_speed

    test_done_when_speed.test_no_module_speaks_smtp_or_builds_mime_by_hand()


def test_import_linter_passes():
    done = layers.lint_imports()
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_mypy_passes(monkeypatch: pytest.MonkeyPatch):
    from tests.architecture.test_mypy import test_mypy_is_clean

    test_mypy_is_clean(monkeypatch)


def test_no_import_cycle():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert import_circles(graph) == []
