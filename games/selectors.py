"""Reads for pages, the API and emails (docs/style.md §11). Hidden information goes through one
door: :func:`player_view_for` (the engine's ``player_view``) and :func:`diary_for_seat`
(rows whose audience holds the seat). Raw state leaves only through ``omniscient=True``.

Access rule (``match_get_for_user``): anyone (even anonymous) may see a public match; a
private match only its seated players, the director (staff), or someone holding its invite
code. Everyone else gets ``Match.DoesNotExist`` — the same answer as a match that does not
exist, so a view turns it into a 404 and private matches cannot be probed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, NamedTuple

from django.core.cache import caches
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils.connection import ConnectionProxy
from django.utils.timezone import now as timezone_now

from accounts.names import shown_name
from games.lib import rawrows
from games.models import CheckIn, DiaryEntry, Match, Order, Phase, Seat
from games.registry import UnknownGame, all_apps, get_game, get_rules
from games.rules import Msg, T

#: diary sentences live in the evictable cache of rendered text (settings: "html")
cache = ConnectionProxy(caches, "html")


#: a bot seat's name: a Msg, so each reader reads it in their language (a name stays a name)
BOT_NAME = T("bot")

def match_list_for_user(user) -> QuerySet[Match]:
    """Matches the user holds a (not removed) seat in, newest first."""
    if not getattr(user, "is_authenticated", False):
        return Match.objects.none()
    return (Match.objects.filter(seats__user=user, seats__removed_at__isnull=True)
            .distinct().order_by("-created_at"))


def match_list_open(game: str | None = None) -> QuerySet[Match]:
    """Public matches still taking players (the lobby), optionally of one game."""
    qs = Match.objects.filter(status=Match.Status.FORMING, is_private=False)
    if game:
        qs = qs.filter(game=game)
    return qs.order_by("starts_at", "-created_at")


def match_get_for_user(*, user, match_id: int, invite_code: str | None = None) -> Match:
    """The match if ``user`` may see it, else ``Match.DoesNotExist`` (→ 404)."""
    match = Match.objects.get(pk=match_id)
    if not match.is_private:
        return match
    if getattr(user, "is_staff", False):
        return match
    if invite_code is not None and invite_code == match.invite_code:
        return match
    if getattr(user, "is_authenticated", False) and Seat.objects.filter(
            match=match, user=user, removed_at__isnull=True).exists():
        return match
    raise Match.DoesNotExist("No such match.")


def seat_for_user(match: Match, user) -> Seat | None:
    """The user's live seat in ``match`` (a removed player has none)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(match=match, user=user, removed_at__isnull=True).first()


def current_phase(match: Match) -> Phase | None:
    """The open phase, if any (at most one per match)."""
    return Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()


def player_view_for(match: Match, seat: Seat | None, *, omniscient: bool = False) -> dict[str, Any]:
    """What ``seat`` (None = spectator) may see: ``engine.player_view``. Only an explicit
    ``omniscient=True`` (the director, post-game review) returns ``omniscient_view``."""
    if match.state is None:
        return {}
    number = seat.number if seat is not None and seat.match_id == match.pk else None
    # memoised on the Match object for this state: the page and its panels (press, the
    # board) ask for the same view, and loading a 100-player state is the costly part
    memo = match.__dict__.get("_views")
    if memo is None or memo[0] is not match.state:
        memo = match.__dict__["_views"] = (match.state, {})
    key = ("omniscient",) if omniscient else ("seat", number)
    if key not in memo[1]:
        engine = get_rules(match.game)
        state = engine.load(match.state)
        memo[1][key] = (engine.omniscient_view(state) if omniscient
                        else engine.player_view(state, number))
    return memo[1][key]


def player_view_state(match: Match) -> Any:
    """The engine state of ``match`` (loaded once by callers rendering many seats' views,
    such as a batch of emails); pass it to :func:`player_view_from_state`."""
    return get_rules(match.game).load(match.state) if match.state is not None else None


def player_view_from_state(match: Match, state: Any, seat_number: int | None) -> dict[str, Any]:
    """``engine.player_view`` of an already loaded state, for ``seat_number`` (None =
    spectator): the same door as :func:`player_view_for`."""
    if state is None:
        return {}
    return get_rules(match.game).player_view(state, seat_number)


@dataclass(frozen=True)
class DiaryLine:
    """One diary row as a reader sees it."""

    seq: int
    turn: int
    phase_kind: str
    kind: str
    text: str
    is_public: bool
    created_at: Any
    phase_id: int | None


#: bump when ``describe`` changes its sentences: cached lines of the old wording expire
# 2: zones by their map's names; 3: names through describe; 4: translated; 5: card names
# inside log lines said in the reader's language too
DIARY_TEXT_CACHE_VERSION = 5
DIARY_TEXT_TTL = 24 * 3600


def _describe(engine, entry: DiaryEntry, viewer: int | None, lang: str,
              extra: Mapping[str, Any] | None = None) -> str:
    from games.lib.text import say
    from games.rules import Event

    event = Event(kind=entry.kind, data=entry.payload, visible_to=entry.visible_to)
    try:
        # an engine's ``Msg`` is said in the reader's language (games/lib/text.py)
        return str(say(engine.describe(event, viewer, lang, **(extra or {})), lang))
    except Exception:  # noqa: BLE001 - a broken sentence must not break the page
        return entry.kind


def _names_tag(names: Mapping[int, str] | None) -> str:
    """A short stable digest of the names a sentence may contain (a replaced player's
    new name makes new keys, so no line keeps the old name)."""
    if names is None:
        return "-"
    raw = "\x1f".join(f"{k}={v}" for k, v in sorted(names.items()))
    return hashlib.blake2b(raw.encode(), digest_size=6).hexdigest()


def seat_names(match: Match) -> dict[int, str]:
    """Seat number -> the name a person reads (the username, "bot" for a bot seat): the
    one mapping every diary line, email, replay and admin page names players with."""
    return {number: (shown_name(username) if username else BOT_NAME) for number, username in
            Seat.objects.filter(match=match, number__isnull=False).order_by()
            .values_list("number", "user__username")}


def seat_names_cached(match: Match) -> dict[int, str]:
    """:func:`seat_names`, read once per Match object (many readers rendered from one)."""
    if "_seat_names" not in match.__dict__:
        match.__dict__["_seat_names"] = seat_names(match)
    return match.__dict__["_seat_names"]


def prefetch_seat_names(matches: list[Match]) -> None:
    """:func:`seat_names` of many matches in one query, kept on each Match object where
    :func:`diary_lines_visible` looks for them (a batch of emails across matches)."""
    todo = [m for m in matches if "_seat_names" not in m.__dict__]
    if not todo:
        return
    found: dict[int, dict[int, str]] = {m.pk: {} for m in todo}
    for match_id, number, username in (
            Seat.objects.filter(match__in=[m.pk for m in todo], number__isnull=False)
            .order_by().values_list("match_id", "number", "user__username")):
        found[match_id][number] = shown_name(username) if username else BOT_NAME
    for m in todo:
        m.__dict__["_seat_names"] = found[m.pk]


def described(engine, match: Match, rows: list[DiaryEntry], viewer: int | None,
              lang: str, names: Mapping[int, str] | None = None,
              context: Mapping[str, Any] | None = None, cached: bool = True) -> list[str]:
    """``engine.describe`` of each row for ``viewer`` in ``lang``, cached per (entry,
    viewer, language, names): rows are never updated (docs/style.md §20), so a sentence once
    written stays true, and a page load reads them back in one cache round trip instead
    of describing every row again. Which rows a reader gets is decided before (by the
    query), so a cached line never reaches a reader who may not read its row. ``context``
    (the game's ``describe_context``, fixed for a match) goes to ``describe`` too, and
    ``names`` (seat number -> name) is the one way sentences name players.
    ``cached=False`` (a batch of emails: each reader's lines are described once, new rows
    that no page read yet) describes without the two cache round trips, which cost more
    than the few sentences they would save."""
    if engine is None:
        return [r.kind for r in rows]
    if names:  # a bot's name (a Msg) said in the reader's language, for engines that write
        from games.lib.text import say  # their own language's sentences (Dice Slayer's ja)

        names = {k: (str(say(v, lang)) if isinstance(v, Msg) else v) for k, v in names.items()}
    prefix = f"diary:{match.pk}:{'-' if viewer is None else viewer}:{lang}:{_names_tag(names)}:"
    keys = [f"{prefix}{r.seq}" for r in rows]
    try:
        known = cache.get_many(keys, version=DIARY_TEXT_CACHE_VERSION) if keys and cached else {}
    except Exception:  # noqa: BLE001 - the cache is an accelerator, never a dependency
        known = {}
    extra = dict(context or {})
    if names is not None:  # the engine names the players (RulesEngine.describe)
        extra["names"] = names
    missing = {}
    out = []
    for key, row in zip(keys, rows):
        text = known.get(key)
        if text is None:
            text = _describe(engine, row, viewer, lang, extra)
            missing[key] = text
        out.append(text)
    if missing and cached:
        try:
            cache.set_many(missing, timeout=DIARY_TEXT_TTL, version=DIARY_TEXT_CACHE_VERSION)
        except Exception:  # noqa: BLE001
            pass
    return out


def diary_rows_for_seat(match: Match, seat_number: int | None, *, since_seq: int = 0,
                        until_seq: int | None = None) -> QuerySet[DiaryEntry]:
    """Rows ``seat_number`` may read (public + audience holds it); ``None``: public only."""
    qs = DiaryEntry.objects.filter(match=match, seq__gt=since_seq)
    if until_seq is not None:
        qs = qs.filter(seq__lte=until_seq)
    audience = Q(is_public=True)
    if seat_number is not None:
        audience |= Q(audience__contains=f",{seat_number},")
    return qs.filter(audience).order_by("seq")


def diary_lines_visible(match: Match, rows: list[DiaryEntry], seat_number: int | None,
                        lang: str = "en", names: Mapping[int, str] | None = None,
                        cached: bool = True) -> list[DiaryLine]:
    """Of already fetched ``rows`` (one query for many readers, e.g. a batch of emails),
    the lines ``seat_number`` may read (public, or its number in the audience), described
    for it like :func:`diary_for_seat` does; the game's ``describe_context`` is computed
    once per Match object."""
    try:
        entry = get_game(match.game)
    except UnknownGame:
        entry = None
    engine = entry.engine if entry is not None else None
    context = entry.hooks.describe_context if entry is not None else None
    if "_describe_context" not in match.__dict__:
        match.__dict__["_describe_context"] = dict(context(match)) if callable(context) else {}
    if names is None and engine is not None:  # a person reads names, never placeholders
        names = seat_names_cached(match)
    mark = f",{seat_number}," if seat_number is not None else None
    visible = [r for r in rows if r.is_public or (mark is not None and mark in r.audience)]
    texts = described(engine, match, visible, seat_number, lang, names,
                      context=match.__dict__["_describe_context"], cached=cached)
    return [DiaryLine(seq=r.seq, turn=r.turn, phase_kind=r.phase_kind, kind=r.kind,
                      text=text, is_public=r.is_public, created_at=r.created_at,
                      phase_id=r.phase_id)
            for r, text in zip(visible, texts)]


class _DiaryRow(NamedTuple):
    """A diary row's columns as :func:`diary_for_seat` reads them: a plain row, not a
    ``DiaryEntry`` (building a model instance per row was a fifth of a page's diary)."""

    seq: int
    turn: int
    phase_kind: str
    kind: str
    payload: Any
    is_public: bool
    audience: str
    created_at: Any
    phase_id: int | None

    @property
    def visible_to(self) -> frozenset[int] | None:  # as DiaryEntry.visible_to
        return DiaryEntry.seats_of(self.is_public, self.audience)


def diary_for_seat(match: Match, seat_number: int | None, *, since_seq: int = 0,
                   until_seq: int | None = None, lang: str = "en",
                   omniscient: bool = False, names: Mapping[int, str] | None = None,
                   turns: Q | None = None) -> list[DiaryLine]:
    """The reader's diary lines after ``since_seq``, each with ``text`` from
    ``engine.describe`` in ``lang`` (cached, :func:`described`). ``omniscient`` (the
    director) reads every row. ``names`` (seat number -> player name; default
    :func:`seat_names`) goes to the engine's ``describe``, so no line shows a seat
    placeholder. ``turns`` (a ``Q`` on ``turn``) keeps only those turns:
    a page loads the latest turn, not the whole match."""
    try:
        entry = get_game(match.game)
    except UnknownGame:
        entry = None
    engine = entry.engine if entry is not None else None
    extra: dict[str, Any] = {}
    context = entry.hooks.describe_context if entry is not None else None
    if context is not None:  # what the game's sentences need from the match (Kill Game: zones)
        extra.update(context(match))
    if names is None and engine is not None:
        names = seat_names(match)  # a person reads names, never seat placeholders
    if omniscient:
        rows = DiaryEntry.objects.filter(match=match, seq__gt=since_seq).order_by("seq")
        if until_seq is not None:
            rows = rows.filter(seq__lte=until_seq)
    else:
        rows = diary_rows_for_seat(match, seat_number, since_seq=since_seq, until_seq=until_seq)
    if turns is not None:
        rows = rows.filter(turns)
    rows = [_DiaryRow(*row) for row in rows.values_list(*_DiaryRow._fields)]
    texts = described(engine, match, rows, seat_number, lang, names, context=extra)
    return [DiaryLine(seq=r.seq, turn=r.turn, phase_kind=r.phase_kind, kind=r.kind,
                      text=text, is_public=r.is_public, created_at=r.created_at,
                      phase_id=r.phase_id)
            for r, text in zip(rows, texts)]


# --- checked in: THE predicate (issue #2 §5) ----------------------------------------------

def seat_is_checked_in(phase: Phase, seat: Seat) -> bool:
    """THE predicate: a seat counts as checked in for ``phase`` when it has nothing to do
    (not awaited: dead, eliminated, not its turn), is played by the bot, was removed, or
    pressed check-in."""
    if seat.number is None or seat.number not in phase.awaited:
        return True
    if seat.is_bot or seat.removed_at is not None:
        return True
    return CheckIn.objects.filter(phase=phase, seat=seat).exists()


def checked_in_numbers(phase: Phase, *, seats: list[Seat] | None = None,
                       fresh: bool = False, pressed: set[int] | None = None) -> set[int]:
    """Seat numbers of ``phase``'s match that count as checked in (same rule, one query
    for the seats and one for the check-ins; none when ``seats`` are given and the phase
    is ``fresh`` — just created, so nobody pressed check-in yet). ``pressed``: the
    numbers that pressed check-in (:func:`pressed_numbers`), when the caller has them."""
    if seats is None:
        seats = list(Seat.objects.filter(match_id=phase.match_id, number__isnull=False))
    seats = [s for s in seats if s.number is not None]
    awaited = set(phase.awaited)
    if pressed is None:
        pressed = set() if fresh else pressed_numbers(phase)
    return {s.number for s in seats
            if s.number not in awaited or s.is_bot or s.removed_at is not None
            or s.number in pressed}


def pressed_numbers(phase: Phase) -> set[int]:
    """Seat numbers with a check-in row in ``phase`` (one row per seat)."""
    return set(CheckIn.objects.filter(phase=phase).values_list("seat__number", flat=True))


def _live_awaited(phase: Phase, seats) -> list:
    """The awaited seats a person plays (not the bot, not removed): those a check-in is
    expected from. The dead are not awaited, so they never count."""
    awaited = set(phase.awaited or [])
    return [s for s in seats if s.number is not None and s.number in awaited
            and not s.is_bot and s.removed_at is None and s.user_id is not None]


def away_numbers(phase: Phase, seats, *, pressed: set[int],
                 now: datetime | None = None, version: Any = None) -> set[int]:
    """Awaited live seats that did not press check-in and whose player is away now
    (``AppHooks.away_seats``, the players app: a declared away period, in a match whose
    away rule lets the seat play its defaults; no query when nobody is missing or no app
    plugged in). ``version``: the match's public version with its creation time, as a page
    read them: the hook may then keep what it read under it (players: the away periods)."""
    users = {s.number: s.user_id for s in _live_awaited(phase, seats) if s.number not in pressed}
    hooks = [app.away_seats for app in all_apps() if app.away_seats is not None]
    if not users or not hooks:
        return set()
    now = now or timezone_now()
    out: set[int] = set()
    for hook in hooks:
        out |= set(hook(phase.match_id, users, now) if version is None
                   else hook(phase.match_id, users, now, version=version))
    return out & set(users)


def phase_all_checked_in(phase: Phase, *, seats: list[Seat] | None = None,
                         fresh: bool = False, now: datetime | None = None) -> bool:
    """Every awaited seat counts as checked in (an awaited number with no seat row — an
    engine seat nobody holds — counts as absent, so it waits for the deadline).

    An away seat (:func:`away_numbers`) counts as checked in too — it plays its stored
    orders or its defaults — once a living player who is not away pressed check-in: a
    phase whose awaited players are all away (or one just opened) waits for its deadline,
    so a match of absentees never races through its phases."""
    if seats is None:
        seats = list(Seat.objects.filter(match_id=phase.match_id, number__isnull=False))
    pressed = set() if fresh else pressed_numbers(phase)
    done = checked_in_numbers(phase, seats=seats, pressed=pressed)
    missing = [n for n in phase.awaited if n not in done]
    if not missing:
        return True
    if not pressed & set(phase.awaited):
        return False
    away = away_numbers(phase, seats, pressed=pressed, now=now)
    return all(n in away for n in missing)


@dataclass(frozen=True)
class CheckinCount:
    """The "N of M checked in" line: ``checked_in`` of the ``active`` awaited players
    pressed check-in; ``away`` more are away (they count as checked in for the close)."""

    checked_in: int
    active: int
    away: int


def checkin_count(phase: Phase, *, seats=None, pressed: set[int] | None = None,
                  now: datetime | None = None, version: Any = None) -> CheckinCount:
    """Count the awaited players a person plays: the dead (not awaited), bots and removed
    seats never count; the away ones are set apart. ``seats`` (models or page rows) and
    ``pressed`` save the queries when the caller has them; ``version``
    (:func:`away_numbers`) lets the away periods be kept."""
    if seats is None:
        seats = list(Seat.objects.filter(match_id=phase.match_id, number__isnull=False))
    if pressed is None:
        pressed = pressed_numbers(phase)
    live = _live_awaited(phase, seats)
    away = away_numbers(phase, seats, pressed=pressed, now=now, version=version)
    return CheckinCount(checked_in=sum(1 for s in live if s.number in pressed),
                        active=len(live) - len(away), away=len(away))


def checkin_counts(phase: Phase, *, seats: list[Seat] | None = None) -> tuple[int, int]:
    """(checked in, active) for the phase (:func:`checkin_count` without the away)."""
    count = checkin_count(phase, seats=seats)
    return count.checked_in, count.active


def phase_history(match: Match) -> QuerySet[Phase]:
    """Closed phases, newest first."""
    return Phase.objects.filter(match=match, closed_at__isnull=False).order_by("-number")


def may_start(match: Match, user) -> bool:
    """Who may start a forming match by hand: its creator or the director."""
    return bool(user.is_authenticated and (user.is_staff or match.created_by_id == user.pk))


# --- "my games" and the "your move" count (issue #12) -------------------------------------

@dataclass(frozen=True)
class MyGame:
    """One live seat of the reader, as the "My games" page and the nav count see it."""

    seat_id: int
    seat_number: int
    match_id: int
    match_name: str
    game: str
    status: str
    phase_id: int | None
    phase_kind: str
    turn: int
    deadline_at: Any
    awaited: bool
    quarantined: bool
    checked_in: bool
    ordered: bool

    @property
    def your_move(self) -> bool:
        """The phase waits for this seat and it has not checked in (same rule as the
        lobby's marker and the early close)."""
        return (self.status == Match.Status.RUNNING and self.phase_id is not None
                and self.awaited and not self.quarantined and not self.checked_in)

    @property
    def acted(self) -> bool:
        return self.checked_in or self.ordered


def my_games(user: Any) -> list[MyGame]:
    """The reader's running and paused matches with their open phase, ordered by deadline
    (soonest first, none last), in ONE query: seats ⋈ matches ⟕ open phases, with
    "checked in" and "gave an order" as ``EXISTS`` columns."""
    if not getattr(user, "is_authenticated", False):
        return []
    seat, match, phase = (Seat._meta.db_table, Match._meta.db_table, Phase._meta.db_table)
    checkin, order = CheckIn._meta.db_table, Order._meta.db_table
    sql = f"""
        SELECT s.id, s.number, m.id, m.name, m.game, m.status,
               p.id, p.kind, p.turn, p.deadline_at, p.awaited, p.quarantined_at,
               EXISTS (SELECT 1 FROM {checkin} c WHERE c.phase_id = p.id AND c.seat_id = s.id),
               EXISTS (SELECT 1 FROM {order} o WHERE o.phase_id = p.id AND o.seat_id = s.id
                       AND o.is_default = %s)
        FROM {seat} s
        JOIN {match} m ON m.id = s.match_id
        LEFT JOIN {phase} p ON p.match_id = m.id AND p.closed_at IS NULL
        WHERE s.user_id = %s AND s.removed_at IS NULL AND s.number IS NOT NULL
              AND m.status IN (%s, %s)
        ORDER BY (p.deadline_at IS NULL), p.deadline_at, m.id, p.number DESC"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [False, user.pk, Match.Status.RUNNING, Match.Status.PAUSED])
        rows = cursor.fetchall()
    out: list[MyGame] = []
    seen: set[int] = set()
    for (seat_id, number, match_id, name, game, status, phase_id, kind, turn, deadline,
         awaited, quarantined, checked_in, ordered) in rows:
        if seat_id in seen:
            continue  # two open phases (never expected): the latest wins
        seen.add(seat_id)
        awaited, deadline = rawrows.json_value(awaited), rawrows.aware_datetime(deadline)
        out.append(MyGame(seat_id=seat_id, seat_number=number, match_id=match_id,
                          match_name=name, game=game, status=status, phase_id=phase_id,
                          phase_kind=kind or "", turn=turn or 0, deadline_at=deadline,
                          awaited=number in (awaited or []), quarantined=quarantined is not None,
                          checked_in=bool(checked_in), ordered=bool(ordered)))
    return out
