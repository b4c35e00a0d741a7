"""Who is looking at a match page right now ("on the page"), kept in the cache only.

Every GET of a match page or of its poll (any URL with a ``match_id``, see
``games.middleware.PresenceMiddleware``) stamps ``(match, user)`` for
``EMAIL_ON_PAGE_SECONDS``. The notification policy sends no "your move" email to a player
who is on the page. The cache (Redis in deployment, shared by web and workers) is the
right home: the fact is short-lived, and writing it costs no database query per poll.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterable

from django.conf import settings
from django.core.cache import cache


def _key(match_id: int, user_id: int) -> str:
    return f"onpage:{match_id}:{user_id}"


def mark_seen(*, match_id: int, user_id: int, now: datetime) -> None:
    cache.set(_key(match_id, user_id), now.timestamp(), timeout=settings.EMAIL_ON_PAGE_SECONDS)


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
