"""Press reads (docs/style.md §11): a reader's messages (newest page, or after / before an id),
the rows pages and the API show, and unread counts per match for the nav and the lobby.

Every read goes through ``access.readable_q``. Unread counts are counters in the cache
(see below), so the nav and the lobby cost no query.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable, TypeVar

from django.core.cache import cache
from django.db.models import Q, Subquery

from accounts.names import shown_name
from games.models import Match, Seat
from games.selectors import seat_names_cached
from press import access
from press.models import Message, Mute
from press.text import render_text

PAGE_SIZE = 30
C = Message.Channel
HIDDEN_TEXT = "[hidden by the director]"


def muted_seats(reader: access.Reader) -> set[int]:
    """The seats this player muted in this match."""
    if not reader.is_player:
        return set()
    return set(Mute.objects.filter(seat=reader.seat).values_list("muted_seat", flat=True))


def readable(reader: access.Reader):
    """The reader's messages as a queryset (muted seats left out; announcements stay)."""
    return _readable_qs(access.readable_kind(reader), match_id=reader.match.pk,
                        number=reader.number,
                        seat_id=reader.seat.pk if reader.is_player else None)


def _readable_qs(kind: str | None, *, match_id: int, number: int | None,
                 seat_id: int | None):
    """:func:`readable` from the reader's kind and numbers (``seat_id``: a player's seat,
    whose muted seats are left out; None for everyone else)."""
    q = access.kind_q(kind, number)
    if q is None:
        return Message.objects.none()
    qs = Message.objects.filter(q, match_id=match_id)
    if seat_id is not None:  # a subquery: no extra round trip on every page
        muted = Mute.objects.filter(seat_id=seat_id).values("muted_seat")
        qs = qs.exclude(Q(from_seat__in=Subquery(muted)) & ~Q(channel=C.ANNOUNCE))
    return qs


def _page_qs(kind: str | None, *, match_id: int, number: int | None, seat_id: int | None,
             after_id: int, before_id: int | None, limit: int):
    qs = _readable_qs(kind, match_id=match_id, number=number, seat_id=seat_id).filter(
        id__gt=after_id)
    if before_id is not None:
        qs = qs.filter(id__lt=before_id)
    return qs.order_by("-id")[:limit + 1]


# --- the messages page's SQL, compiled once per reader type ---------------------------
#
# Every press panel rendered anew runs the same query with other numbers; building and
# compiling it through the ORM cost more CPU than running it. So it is compiled once per
# *reader type* — the kind of messages the reader may read (``access.readable_kind``, the
# one decision of who reads what), whether muted seats are left out (a player), whether
# the page ends before an id, the page size — with marker numbers, and the markers are
# replaced by the reader's own. Before a compiled query is used, it is checked against
# the ORM: filled with other numbers it must give exactly the ORM's SQL and parameters
# for them, else that type always goes through the ORM.

_MARKS = {"match": 987650001, "number": 987650002, "seat": 987650003, "after": 987650004,
          "before": 987650005}
_CHECK = {"match": 123456701, "number": 123456702, "seat": 123456703, "after": 123456704,
          "before": 123456705}
_page_sql: dict[tuple[Any, ...], tuple[str, list[Any]] | None] = {}


def _fill(template: list[Any], values: dict[str, Any]) -> list[Any]:
    """The parameters with each marker replaced by its value (a marker inside a string:
    the seat number of the audience pattern)."""
    out = []
    for kind, value in template:
        if kind == "mark":
            out.append(values[value])
        elif kind == "text":
            out.append(value.replace(str(_MARKS["number"]), str(values["number"])))
        else:
            out.append(value)
    return out


def _page_args(values: dict[str, Any], key: tuple[Any, ...]) -> dict[str, Any]:
    kind, player, paged, limit = key
    return {"match_id": values["match"], "number": values["number"],
            "seat_id": values["seat"] if player else None, "after_id": values["after"],
            "before_id": values["before"] if paged else None, "limit": limit}


def _compiled_page(key: tuple[Any, ...]) -> tuple[str, list[Any]] | None:
    """(SQL, parameter template) of a reader type, or None: run it through the ORM."""
    if key not in _page_sql:
        kind = key[0]
        sql, params = _page_qs(kind, **_page_args(_MARKS, key)).query.sql_with_params()
        by_value = {v: k for k, v in _MARKS.items()}
        template: list[Any] = []
        for p in params:
            if type(p) is int and p in by_value:
                template.append(("mark", by_value[p]))
            elif isinstance(p, str) and str(_MARKS["number"]) in p:
                template.append(("text", p))
            else:
                template.append(("const", p))
        check = _page_qs(kind, **_page_args(_CHECK, key)).query.sql_with_params()
        same = check[0] == sql and list(check[1]) == _fill(template, _CHECK)
        _page_sql[key] = (sql, template) if same else None
    return _page_sql[key]


def messages_page(reader: access.Reader, *, after_id: int = 0, before_id: int | None = None,
                  limit: int = PAGE_SIZE) -> tuple[list[Message], bool]:
    """(messages oldest first, whether older ones exist): the newest ``limit`` after
    ``after_id`` and before ``before_id``. The SQL is compiled once per reader type
    (above)."""
    kind = access.readable_kind(reader)
    if access.kind_q(kind, reader.number) is None:
        return [], False
    key = (kind, reader.is_player, before_id is not None, limit)
    values = {"match": reader.match.pk, "number": reader.number,
              "seat": reader.seat.pk if reader.is_player else None, "after": after_id,
              "before": before_id}
    compiled = _compiled_page(key)
    if compiled is None:
        rows = list(_page_qs(kind, **_page_args(values, key)))
    else:
        rows = list(Message.objects.raw(compiled[0], _fill(compiled[1], values)))
    more = len(rows) > limit
    return list(reversed(rows[:limit])), more


def last_id(reader: access.Reader) -> int:
    row = readable(reader).order_by("-id").values_list("id", flat=True).first()
    return int(row or 0)


@dataclass(frozen=True)
class Row:
    """One message as a reader sees it."""

    id: int
    channel: str
    from_seat: int | None
    from_name: str
    to: Any
    text: str
    html: Any
    hidden: bool
    phase_id: int | None
    turn: int
    phase_kind: str
    created_at: Any
    mine: bool
    to_names: tuple[str, ...] = ()  # a private message's members, by name

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "channel": self.channel, "from_seat": self.from_seat,
                "from_name": self.from_name, "to": self.to, "text": self.text,
                "hidden": self.hidden, "phase_id": self.phase_id, "turn": self.turn,
                "phase_kind": self.phase_kind, "created_at": self.created_at.isoformat(),
                "to_names": list(self.to_names)}


def to_of(message: Message) -> Any:
    if message.channel in (C.PUBLIC, C.ANNOUNCE):
        return "all"
    if message.channel == C.TEAM:
        return "team"
    return message.members


def rows_for(reader: access.Reader, messages: Iterable[Message]) -> list[Row]:
    """What the reader sees of each message (a hidden one only as a marker, except for
    the director)."""
    out = []
    names: dict[int, str] | None = None  # read once, and only for a private message
    for m in messages:
        to_names: tuple[str, ...] = ()
        if m.channel not in (C.PUBLIC, C.ANNOUNCE, C.TEAM):
            known = getattr(m, "member_names", None)  # set by the post that made it
            if known is None and names is None:
                names = seat_names_cached(reader.match)
            found = known if known is not None else names or {}
            to_names = tuple(found.get(n, str(n)) for n in m.members)
        hide = m.is_hidden and not reader.director
        text = "" if hide else m.text
        out.append(Row(id=m.pk, channel=m.channel, from_seat=m.from_seat,
                       from_name=shown_name(m.author_name), to=to_of(m), text=text,
                       html=HIDDEN_TEXT if hide else render_text(m.text), hidden=m.is_hidden,
                       phase_id=m.phase_id, turn=m.turn, phase_kind=m.phase_kind,
                       created_at=m.created_at,
                       mine=bool(m.author_id and m.author_id == getattr(reader.user, "pk", None)),
                       to_names=to_names))
    return out


# --- unread counts -------------------------------------------------------------------
#
# Counters in the cache, never computed from the database on a page: posting adds one for
# each reader of the new message (members, not the author, not those who muted the
# author, not a dead member kept to the public board); reading a match's page sets its
# counter back to zero. The nav reads one key and the lobby one key per listed match, so
# they cost no query. A lost cache forgets counts (they restart at zero), never content.

log = logging.getLogger(__name__)
T = TypeVar("T")


def _cache_safe(default: Any) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A cache outage (Redis down) costs the unread counts, never the page: the call
    answers ``default`` and logs."""
    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def safe(*args: Any, **kwargs: Any) -> T:
            try:
                return fn(*args, **kwargs)
            except Exception:  # noqa: BLE001 - redis.ConnectionError and kin
                log.warning("press unread counts: cache unavailable in %s", fn.__name__)
                return default() if callable(default) else default
        return safe
    return wrap


def _total_key(user_id: int) -> str:
    return f"press:unread:{user_id}"


def _match_key(user_id: int, match_id: int) -> str:
    return f"press:unread:{user_id}:{match_id}"


@_cache_safe(0)
def unread_total(user: Any) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return unread_total_of(user.pk)


@_cache_safe(0)
def unread_total_of(user_id: int) -> int:
    """:func:`unread_total` by user id (the nav poll's shortcut loads no user)."""
    return max(0, int(cache.get(_total_key(user_id)) or 0))


@_cache_safe(dict)
def unread_counts(user: Any, match_ids: Iterable[int]) -> dict[int, int]:
    """{match id: unread messages} for the given matches of ``user`` (0s left out)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    ids = list(match_ids)
    got = cache.get_many([_match_key(user.pk, m) for m in ids])
    out = {}
    for m in ids:
        n = int(got.get(_match_key(user.pk, m)) or 0)
        if n > 0:
            out[m] = n
    return out


@_cache_safe(None)
def _incr(key: str) -> None:
    cache.add(key, 0, timeout=None)
    try:
        cache.incr(key)
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, timeout=None)


def unread_add(message: Message, *, seats: list[Seat],
               dead_seats: Iterable[int] = ()) -> list[int]:
    """Count ``message`` as unread for each of its readers among the match's live
    ``seats`` (annotated ``muted_writer``: that seat muted the writer); returns their user
    ids."""
    dead = set(dead_seats)
    members = None if message.channel in (C.PUBLIC, C.ANNOUNCE) else set(message.members)
    user_ids = [s.user_id for s in seats
                if s.user_id is not None and s.user_id != message.author_id
                and s.number is not None and s.number != message.from_seat
                and not (message.from_seat is not None and getattr(s, "muted_writer", False))
                and (members is None or (s.number in members and s.number not in dead))]
    for user_id in user_ids:
        _incr(_match_key(user_id, message.match_id))
        _incr(_total_key(user_id))
    return user_ids


@_cache_safe(0)
def unread_clear(*, user: Any, match_id: int) -> int:
    """The reader has seen this match's messages: its counter back to zero."""
    key = _match_key(user.pk, match_id)
    n = int(cache.get(key) or 0)
    if n > 0:
        cache.set(key, 0, timeout=None)
        try:
            left = cache.decr(_total_key(user.pk), n)
        except ValueError:
            left = 0
        if left < 0:
            cache.set(_total_key(user.pk), 0, timeout=None)
    return n
