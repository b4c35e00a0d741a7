"""The htmx poll's "nothing changed" (204), answered right after the session is read, before
the rest of the middleware, the user and the view: one query, no user object, no template.

A poll view opts in with ``@fast_poll(game=...)`` (the generic match poll, the Three
Kingdoms Kill table and the Dice Slayer board; the nav's unread badge with its own
``check``); ``games.middleware.FastPollMiddleware`` answers it when :func:`answers_204`
holds and hands everything else to the normal stack.
The view itself still decides with the full checks, so the shortcut only ever answers what
the full way would have answered 204 too:

- the session's user is active, not staff (staff go the full way: the second factor, and
  matches they see without a seat), and the session's password hash still matches (a
  changed password ends the session on the full way);
- the match exists, is of the URL's game, and is public or the user sits in it (a stranger
  never learns whether a private match changed, or exists);
- every number the page sent still holds: the public version ``v``, the seat's own version
  ``s``, the open phase's check-in rows ``c`` (see ``games.lib.pages.poll_unchanged``).

A logged-out visitor's poll (``a=1``, the spectator page) is answered for a public match
only; a poll without a session user and without ``a=1`` (an expired session) goes the full
way, which answers htmx with ``HX-Redirect`` to the login page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.signals import setting_changed
from django.db import DatabaseError, connection
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

from games.forms import parse_int
from games.lib.pages import private_checkin
from games.models import CheckIn, Match, Phase, Seat

LIVE_STATUSES = (Match.Status.RUNNING, Match.Status.PAUSED)


@dataclass(frozen=True)
class FastPoll:
    """What the shortcut needs to know of a poll URL."""

    game: str | None = None  # the URL's game; None: any game (the generic match poll)
    visitors: bool = False  # a logged-out visitor (``a=1``) may poll a public match
    unless: tuple[str, ...] = ()  # query parameters that make the URL more than a poll
    #: a poll of something else than a match (the nav's unread count): (request, URL
    #: arguments) -> True when the view would answer 204; it vouches for the account
    #: with :func:`session_account`
    check: Callable[[HttpRequest, dict[str, Any]], bool] | None = None


def fast_poll(*, game: str | None = None, visitors: bool = False,
              unless: tuple[str, ...] = (),
              check: Callable[[HttpRequest, dict[str, Any]], bool] | None = None,
              ) -> Callable[[Any], Any]:
    """Mark a poll view (the outermost decorator) for ``FastPollMiddleware``."""
    def mark(view: Any) -> Any:
        view.fast_poll = FastPoll(game=game, visitors=visitors, unless=unless, check=check)
        return view
    return mark


def answers_204(request: HttpRequest, spec: FastPoll, kwargs: dict[str, Any]) -> bool:
    """The shortcut's decision for a URL marked with ``spec`` (False: the full way)."""
    if spec.check is not None:
        return bool(spec.check(request, kwargs))
    match_id = kwargs.get("match_id")
    return isinstance(match_id, int) and unchanged(request, match_id, spec)


_SQL: str | None = None


def _sql() -> str:
    """One row: the match's public numbers, the reader's seat version, the open phase's
    kind and check-in rows, and the reader's account flags (built once, from the models'
    table names)."""
    global _SQL
    if _SQL is None:
        model = get_user_model()
        user, user_pk = model._meta.db_table, model._meta.pk.column
        match, seat, phase, checkin = (Match._meta.db_table, Seat._meta.db_table,
                                       Phase._meta.db_table, CheckIn._meta.db_table)
        open_phase = (f"SELECT p.id FROM {phase} p WHERE p.match_id = m.id "
                      f"AND p.closed_at IS NULL ORDER BY p.number DESC LIMIT 1")
        _SQL = f"""
            SELECT m.version, m.is_private, m.status, m.game,
                   (SELECT s.version FROM {seat} s WHERE s.match_id = m.id AND s.user_id = %s
                    AND s.removed_at IS NULL),
                   (SELECT p.kind FROM {phase} p WHERE p.match_id = m.id
                    AND p.closed_at IS NULL ORDER BY p.number DESC LIMIT 1),
                   (SELECT COUNT(*) FROM {checkin} c WHERE c.phase_id = ({open_phase})),
                   u.is_active, u.is_staff, u.password
            FROM {match} m LEFT JOIN {user} u ON u.{user_pk} = %s
            WHERE m.id = %s"""
    return _SQL


def _session_user(request: HttpRequest) -> tuple[int | None, str]:
    """(user id, password hash) the session names, or (None, "") when it names none that
    the full way would accept at face value."""
    session = getattr(request, "session", None)
    if session is None:
        return None, ""
    user_id = parse_int(str(session.get(SESSION_KEY, "")))
    if user_id is None or session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return None, ""
    return user_id, str(session.get(HASH_SESSION_KEY, ""))


@lru_cache(maxsize=8192)
def _auth_hash(user_id: int, password: str) -> str:
    """The session hash of an account with this password hash (the user model's own
    ``get_session_auth_hash``), kept per process: the same few thousand players poll all
    day, and building a user object for it cost a tenth of the poll's Django time. A new
    password is a new key; the memo is dropped when ``SECRET_KEY`` changes."""
    return get_user_model()(pk=user_id, password=password).get_session_auth_hash()


@receiver(setting_changed)
def _forget_auth_hashes(setting: str, **kwargs: Any) -> None:
    if setting in ("SECRET_KEY", "SECRET_KEY_FALLBACKS", "AUTH_USER_MODEL"):
        _auth_hash.cache_clear()


def _account_ok(user_id: int, session_hash: str, active: Any, staff: Any,
                password: Any) -> bool:
    """The account the session names may be answered without the full way: it exists,
    is active, is not staff, and its password is the one the session logged in with."""
    if not active or staff or password is None or not session_hash:
        return False
    return constant_time_compare(session_hash, _auth_hash(user_id, password))


def session_account(request: HttpRequest) -> int | None:
    """The session's user id if :func:`_account_ok` (one query), else None."""
    user_id, session_hash = _session_user(request)
    if user_id is None:
        return None
    model = get_user_model()
    sql = (f"SELECT u.is_active, u.is_staff, u.password FROM {model._meta.db_table} u "
           f"WHERE u.{model._meta.pk.column} = %s")
    found = _one_row(sql, [user_id])
    if found is None:
        return None
    (row,) = found
    return user_id if row is not None and _account_ok(user_id, session_hash, *row) else None


def _one_row(sql: str, params: list[Any]) -> tuple[Any] | None:
    """``(row,)`` of one query (``(None,)``: no row), or None when the database failed
    (the caller sends the request the full way).

    Without the per-request health check: with ``CONN_HEALTH_CHECKS`` Django sends a
    ``SELECT 1`` before a request's first query, a second round trip as costly as the
    poll's own query, on every poll. A connection that died since the last request fails
    this query instead; then the health check is put back, so the full way checks the
    connection, opens a new one and answers as any page would."""
    if connection.connection is not None and not connection.in_atomic_block:
        connection.health_check_done = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return (cursor.fetchone(),)
    except DatabaseError:
        connection.health_check_done = False
        return None


def unchanged(request: HttpRequest, match_id: int, spec: FastPoll) -> bool:
    """True when the full poll would answer 204 (see the module's docstring); False means
    "go the full way", never "changed"."""
    seen = parse_int(request.GET.get("v"))
    if seen is None or any(name in request.GET for name in spec.unless):
        return False
    user_id, session_hash = _session_user(request)
    if user_id is None and not (spec.visitors and request.GET.get("a") == "1"):
        return False
    found = _one_row(_sql(), [user_id, user_id, match_id])
    if found is None or found[0] is None:
        return False
    (row,) = found
    (version, is_private, status, game, seat_version, phase_kind, pressed,
     active, staff, password) = row
    if version != seen or (spec.game is not None and game != spec.game):
        return False
    if user_id is None:
        if is_private:
            return False
    elif not _account_ok(user_id, session_hash, active, staff, password):
        return False
    elif is_private and seat_version is None:
        return False  # not seated in a private match: the full way decides (404)
    seen_seat = parse_int(request.GET.get("s"))
    if seen_seat is not None and seen_seat != (seat_version or 0):
        return False
    seen_rows = parse_int(request.GET.get("c"))
    if seen_rows is not None:
        kind = phase_kind if status in LIVE_STATUSES else None
        rows = 0 if kind is None or private_checkin(kind) else (pressed or 0)
        if seen_rows != rows:
            return False
    return True
