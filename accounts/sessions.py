"""The player's sessions: listed on ``/accounts/sessions/``, ended one by one or all at once.

Sessions are ``cached_db`` (``config.sessions``): read from the cache, written through to
the database. Ending one deletes it **from the cache first**, then from the database. If
the cache cannot be reached, the database copy still goes and the end is recorded with
``cache_cleared=False``; every process refuses a key so recorded (:func:`is_ended`,
refreshed from the database at most every ``SESSION_END_CHECK_SECONDS``) until the sweep
(:func:`sessions_clear_ended`) has deleted the cached copy. So an ended session never
comes back with the cache: it fails closed. docs/security.md "Sessions".
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import transaction
from django.utils.timezone import now as timezone_now

from accounts.models import UserSession

_lock = threading.Lock()
_ended: set[str] = set()  # this process's view of the keys whose cached copy may remain
_checked_at: float | None = None
KEY_PREFIX = "django.contrib.sessions.cached_db"


def _cache_key(session_key: str) -> str:
    return KEY_PREFIX + session_key


def record_login(request: Any, user: Any) -> None:
    """A row for the session a login made (``user_logged_in``)."""
    from config.proxies import client_ip

    session = getattr(request, "session", None)
    if session is None:
        return
    if not session.session_key:
        session.save()
    UserSession.objects.update_or_create(
        session_key=session.session_key,
        defaults={"user": user, "created_at": timezone_now(), "ended_at": None,
                  "cache_cleared": True, "ip": client_ip(request)[:64],
                  "user_agent": request.META.get("HTTP_USER_AGENT", "")[:200]})


def record_new_key(old: str | None, new: str | None) -> None:
    """Django cycled a session's key (a password change keeps the session): follow it."""
    if old and new and old != new:
        UserSession.objects.filter(session_key=old).update(session_key=new)


def live_sessions(user: Any) -> list[UserSession]:
    """The user's sessions that still exist and have not expired, newest first."""
    rows = list(UserSession.objects.filter(user=user, ended_at__isnull=True))
    alive = set(Session.objects.filter(session_key__in=[r.session_key for r in rows],
                                       expire_date__gt=timezone_now())
                .values_list("session_key", flat=True))
    return [r for r in rows if r.session_key in alive]


def _delete_cached(session_key: str) -> bool:
    """Delete the cached copy; False when the cache cannot be reached."""
    from config.cache import cache_down

    try:
        caches[settings.SESSION_CACHE_ALIAS].delete(_cache_key(session_key))
    except Exception:  # noqa: BLE001 - any cache failure: the caller fails closed
        return False
    # the Redis backend answers an outage as a miss (config/cache.py): ask it
    return not cache_down()


def session_end(session_key: str) -> bool:
    """End one session everywhere: the cached copy first, then the database row. Returns
    whether the cached copy is gone now (False: refused until the sweep deletes it)."""
    cleared = _delete_cached(session_key)
    with transaction.atomic():
        UserSession.objects.filter(session_key=session_key).update(
            ended_at=timezone_now(), cache_cleared=cleared)
        Session.objects.filter(session_key=session_key).delete()
    if not cleared:
        with _lock:
            _ended.add(session_key)
    return cleared


def sessions_end_all(user: Any, *, except_key: str | None = None) -> int:
    """End every session of ``user`` (but ``except_key``); how many were ended."""
    keys = [k for k in UserSession.objects.filter(user=user, ended_at__isnull=True)
            .values_list("session_key", flat=True) if k != except_key]
    for key in keys:
        session_end(key)
    return len(keys)


def record_logout(session_key: str | None) -> None:
    """A logout ended this session (Django deletes it, the cache first)."""
    if session_key:
        UserSession.objects.filter(session_key=session_key, ended_at__isnull=True).update(
            ended_at=timezone_now())


def is_ended(session_key: str) -> bool:
    """Was this key ended while its cached copy could not be deleted? Refreshed from the
    database at most every ``SESSION_END_CHECK_SECONDS`` per process (None: only the
    ends this process made itself)."""
    global _checked_at
    interval = getattr(settings, "SESSION_END_CHECK_SECONDS", 5)
    if interval is not None:
        now = time.monotonic()
        if _checked_at is None or now - _checked_at >= interval:
            try:
                keys = set(UserSession.objects.filter(cache_cleared=False)
                           .values_list("session_key", flat=True))
            except Exception:  # noqa: BLE001 - the database answers for itself
                keys = None
            if keys is not None:
                with _lock:
                    _ended.clear()
                    _ended.update(keys)
                _checked_at = now
    return session_key in _ended


def sessions_clear_ended() -> int:
    """The sweep: delete the cached copies that could not be deleted at the end; how many
    were cleared now."""
    cleared = 0
    for row in UserSession.objects.filter(cache_cleared=False):
        if _delete_cached(row.session_key):
            UserSession.objects.filter(pk=row.pk).update(cache_cleared=True)
            with _lock:
                _ended.discard(row.session_key)
            cleared += 1
    return cleared


def forget() -> None:
    """Tests: this process's record of ended keys (the database is the truth)."""
    global _checked_at
    with _lock:
        _ended.clear()
    _checked_at = None
