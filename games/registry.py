"""The game registry: slug -> engine module, so ``games/`` never imports a game by name.

Each game app's ``AppConfig.ready()`` calls :func:`register` with its engine module
(docs/style.md §15). The framework looks engines up with :func:`get_rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any


class UnknownGame(LookupError):
    """No game is registered under that slug."""


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its engine and what the framework shows about it."""

    slug: str
    name: str
    engine: Any
    min_seats: int
    max_seats: int
    extras: dict[str, Any] = field(default_factory=dict)


_GAMES: dict[str, GameEntry] = {}


def register(engine: ModuleType | Any, **extras: Any) -> GameEntry:
    """Register ``engine`` (a module implementing ``games.rules.RulesEngine``).

    ``extras`` carries optional game hooks the framework may use when present, for example
    ``order_form_template`` or ``url_namespace``. Registering the same slug twice replaces
    the entry (Django may call ``ready()`` more than once in tests).
    """
    entry = GameEntry(slug=engine.SLUG, name=engine.NAME, engine=engine,
                      min_seats=engine.MIN_SEATS, max_seats=engine.MAX_SEATS, extras=extras)
    _GAMES[entry.slug] = entry
    return entry


def unregister(slug: str) -> None:
    """Remove a game (tests register throwaway games)."""
    _GAMES.pop(slug, None)


def get_game(slug: str) -> GameEntry:
    try:
        return _GAMES[slug]
    except KeyError:
        raise UnknownGame(f"No game called {slug!r} is installed.") from None


def get_rules(slug: str) -> Any:
    """The engine module of game ``slug``."""
    return get_game(slug).engine


def all_games() -> list[GameEntry]:
    """Every registered game, by name."""
    return sorted(_GAMES.values(), key=lambda g: g.name)


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for form fields."""
    return [(g.slug, g.name) for g in all_games()]
