"""The registry: the one way anything plugs into the framework, so ``games/`` never imports
a game, ``press`` or ``players`` by name.

- A **game** app's ``AppConfig.ready()`` calls :func:`register` with its engine module (a
  :class:`games.rules.RulesEngine`) and a :class:`GameHooks` — every optional thing a game
  may give the framework, each typed (docs/style.md §15). The framework looks a game up
  with :func:`get_game` (engine + hooks) or :func:`get_rules` (the engine alone).
- Any **other app** (``press``, ``players``, ``accounts``, ``games`` itself) calls
  :func:`register_app` with an :class:`AppHooks`: what it adds to pages, emails and the
  clock. The framework reads them through :func:`all_apps` (and the helpers below).
- A **periodic job** (:class:`PeriodicJob`) is declared once, in the hooks of the app that
  owns it: ``config.celery`` builds Celery beat's schedule from :func:`periodic_jobs` and
  ``manage.py run``'s embedded sweeper runs the same list.

Nothing here imports Django: hooks name their functions, the framework calls them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from games.rules import RulesEngine

JSONDict = dict[str, Any]


class UnknownGame(LookupError):
    """No game is registered under that slug."""


@dataclass(frozen=True)
class PeriodicJob:
    """A job on a clock, declared once: Celery beat runs ``task`` (``config.celery`` builds
    its schedule from every registered job) and ``manage.py run``'s embedded sweeper calls
    ``function`` (a dotted path, looked up at each call) on the same clock.

    The clock is one of: ``seconds`` (every N seconds); ``cron`` (``celery.schedules.crontab``
    keyword arguments, e.g. ``{"minute": "*/5"}``; the embedded sweeper checks it once a
    minute); neither (every sweep: ``CELERY_BEAT_SWEEP_SECONDS``, or ``run --sweep-seconds``).
    A queued run still waiting when the next is due is dropped (``expires`` seconds; default
    the period), so workers that were down find one run waiting, not hundreds.
    """

    name: str
    task: str
    function: str
    seconds: float | None = None
    cron: Mapping[str, str | int] | None = None
    expires: float | None = None


@dataclass(frozen=True)
class AppHooks:
    """What an app beside the framework (press, players, accounts...) plugs in; every hook
    is optional. ``games`` calls them and imports none of those apps.

    Match page (``games.lib.pages``):

    - ``seat_notes(match, seats) -> [str]``: notes under the players of a running match
      (players: "away until …").
    - ``page_fragment(request, match) -> (name, scope, parts)``: the app's own cached
      fragment of the match page, read in the page's one cache round trip (press: its panel).
    - ``page_annotations``: ``{attribute: () -> expression}`` added to the one query that
      loads the page's match row (press: its version, for the panel's cache key).

    Lobby and match creation (``games.views``):

    - ``unread_counts(user, match_ids) -> {match_id: n}``: a count shown beside each of the
      reader's matches in the lobby (press: unread messages).
    - ``match_created(match, cleaned_data)``: called after the new-match form created a
      match, inside its request (press: the chosen press rules).

    Emails (``games.emails``, ``games.services.notifications``):

    - ``email_builders``: ``{notification kind: builder}`` for the kinds the app sends;
      ``email_categories``: ``{kind: preference category}`` its unsubscribe links turn off.
    - ``digest_lines(notification, sections, lang)``: add lines to the daily digest.
    - ``send_veto(notifications, now) -> {notification_id: reason}``: hold some back.
    - ``channels``: ways out besides email, each a
      ``games.services.notifications.Channel`` (reach: web push, webhooks); their rows are
      outbox rows like emails.

    Early close (``games.selectors``):

    - ``away_seats(match_id, {seat number: user id}, now, *, version=None) -> seat
      numbers``: the players away now (players: a declared away period); they count as
      checked in once a player who is not away did. ``version`` (the match page's public
      version and the match's creation time, or absent) lets the app keep what it read
      until that changes.

    Clock: ``periodic``, the app's :class:`PeriodicJob` entries.
    """

    label: str
    seat_notes: Callable[[Any, list[Any]], list[str]] | None = None
    page_fragment: Callable[[Any, Any], tuple[str, str, list[Any]]] | None = None
    page_annotations: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    unread_counts: Callable[[Any, list[int]], Mapping[int, int]] | None = None
    match_created: Callable[[Any, Mapping[str, Any]], None] | None = None
    email_builders: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    email_categories: Mapping[str, str] = field(default_factory=dict)
    digest_lines: Callable[[Any, list[dict[str, Any]], str], None] | None = None
    send_veto: Callable[[list[Any], Any], Mapping[int, str]] | None = None
    away_seats: Callable[..., set[int]] | None = None
    channels: tuple[Any, ...] = ()
    periodic: tuple[PeriodicJob, ...] = ()


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
    - ``periodic``: the game's own :class:`PeriodicJob` entries (beat and ``manage.py run``).

    Other apps' per-game decisions (so ``players`` and ``press`` name no game):

    - ``rating_mode(match) -> mode | None``: the rating a finished match counts for (None:
      unrated); default ``"standard"`` (a placement by the outcome). Modes in
      ``players.ratings.SIDE_MODES`` pair sides, every other mode places players.
    - ``press_default(config) -> "full" | "public" | "none"``: the press rules a new match
      gets when nobody chose; default ``"full"``.
    - ``match_page_url_names``: URL names of the game's own pages that show one match (with
      its messages panel) besides ``table_url_name``.
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
    config_prepare: Callable[[JSONDict], Mapping[str, Any]] | None = None
    default_schedule: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None
    schedule_from_settings: bool = False
    match_form_adapt: Callable[[Any], None] | None = None
    email_template: str | None = None
    email_template_html: str | None = None
    email_context: Callable[[Any, int | None, str], Mapping[str, Any]] | None = None
    email_coalesce: bool = False
    out_of_play: Callable[[Mapping[str, Any]], Any] | None = None
    periodic: tuple[PeriodicJob, ...] = ()
    demo_players: int = 3
    rating_mode: Callable[[Any], str | None] | None = None
    press_default: Callable[[Mapping[str, Any]], str] | None = None
    match_page_url_names: frozenset[str] = frozenset()

    def match_pages(self) -> frozenset[str]:
        """Every URL name of the game's own one-match pages."""
        own = {self.table_url_name} if self.table_url_name else set()
        return frozenset(own | self.match_page_url_names)


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
_APPS: dict[str, AppHooks] = {}


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


def register_app(hooks: AppHooks) -> AppHooks:
    """Plug an app in (from its ``AppConfig.ready()``); the same label again replaces it."""
    _APPS[hooks.label] = hooks
    return hooks


def unregister_app(label: str) -> None:
    """Remove an app's hooks (tests)."""
    _APPS.pop(label, None)


def all_apps() -> list[AppHooks]:
    """Every registered app's hooks, by label (a stable order for pages and caches)."""
    return [_APPS[label] for label in sorted(_APPS)]


def periodic_jobs() -> list[PeriodicJob]:
    """Every periodic job of the registered apps and games, each name once (the last
    registration wins)."""
    jobs: dict[str, PeriodicJob] = {}
    for app in all_apps():
        jobs.update((job.name, job) for job in app.periodic)
    for game in all_games():
        jobs.update((job.name, job) for job in game.hooks.periodic)
    return list(jobs.values())
