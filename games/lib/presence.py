"""Who is looking at a match page right now ("on the page"), kept in the cache only.

Every GET of a match page or of its poll (any URL with a ``match_id``, see
``games.middleware.PresenceMiddleware``) stamps ``(match, user)`` for
``EMAIL_ON_PAGE_SECONDS``. The notification policy sends no "your move" email to a player
who is on the page. The cache (Redis in deployment, shared by web and workers) is the
right home: the fact is short-lived, and writing it costs no database query per poll.

A process writes the same stamp at most every ``EMAIL_ON_PAGE_SECONDS // 8`` seconds
(15 s by default): a reader polling every 5 s costs one cache write in three polls, and
the window a player counts as "on the page" after their last look shrinks by that much
at worst (120 s → at least 105 s).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterable

from django.conf import settings
from django.core.cache import cache


def _key(match_id: int, user_id: int) -> str:
    return f"onpage:{match_id}:{user_id}"


#: (match id, user id) -> the stamp this process last wrote
_written: dict[tuple[int, int], float] = {}
_WRITTEN_MAX = 10_000


def mark_seen(*, match_id: int, user_id: int, now: datetime) -> None:
    stamp = now.timestamp()
    last = _written.get((match_id, user_id))
    if last is not None and 0 <= stamp - last < settings.EMAIL_ON_PAGE_SECONDS // 8:
        return  # written a moment ago by this process: still fresh in the cache
    cache.set(_key(match_id, user_id), stamp, timeout=settings.EMAIL_ON_PAGE_SECONDS)
    if len(_written) >= _WRITTEN_MAX:
        _written.clear()
    _written[(match_id, user_id)] = stamp


def forget_written() -> None:
    """Tests: the cache was cleared, so this process's record of its writes is wrong."""
    _written.clear()


def seen_at(pairs: Iterable[tuple[int, int]], *, now: datetime
            ) -> dict[tuple[int, int], datetime]:
    """``(match_id, user_id) -> last seen`` for those seen within the window before ``now``."""
    pairs = list(pairs)
    if not pairs:
        return {}
    found = cache.get_many([_key(m, u) for m, u in pairs])
    out = {}
    for m, u in pairs:
        stamp = found.get(_key(m, u))
        if stamp is not None and 0 <= now.timestamp() - stamp <= settings.EMAIL_ON_PAGE_SECONDS:
            out[(m, u)] = datetime.fromtimestamp(stamp, tz=timezone.utc)
    return out
