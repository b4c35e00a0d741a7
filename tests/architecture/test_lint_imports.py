"""The written-down layers hold: import-linter keeps every contract that
``tests/architecture/layers.py`` derives from ``settings.GAME_APPS`` (engines Django-free,
``games`` imports no game and no app that plugs into it, ``players`` and ``press`` import no
game, the game apps and ``accounts`` stay apart, and inside ``games`` views and tasks sit
above services, services above emails, emails above selectors)."""

from __future__ import annotations

import tomllib

from django.conf import settings

from tests.architecture import layers


def test_the_contracts_cover_the_layers_of_the_design():
    config = layers.contracts(settings.GAME_APPS)
    names = " / ".join(c["name"] for c in config["contracts"])
    for phrase in ("Engines import no Django", "games imports no game app",
                   "Game apps never import each other", "views and tasks above services",
                   "players and press name no game"):
        assert phrase in names
    assert set(layers.packages()) <= set(config["root_packages"])
    assert set(settings.GAME_APPS) <= set(config["root_packages"])
    engines = next(c for c in config["contracts"] if c["name"].startswith("Engines"))
    assert engines["source_modules"] == [f"{g}.engine" for g in settings.GAME_APPS]
    games = next(c for c in config["contracts"] if c["name"].startswith("games imports"))
    assert {"press", "players", *settings.GAME_APPS} <= set(games["forbidden_modules"])


def test_a_new_game_gets_every_contract_from_its_name_alone():
    config = layers.contracts([*settings.GAME_APPS, "newgame"])
    text = layers._toml(config)
    parsed = tomllib.loads(text)["tool"]["importlinter"]
    assert parsed == config  # the TOML written for lint-imports is the configuration
    assert "newgame" in parsed["root_packages"]
    for name in ("Engines import", "games imports", "Game apps never", "players and press"):
        contract = next(c for c in parsed["contracts"] if c["name"].startswith(name))
        assert "newgame" in str(contract), name


def test_lint_imports_keeps_every_contract():
    done = layers.lint_imports()
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    every = len(layers.contracts(layers.game_apps())["contracts"])
    assert every >= 9 and f"Contracts: {every} kept, 0 broken" in done.stdout, \
        done.stdout[-3000:]
