"""The lobby's list of public matches: one narrow query, each row's HTML rendered once and
shared by every reader.

The row's HTML depends only on what it shows (the match's name, game, status, players,
limits), the reader's language, whether the reader is logged in and whether they sit in
that match; those are the key of the in-process HTML cache (``htmlcache.local``), so nothing needs invalidating: a new
match, a join, a start, any status change gives a row a new key and it is rendered anew on
the next request, while a lobby of 100 unchanged matches renders nothing. Nothing of the
reader beyond those two yes/no is in a row: their own seats come from their "My matches"
list, and the join/leave forms' CSRF token is put in per request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import registry
from games.lib import rawrows
from games.lib import htmlcache
from games.models import CheckIn, Match, Phase, Seat

LIMIT = 100
ROW_TEMPLATE = "games/fragments/lobby_row.html"


@dataclass(frozen=True)
class Row:
    """One public match as the lobby shows it (and nothing else: it is the memo's key)."""

    pk: int
    name: str
    game: str
    status: str
    min_players: int
    max_players: int
    players: int
    game_name: str

    @property
    def status_label(self) -> str:
        try:
            return str(Match.Status(self.status).label)
        except ValueError:
            return self.status

    @property
    def detail_url(self) -> str:
        return reverse("games:match-detail", args=[self.pk])


def game_name(slug: str) -> str:
    try:
        return str(registry.get_game(slug).name)
    except registry.UnknownGame:
        return slug


def public_rows(*, game: str | None, status: str, bots: str = "any") -> list[Row]:
    """The newest public matches for these filters, players counted, in one query that
    reads only the columns shown (never a match's ``state`` or ``config``). ``bots``:
    ``hide`` leaves out, ``only`` keeps only, tables where a bot account sits."""
    where, params = ["m.is_private = %s"], [False]
    if bots in ("hide", "only"):
        from accounts.models import Profile

        where.append(f"""{"NOT " if bots == "hide" else ""}EXISTS (
            SELECT 1 FROM {Seat._meta.db_table} bs JOIN {Profile._meta.db_table} bp
            ON bp.user_id = bs.user_id
            WHERE bs.match_id = m.id AND bs.removed_at IS NULL AND bp.is_bot)""")
    if status == "open":  # the default: what a visitor can join or watch now
        where.append("m.status IN (%s, %s)")
        params += [Match.Status.FORMING, Match.Status.RUNNING]
    elif status != "all":
        where.append("m.status = %s")
        params.append(status)
    if game:
        where.append("m.game = %s")
        params.append(game)
    sql = f"""
        SELECT m.id, m.name, m.game, m.status, m.min_players, m.max_players,
               (SELECT COUNT(*) FROM {Seat._meta.db_table} s
                WHERE s.match_id = m.id AND s.removed_at IS NULL)
        FROM {Match._meta.db_table} m
        WHERE {" AND ".join(where)}
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT {LIMIT}"""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [Row(*values, game_name=game_name(values[2])) for values in cursor.fetchall()]


@dataclass
class Mine:
    """One of the reader's own matches in the lobby's "My matches"."""

    match_id: int
    name: str
    game: str
    status: str
    deadline_at: Any
    your_move: bool
    checked_in: bool
    unread: int | None = None  # press messages not read yet (None: not counted here)

    status_label = Row.status_label

    @property
    def game_name(self) -> str:
        return game_name(self.game)

    @property
    def detail_url(self) -> str:
        return reverse("games:match-detail", args=[self.match_id])


def my_rows(user: Any) -> list[Mine]:
    """The reader's live seats, newest match first, with the open phase's deadline and
    whether it waits for them, in one query (seats ⋈ matches ⟕ open phases, the check-in
    as ``EXISTS``). "Your move": the same rule as the nav's count (``selectors.MyGame``)."""
    if not getattr(user, "is_authenticated", False):
        return []
    seat, match, phase, checkin = (Seat._meta.db_table, Match._meta.db_table,
                                   Phase._meta.db_table, CheckIn._meta.db_table)
    sql = f"""
        SELECT s.id, s.number, m.id, m.name, m.game, m.status,
               p.id, p.deadline_at, p.awaited, p.quarantined_at,
               EXISTS (SELECT 1 FROM {checkin} c WHERE c.phase_id = p.id AND c.seat_id = s.id)
        FROM {seat} s
        JOIN {match} m ON m.id = s.match_id
        LEFT JOIN {phase} p ON p.match_id = m.id AND p.closed_at IS NULL
        WHERE s.user_id = %s AND s.removed_at IS NULL
        ORDER BY m.created_at DESC, m.id DESC, p.number DESC"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk])
        rows = cursor.fetchall()
    out: list[Mine] = []
    seen: set[int] = set()
    for (seat_id, number, match_id, name, game, status, phase_id, deadline, awaited,
         quarantined, checked_in) in rows:
        if seat_id in seen:
            continue  # two open phases (never expected): the latest wins
        seen.add(seat_id)
        awaited, deadline = rawrows.json_value(awaited), rawrows.aware_datetime(deadline)
        waits = bool(phase_id is not None and number is not None and number in (awaited or []))
        out.append(Mine(match_id=match_id, name=name, game=game, status=status,
                        deadline_at=deadline if phase_id is not None else None,
                        your_move=(status == Match.Status.RUNNING and waits
                                   and quarantined is None and not checked_in),
                        checked_in=bool(checked_in)))
    return out




def filter_fields(*, game: str | None, status: str) -> tuple[SafeString, SafeString]:
    """The lobby filter's two ``<select>``, showing these (cleaned) choices, rendered once
    per language, games installed and choice."""
    key = ("filters", get_language(), tuple(registry.choices()), game or "", status)
    found = htmlcache.local.get(key)
    if found is None:
        from games.forms import LobbyFilterForm

        form = LobbyFilterForm(initial={"game": game or "", "status": status})
        found = (str(form["game"]), str(form["status"]))  # Django's widgets: escaped
        htmlcache.local.put(key, found)
    return found


def rows_html(request: Any, rows: list[Row], *, joined: set[int]) -> SafeString:
    """The ``<li>`` of every row as this reader sees it (``joined``: the match ids they
    sit in), rendered only for rows not seen before in this language."""
    authenticated = bool(getattr(getattr(request, "user", None), "is_authenticated", False))
    language = get_language()
    template = None
    parts = []
    for row in rows:
        mine = row.pk in joined
        key = (language, authenticated, mine, row)
        html = htmlcache.local.get(key)
        if html is None:
            template = template or get_template(ROW_TEMPLATE)
            html = template.render({"m": row, "joined": mine, "authenticated": authenticated,
                                    "csrf_token": htmlcache.csrf_placeholder()})
            htmlcache.local.put(key, html)
        parts.append(html)
    out = "".join(parts)
    if htmlcache.csrf_placeholder() in out:  # the join/leave forms: this reader's own token
        out = htmlcache.fill_csrf(out, get_token(request))
    return mark_safe(out)  # noqa: S308 - rendered by the autoescaping template above
