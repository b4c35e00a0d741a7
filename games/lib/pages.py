"""What the generic pages and the JSON API need beyond the selectors: who may look at a
match, the lobby lists with "your move" markers in a fixed number of queries, the match
page context (built only from the player view and the seat's diary rows), and turning a
posted order form into an order payload through the game's registry hooks.

Game pages plug in through the hooks of ``games.registry.register(engine, GameHooks(...))``:

- ``board_template``: a template rendered with ``view`` (the player view dict), ``match``,
  ``seat`` and ``phase``;
- ``order_form_template``: the order form's inner fields (the framework wraps it in the
  ``<form>`` with the CSRF token, ``phase_id`` and ``version``);
- ``order_from_post(querydict) -> dict``: the order payload from that no-JS form; raise
  ``ValueError`` / ``django.forms.ValidationError`` / ``ApplicationError`` with a message
  for bad input.

See docs/pages.md.
"""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from django import forms
from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import OuterRef, Q
from django.http import HttpRequest, QueryDict
from django.urls import NoReverseMatch, reverse
from games.lib.escape import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.names import shown_name
from games import registry, selectors
from games.selectors import BOT_NAME
from games.exceptions import ApplicationError
from games.lib import audit, htmlcache
from games.lib.sqlonce import CompiledOnce
from games.forms import OrderForm, parse_int
from games.models import CheckIn, Match, Phase, Seat
from games.services.seats import checked_in_numbers

GENERIC_BOARD = "games/fragments/board_generic.html"
GENERIC_ORDER_FORM = "games/fragments/order_form_generic.html"
LIVE_STATUSES = (Match.Status.RUNNING, Match.Status.PAUSED)
HISTORY_LIMIT = 100
DIARY_PARAM = "diary"
#: the large JSON columns a list never shows: not read, not decoded (a lobby of 100
#: running matches spent most of its time decoding them)
LIST_DEFERRED = ("state", "config")
ORDER_FORM_INVALID = _("This order form is not valid.")


def page_annotations() -> dict[str, Callable[[], Any]]:
    """What apps beside the framework add to the match page's match row, as subqueries of
    the one query that loads it (``AppHooks.page_annotations``; press: its version)."""
    return {name: make for app in registry.all_apps()
            for name, make in app.page_annotations.items()}


class OrderFormInvalid(Exception):
    """The posted order form could not be turned into a payload."""

    def __init__(self, message: str, form: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.form = form


# --- access ----------------------------------------------------------------------------

def seat_of(match: Match, user: Any) -> Seat | None:
    """The user's live seat in ``match`` (memoised on the match object for the request)."""
    if not getattr(user, "is_authenticated", False):
        return None
    cache = match.__dict__.setdefault("_seat_cache", {})
    if user.pk not in cache:
        cache[user.pk] = (Seat.objects.filter(match=match, user=user, removed_at__isnull=True)
                          .first())
    return cache[user.pk]


def can_view(match: Match, user: Any) -> bool:
    """Public matches: every logged-in user; private ones: their players and staff."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or not match.is_private:
        return True
    return seat_of(match, user) is not None


def can_watch(match: Match, user: Any) -> bool:
    """:func:`can_view`, and a logged-out visitor may watch a public match (the spectator
    view: ``player_view(state, None)`` and the public diary rows only)."""
    if not getattr(user, "is_authenticated", False):
        return not match.is_private
    return can_view(match, user)


def game_or_none(slug: str) -> registry.GameEntry | None:
    try:
        return registry.get_game(slug)
    except registry.UnknownGame:
        return None


def has_custom_order_form(slug: str) -> bool:
    game = game_or_none(slug)
    return bool(game and game.hooks.order_from_post)


# --- "my matches" (the API, Dice Slayer) -----------------------------------------------

@dataclass
class MyMatch:
    """One of the user's matches as the lobby and the API list it."""

    match: Match
    seat: Seat
    phase: Phase | None = None
    checked_in: bool = False
    awaited: bool = False
    game_name: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def your_move(self) -> bool:
        return (self.match.status == Match.Status.RUNNING and self.phase is not None
                and self.awaited and not self.checked_in)


def my_matches(user: Any, *, include_finished: bool = True) -> list[MyMatch]:
    """The user's seats with their match, open phase and check-in, in three queries."""
    seats = list(Seat.objects.filter(user=user, removed_at__isnull=True)
                 .select_related("match").defer(*(f"match__{f}" for f in LIST_DEFERRED))
                 .order_by("-match__created_at"))
    if not include_finished:
        seats = [s for s in seats if s.match.status != Match.Status.FINISHED]
    match_ids = [s.match_id for s in seats]
    phases: dict[int, Phase] = {}
    for ph in (Phase.objects.filter(match_id__in=match_ids, closed_at__isnull=True)
               .order_by("match_id", "number")):
        phases[ph.match_id] = ph  # the latest open one wins
    done = set(CheckIn.objects.filter(seat__in=[s.pk for s in seats],
                                      phase__in=[p.pk for p in phases.values()])
               .values_list("phase_id", "seat_id"))
    out = []
    for s in seats:
        ph = phases.get(s.match_id)
        awaited = bool(ph and s.number is not None and s.number in (ph.awaited or []))
        out.append(MyMatch(match=s.match, seat=s, phase=ph, awaited=awaited,
                           checked_in=bool(ph and (ph.pk, s.pk) in done),
                           game_name=_game_name(s.match.game)))
    return out


def _game_name(slug: str) -> str:
    game = game_or_none(slug)
    return game.name if game else slug


# --- the match page --------------------------------------------------------------------

class Lazy:
    """A page context value computed on first use, once: templates call it (Django calls
    a callable variable), Python code goes through :func:`resolved`. A fragment read back
    from the cache (games/lib/htmlcache.py) never asks for it."""

    def __init__(self, compute: Callable[[], Any]) -> None:
        self._compute: Callable[[], Any] | None = compute
        self._value: Any = None

    def __call__(self) -> Any:
        if self._compute is not None:
            self._value, self._compute = self._compute(), None
        return self._value


def resolved(value: Any) -> Any:
    """A context value, computed if it is :class:`Lazy`."""
    return value() if isinstance(value, Lazy) else value


def diary_by_turn(rows: list[Any]) -> list[tuple[int, list[Any]]]:
    """Diary rows grouped by turn, newest turn first, rows in order inside a turn."""
    groups: dict[int, list[Any]] = {}
    for row in rows:
        groups.setdefault(getattr(row, "turn", 0) or 0, []).append(row)
    return sorted(groups.items(), key=lambda kv: kv[0], reverse=True)


def viewer_of(request: HttpRequest, match: Match) -> tuple[Seat | None, bool]:
    """(seat, omniscient): staff without a seat in the match see everything, and each such
    look is an audit line (``games.lib.audit``)."""
    seat = seat_of(match, request.user)
    director = bool(request.user.is_authenticated and request.user.is_staff and seat is None)
    if director and match.status in (Match.Status.RUNNING, Match.Status.PAUSED):
        audit.staff_view(request.user, match.pk, "page", request)
    return seat, director


def player_view(match: Match, seat: Seat | None, director: bool) -> dict[str, Any] | None:
    """The view this viewer may see, or None before the match has a state."""
    if match.state is None or game_or_none(match.game) is None:
        return None
    if seat is not None and seat.number is None:
        seat = None
    return selectors.player_view_for(match, seat, omniscient=director)


#: the large JSON columns the match page reads only to render a fragment: the view loads
#: them (:func:`load_heavy`) when a fragment is not in the cache
PAGE_DEFERRED = ("state", "config")


def _page_match_qs(match_id: int) -> Any:
    qs = Match.objects.filter(pk=match_id).defer(*PAGE_DEFERRED)
    annotations = page_annotations()
    if annotations:
        qs = qs.annotate(**{name: make() for name, make in annotations.items()})
    return qs[:1]


_PAGE_MATCH = CompiledOnce(_page_match_qs, depends=lambda: tuple(page_annotations()))


def page_match(match_id: int) -> Match | None:
    """The match as its page loads it: ``state`` and ``config`` deferred (read only to
    render a fragment the cache does not hold), the apps' ``page_annotations`` added."""
    found = _PAGE_MATCH.objects(Match, match_id)
    return found[0] if found else None


def load_heavy(match: Match) -> Match:
    """``state`` and ``config`` of a match loaded with them deferred, in one query (a
    deferred field read one by one would cost a query each, and ``refresh_from_db`` would
    forget the memoised seats)."""
    missing = sorted(match.get_deferred_fields() & set(PAGE_DEFERRED))
    if set(missing) == set(PAGE_DEFERRED):  # the page's case: SQL compiled once
        found = _HEAVY.rows(match.pk)
        if found:
            for name, value in zip(PAGE_DEFERRED, found[0]):
                setattr(match, name, json.loads(value) if isinstance(value, str) else value)
            return match
    if missing:
        row = Match.objects.filter(pk=match.pk).values(*missing).first() or {}
        for name in missing:
            setattr(match, name, row.get(name))
    return match


class SeatRow(NamedTuple):
    """One seat as the match page's keys, names and counts need it: a plain row (a
    hundred model instances with their users cost ~2 ms to build, and only a fragment
    rendered anew needs them)."""

    pk: int
    number: int | None
    user_id: int | None
    username: str | None
    is_bot: bool
    removed_at: Any
    version: int
    fields: tuple[Any, ...]  # every column of the seat, for the reader's own Seat
    bot_account: bool = False  # a program plays this account (accounts.Profile.is_bot)


_SEAT_COLUMNS = tuple(f.attname for f in Seat._meta.concrete_fields)
#: the columns of ``SeatRow.fields``, in order
SEAT_COLUMNS = _SEAT_COLUMNS


_SEAT_ROWS = CompiledOnce(lambda match_id: Seat.objects.filter(match_id=match_id)
                          .order_by("number", "joined_at")
                          .values_list(*_SEAT_COLUMNS, "user__profile__is_bot",
                                       "user__username"))
#: the open phase with the seat numbers that pressed check-in
_OPEN_PHASE = CompiledOnce(lambda match_id: Phase.objects.filter(
    match_id=match_id, closed_at__isnull=True).order_by("-number").annotate(
    pressed_seats=ArraySubquery(CheckIn.objects.filter(phase=OuterRef("pk"))
                                .values("seat__number")))[:1])


#: the closed phases the history and the phase selector show, newest first: only the
#: columns they show (the awaited seats' JSON, the seed… decoded for a hundred phases were
#: a third of it)
HISTORY_COLUMNS = ("id", "match_id", "number", "turn", "kind", "closed_at")
_HISTORY = CompiledOnce(lambda match_id: Phase.objects.filter(
    match_id=match_id, closed_at__isnull=False).order_by("-number")
    .only(*HISTORY_COLUMNS)[:HISTORY_LIMIT])
#: a page match's deferred JSON (:func:`load_heavy`)
_HEAVY = CompiledOnce(lambda match_id: Match.objects.filter(pk=match_id)
                      .values_list(*PAGE_DEFERRED).order_by())


def open_phase(match_id: int) -> Phase | None:
    """The open phase with ``pressed_seats`` (the seat numbers that pressed check-in): one
    query on PostgreSQL (``ARRAY(subquery)``); two elsewhere (SQLite, ``manage.py run``)."""
    if connection.vendor == "postgresql":
        return next(iter(_OPEN_PHASE.objects(Phase, match_id)), None)
    phase = Phase.objects.filter(match_id=match_id, closed_at__isnull=True).order_by(
        "-number").first()
    if phase is not None:
        phase.pressed_seats = list(CheckIn.objects.filter(phase=phase)  # type: ignore[attr-defined]
                                   .values_list("seat__number", flat=True))
    return phase


def seat_rows(match: Match) -> list[SeatRow]:
    """Every seat of the match (removed ones too), in seat order, in one narrow query."""
    out = []
    index = {name: i for i, name in enumerate(_SEAT_COLUMNS)}
    for row in _SEAT_ROWS.rows(match.pk):
        out.append(SeatRow(row[index["id"]], row[index["number"]], row[index["user_id"]],
                           row[-1], row[index["is_bot"]], row[index["removed_at"]],
                           row[index["version"]], row[:len(_SEAT_COLUMNS)], bool(row[-2])))
    return out


def seat_label(seat: SeatRow) -> str:
    """"3. alice" (" (bot)" when the bot plays it, " (bot account)" when a program plays
    the account) for the seat list: one string per seat
    instead of a template's five lookups (a hundred seats)."""
    number = f"{seat.number}. " if seat.number is not None else ""
    name = str(escape(shown_name(seat.username))) if seat.user_id else str(gettext("bot"))
    bot = f" ({gettext('bot')})" if seat.is_bot else ""
    account = f" ({gettext('bot account')})" if seat.user_id and seat.bot_account else ""
    return mark_safe(number + name + account + bot)


def remember_seat(match: Match, user: Any, seats: list[SeatRow]) -> None:
    """Fill :func:`seat_of`'s memo from the rows already loaded (one query less)."""
    if getattr(user, "is_authenticated", False):
        cache = match.__dict__.setdefault("_seat_cache", {})
        if user.pk not in cache:
            row = next((s for s in seats if s.user_id == user.pk and s.removed_at is None),
                       None)
            cache[user.pk] = (Seat.from_db(Seat.objects.db, _SEAT_COLUMNS, row.fields)
                              if row is not None else None)


def match_context(request: HttpRequest, match: Match, *, order_form: Any = None,
                  order_error: str | None = None) -> dict[str, Any]:
    """Everything templates/games/match_detail.html and its fragments show.

    Queries, whatever the number of players, turns and diary rows: the seats (every seat
    once, with its user: the reader's seat, the names, the check-in counts all come from
    it), the recent phases (the open one and the history together), the check-ins of the
    open phase; the player view, the diary rows of the latest turn (:func:`diary_window`)
    and the seat notes only when a fragment that shows them is rendered, not read back from
    the fragment cache (``fragment_keys``, games/lib/htmlcache.py)."""
    user = request.user
    all_seats = seat_rows(match)
    remember_seat(match, user, all_seats)
    seat, director = viewer_of(request, match)
    game = game_or_none(match.game)
    phase = None
    if match.status in LIVE_STATUSES:  # the open phase with who pressed check-in, one query
        phase = open_phase(match.pk)
    names = {s.number: (shown_name(s.username) if s.user_id else BOT_NAME) for s in all_seats
             if s.number is not None and s.removed_at is None}
    seats = [s for s in all_seats if s.removed_at is None]  # rows (SeatRow), not models
    seat_labels = Lazy(lambda: [seat_label(s) for s in seats])
    # the costly parts are computed only when a fragment is rendered, not read back
    history = Lazy(lambda: _HISTORY.objects(Phase, match.pk))
    view = Lazy(lambda: player_view(load_heavy(match), seat, director))
    seat_number = seat.number if seat is not None else None
    window = Lazy(lambda: diary_window(request, phase, history()))
    every_name = {s.number: (shown_name(s.username) if s.user_id else BOT_NAME)
                  for s in all_seats if s.number is not None}  # = selectors.seat_names
    diary_groups = Lazy(lambda: diary_by_turn(diary_lines(
        request, load_heavy(match), seat_number, director, turns=window()["q"],
        names=every_name)))
    checked_in = awaited = False
    counts = None
    rows = 0
    if phase is not None:
        numbered = [s for s in all_seats if s.number is not None]
        pressed = {n for n in phase.pressed_seats or [] if n is not None}
        done = checked_in_numbers(phase, seats=numbered, pressed=pressed)
        rows = 0 if private_checkin(phase) else len(pressed)
        # the away periods kept under the public version: no query per load (players)
        counts = checkin_summary(phase, count=selectors.checkin_count(
            phase, seats=numbered, pressed=pressed, version=(match.version, match.created_at)))
        if counts["awaited"] is None:
            counts = None  # a secret awaited set: no "N of M checked in" line
        if seat is not None and seat.number is not None:
            awaited = seat.number in (phase.awaited or [])
            checked_in = awaited and seat.number in done
    running = match.status == Match.Status.RUNNING
    hooks = game.hooks if game else registry.GameHooks()
    if order_form is None and hooks.order_from_post is None:
        order_form = OrderForm()
    is_creator = bool(user.is_authenticated and match.created_by_id == user.pk)
    invite_url = None
    if match.is_private and (seat is not None or user.is_staff or is_creator):
        invite_url = request.build_absolute_uri(
            reverse("games:match-invite", args=[match.invite_code]))
    outcome = match.outcome if match.status == Match.Status.FINISHED else None
    admin_url = None
    if user.is_authenticated and user.is_staff:
        try:
            admin_url = reverse("admin:games_match_change", args=[match.pk])
        except NoReverseMatch:
            admin_url = None
    # the board's key holds the older turn it shows: one the match has, else none (a
    # made-up ?diary= is the page without it, never a new cache entry); the turns are
    # looked up only when one is asked for
    diary_param = (window()["asked"] if parse_int(request.GET.get(DIARY_PARAM)) is not None
                   else None)
    clock_minute = htmlcache.time_bucket()
    seat_notes = Lazy(lambda: [note for app in registry.all_apps() if app.seat_notes
                               for note in app.seat_notes(match, seats)] if running else [])
    return {
        "admin_url": admin_url, "seat_notes": seat_notes, "seat_labels": seat_labels,
        htmlcache.KEYS_NAME: htmlcache.page_keys(match, seat, director, all_seats),
        "clock_minute": clock_minute,  # the seat notes end with the clock
        # the fragments below, read from the cache in one round trip (the press panel's
        # key needs its own version: it asks by itself)
        htmlcache.PREFETCH_NAME: [("board", "reader", [diary_param]), ("order", "reader", []),
                                       ("seats", "public", [clock_minute]),
                                       ("history", "public", []),
                                       *(app.page_fragment(request, match) for app in registry.all_apps()
                                         if app.page_fragment)],
        "match": match, "game": game, "seat": seat, "director": director, "phase": phase,
        "seats": seats, "names": names, "view": view, "diary_groups": diary_groups,
        "diary_older": Lazy(lambda: window()["older"]),
        "diary_asked": Lazy(lambda: window()["asked"]),
        "diary_param": diary_param,  # in the board's key
        "diary_url": reverse("games:match-diary",
                                                             args=[match.pk]),
        "own_diary": hooks.own_diary,
        "history": history, "counts": counts, "checked_in": checked_in, "awaited": awaited,
        "checkin_rows": rows,
        "can_order": bool(running and phase and seat is not None and awaited and not checked_in),
        "can_checkin": bool(running and phase and seat is not None and awaited and not checked_in),
        "can_withdraw": bool(running and phase and seat is not None and checked_in
                             and not phase.checkin_final),
        "can_join": bool(match.status == Match.Status.FORMING and seat is None
                         and user.is_authenticated and not match.is_private),
        "can_leave": bool(match.status == Match.Status.FORMING and seat is not None),
        "can_start": bool(match.status == Match.Status.FORMING
                          and (user.is_staff or is_creator)),
        "invite_url": invite_url, "outcome": outcome,
        "outcome_winners": [names.get(w, gettext("seat %(number)s") % {"number": w + 1})
                            for w in (outcome or {}).get("winners", [])],
        "forming": (Lazy(lambda: forming_summary(match, game))
                    if match.status == Match.Status.FORMING else None),
        "order_form": order_form, "order_error": order_error,
        # a refused form shows what was posted and why: that answer is never cached
        htmlcache.NO_CACHE_FLAG: bool(order_error or getattr(order_form, "is_bound", False)),
        "board_template": hooks.board_template or GENERIC_BOARD,
        "order_form_template": hooks.order_form_template or GENERIC_ORDER_FORM,
        "poll_url": reverse("games:match-poll", args=[match.pk]),
    }


def forming_summary(match: Match, game: Any) -> dict[str, Any]:
    """What a forming match will be, for the page people join from: its real settings
    (label, value), the house rules changed from the rules' defaults, and who may start it
    (its creator or a director; ``starts_at`` starts it by itself)."""
    settings_rows: list[tuple[str, str]] = []
    house_changed: list[str] = []
    try:
        schema = list(game.engine.config_schema()) if game is not None else []
    except Exception:  # noqa: BLE001 - a game without a schema shows none
        schema = []
    config = match.config or {}
    for spec in schema:
        if spec.type == "json" or spec.key not in config:
            continue
        value = config[spec.key]
        label = spec.label or spec.key.replace("_", " ").capitalize()
        if spec.house_rule:
            if value != spec.default:
                house_changed.append(f"{label}: {value}")
            continue
        if spec.type == "bool":
            text = str(_("yes") if value else _("no"))
        elif spec.type == "choice":
            text = str(dict(spec.choices).get(value, value))
        else:
            text = str(value)
        settings_rows.append((label, text))
    creator = shown_name(match.created_by.get_username()) if match.created_by_id else ""
    return {"settings": settings_rows, "house_changed": house_changed, "creator": creator}


def diary_window(request: HttpRequest, phase: Phase | None,
                 history: list[Phase]) -> dict[str, Any]:
    """Which diary turns a page loads: from the turn of the last closed phase on (what
    just happened, and the open phase's own rows), plus one older turn asked for with
    ``?diary=<turn>`` (the no-JS link; with htmx the older turn comes from the
    ``games:match-diary`` fragment instead). ``older``: the earlier turns, newest first,
    each a link."""
    latest = history[0].turn if history else (phase.turn if phase is not None else 0)
    asked = parse_int(request.GET.get(DIARY_PARAM))
    q = Q(turn__gte=latest)
    if asked is not None and 0 <= asked < latest:
        q |= Q(turn=asked)
    else:
        asked = None
    turns = {p.turn for p in history if p.turn < latest}
    if history and len(history) == HISTORY_LIMIT:
        turns |= set(range(0, latest))  # older than the phases loaded: every turn number
    # every diary row belongs to a phase (its turn), so these are all the turns with rows
    older = sorted((t for t in turns if t < latest), reverse=True)
    return {"q": q, "latest": latest, "older": [t for t in older if t != asked],
            "asked": asked}


def checkin_rows(phase: Phase | None) -> int:
    """The poll's third number: the open phase's check-in rows (0 without a phase, and
    always 0 for a secret awaited set, whose check-ins must not show). Check-ins bump no
    public version (they must not make anybody else's page stale), so the "N of M checked
    in" line follows them through this count."""
    if phase is None or private_checkin(phase):
        return 0
    return CheckIn.objects.filter(phase=phase).count()


def poll_unchanged(request: HttpRequest, match: Match) -> bool:
    """A poll's ``?v=<public version>&s=<seat version>&c=<check-in rows>`` still holds
    (``s`` and ``c`` are checked only when sent): answer 204. Another seat's private order
    moves none of them."""

    seen = parse_int(request.GET.get("v"))
    if seen is None or seen != match.version:
        return False
    seen_seat = parse_int(request.GET.get("s"))
    if seen_seat is not None:
        seat = seat_of(match, request.user)
        if seen_seat != (seat.version if seat is not None else 0):
            return False
    seen_rows = parse_int(request.GET.get("c"))
    if seen_rows is not None:
        phase = selectors.current_phase(match) if match.status in LIVE_STATUSES else None
        if seen_rows != checkin_rows(phase):
            return False
    return True


def diary_lines(request: HttpRequest, match: Match, seat_number: int | None,
                director: bool, since_seq: int = 0, turns: Q | None = None,
                names: dict[int, str] | None = None) -> list[Any]:
    """The reader's diary lines (the director reads every row), in the reader's language;
    ``turns`` keeps only those turns (see :func:`diary_window`); ``names``: the seat names
    when the caller already loaded the seats."""
    if match.state is None and not match.diary_seq:
        return []
    lang = getattr(request, "LANGUAGE_CODE", None) or "en"
    return list(selectors.diary_for_seat(match, seat_number, since_seq=since_seq, lang=lang,
                                         omniscient=director, turns=turns, names=names))


def diary_turn(request: HttpRequest, match: Match, turn: int,
               part: str) -> tuple[str, dict[str, Any]]:
    """(template, context) of one diary turn for the ``games:match-diary`` fragment: the
    reader's rows of that turn only (the director reads every row)."""
    seat, director = viewer_of(request, match)
    game = game_or_none(match.game)
    hooks = game.hooks if game else registry.GameHooks()
    seats = match.seats.filter(removed_at__isnull=True, number__isnull=False).select_related("user")
    names = {s.number: (shown_name(s.user.get_username()) if s.user_id else BOT_NAME)
             for s in seats}
    number = seat.number if seat is not None else None
    rows = diary_lines(request, match, number, director, turns=Q(turn=turn))
    template = hooks.diary_turn_template or "games/fragments/diary_turn.html"
    return template, {"match": match, "seat": seat, "director": director, "names": names,
                      "turn": turn, "rows": rows, "part": part, "diary_groups": [(turn, rows)],
                      "diary_url": reverse("games:match-diary", args=[match.pk])}


def private_checkin(phase: Phase | str) -> bool:
    """A phase kind whose awaited set is secret (``GameHooks.private_checkin_kinds``,
    e.g. Sanguosha's Negate window: the count would tell how many hold a Negate)."""
    kind = phase if isinstance(phase, str) else phase.kind
    return any(kind in g.hooks.private_checkin_kinds for g in registry.all_games())


def checkin_summary(phase: Phase, *, count: Any = None) -> dict[str, int | None]:
    """{"checked_in": n, "awaited": m, "away": k} for the "N of M checked in" line (M: the
    living awaited players a person plays, less the ``k`` away ones); all None for a
    phase kind whose awaited set is secret (:func:`private_checkin`). ``count``: the
    :class:`games.selectors.CheckinCount` the caller already has (the match page)."""
    if private_checkin(phase):
        return {"checked_in": None, "awaited": None, "away": None}
    if count is None:
        count = selectors.checkin_count(phase)
    return {"checked_in": count.checked_in, "awaited": count.active, "away": count.away}


# --- orders from forms -----------------------------------------------------------------

def order_payload_from_post(slug: str, post: QueryDict) -> dict[str, Any]:
    """The order payload from a posted form: the game's ``order_from_post`` hook, else the
    generic JSON field ``order``. Raises :class:`OrderFormInvalid` with a message."""
    game = game_or_none(slug)
    hook = game.hooks.order_from_post if game else None
    if hook is not None:
        try:
            payload = hook(post)
        except ApplicationError as exc:
            raise OrderFormInvalid(exc.message) from None
        except forms.ValidationError as exc:
            raise OrderFormInvalid(" ".join(exc.messages)) from None
        except (ValueError, TypeError, KeyError) as exc:
            raise OrderFormInvalid(str(exc) or str(ORDER_FORM_INVALID)) from None
        if not isinstance(payload, dict):
            raise OrderFormInvalid(str(ORDER_FORM_INVALID))
        return payload
    form = OrderForm(post)
    if not form.is_valid():
        msg = " ".join(e for errs in form.errors.values() for e in errs)
        raise OrderFormInvalid(msg, form=form)
    return form.cleaned_data["order"]
