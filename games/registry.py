"""The game registry: slug -> engine and hooks, so ``games/`` never imports a game by name.

Each game app's ``AppConfig.ready()`` calls :func:`register` with its engine module (a
:class:`games.rules.RulesEngine`) and a :class:`GameHooks` — every optional thing a game may
give the framework, each typed (docs/style.md §15). The framework looks a game up with
:func:`get_game` (engine + hooks) or :func:`get_rules` (the engine alone).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from games.rules import RulesEngine

JSONDict = dict[str, Any]


class UnknownGame(LookupError):
    """No game is registered under that slug."""


@dataclass(frozen=True)
class GameHooks:
    """Everything a game may give the framework besides its engine; every hook is optional
    and the framework has a default for each (docs/adding-a-game.md).

    Pages (``games.lib.pages``, the generic match page):

    - ``board_template``: rendered inside the board card with ``view`` (the player view),
      ``match``, ``seat``, ``phase``...; default: the player view as a key/value list.
    - ``order_form_template``: the order form's inner fields; default: one JSON textarea.
    - ``order_from_post(post) -> order``: the order payload from that no-JS form; raise
      ``ValueError`` / ``ValidationError`` / ``ApplicationError`` for bad input; default:
      ``json.loads(post["order"])``.
    - ``private_checkin_kinds``: phase kinds whose awaited set is secret (no "N of M
      checked in").
    - ``table_url_name``: the URL name (one ``match_id`` argument) of the game's own match
      page, linked from emails instead of ``games:match-detail``.
    - ``home_url_name``: the URL name of the game's own landing page, linked from "new
      match".
    - ``own_diary``: the board shows the diary itself (the generic diary card is left out);
      ``diary_turn_template``: the fragment one diary turn is rendered with.
    - ``describe_context(match) -> dict``: what the game's diary sentences need from the
      match, passed to ``describe`` (Kill Game: an admin-made map's zone names).
    - ``name_text(text, names, viewer) -> text``: put player names into a diary sentence
      that names seats (``names``: seat number -> username; the viewer reads "you").

    Matches (``games.services.matches``):

    - ``config_prepare(raw) -> raw``: fill the config from the game's own tables before
      ``validate_config`` (Kill Game snapshots the admin-edited map and prices).
    - ``default_schedule(config) -> schedule``: the schedule of a new match when none is
      given — the one source of it; default ``{"mode": "duration", "hours": 24}``.
    - ``schedule_from_settings``: the game's own settings decide its deadlines, so the
      new-match form offers no "hours per phase".
    - ``match_form_adapt(form)``: replace config fields of the new-match form with the
      game's own (Kill Game: its map table and deadline choice).

    Emails (``games.emails`` / ``games.services.notifications``):

    - ``email_template`` / ``email_template_html``: a block included in the new-phase
      email, rendered with what ``email_context(match, seat_number, lang)`` returns.
    - ``email_coalesce``: "your move" emails of one match coalesce (ask-based games).
    - ``out_of_play(dumped_state) -> seats``: the seats out of play (dead, eliminated); a
      seat that enters this set at a close gets a "you died" email
      (``games.services.news``; ``out_of_play_alive_flags`` reads ``{"seat", "alive"}``).

    Clock:

    - ``demo_players``: how many players the embedded server's demo match seats (3).
    - ``sweeps``: functions the embedded server (``manage.py run``) calls every minute, like
      the beat (production: a beat entry in ``config/celery.py``).
    """

    board_template: str | None = None
    order_form_template: str | None = None
    order_from_post: Callable[[Any], Mapping[str, Any]] | None = None
    private_checkin_kinds: frozenset[str] = frozenset()
    table_url_name: str | None = None
    home_url_name: str | None = None
    own_diary: bool = False
    diary_turn_template: str | None = None
    describe_context: Callable[[Any], Mapping[str, Any]] | None = None
    name_text: Callable[[str, Mapping[int, str], int | None], str] | None = None
    config_prepare: Callable[[JSONDict], Mapping[str, Any]] | None = None
    default_schedule: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None
    schedule_from_settings: bool = False
    match_form_adapt: Callable[[Any], None] | None = None
    email_template: str | None = None
    email_template_html: str | None = None
    email_context: Callable[[Any, int | None, str], Mapping[str, Any]] | None = None
    email_coalesce: bool = False
    out_of_play: Callable[[Mapping[str, Any]], Any] | None = None
    sweeps: tuple[Callable[[], Any], ...] = ()
    demo_players: int = 3


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its engine, its hooks and what the framework shows about it."""

    slug: str
    name: str
    engine: RulesEngine
    min_seats: int
    max_seats: int
    hooks: GameHooks = field(default_factory=GameHooks)


_GAMES: dict[str, GameEntry] = {}


def register(engine: RulesEngine, hooks: GameHooks | None = None) -> GameEntry:
    """Register ``engine`` (a module implementing ``games.rules.RulesEngine``) with its
    ``hooks``. Registering the same slug twice replaces the entry (Django may call
    ``ready()`` more than once in tests)."""
    entry = GameEntry(slug=engine.SLUG, name=engine.NAME, engine=engine,
                      min_seats=engine.MIN_SEATS, max_seats=engine.MAX_SEATS,
                      hooks=hooks or GameHooks())
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


def get_rules(slug: str) -> RulesEngine:
    """The engine module of game ``slug``."""
    return get_game(slug).engine


def all_games() -> list[GameEntry]:
    """Every registered game, by name."""
    return sorted(_GAMES.values(), key=lambda g: g.name)


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for form fields."""
    return [(g.slug, g.name) for g in all_games()]
