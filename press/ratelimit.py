"""A small fixed-window rate limiter on the cache (Redis in production): how many
messages one seat may post per window. Counters live in the cache, never the database,
so posting stays cheap; a lost cache only forgets counts."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache

DEFAULT_LIMIT = (10, 60)  # messages, seconds


def limits() -> tuple[int, int]:
    count, window = getattr(settings, "PRESS_RATE_LIMIT", DEFAULT_LIMIT)
    return int(count), int(window)


def hit(key: str, *, now: float | None = None) -> int | None:
    """Count one post for ``key``; None if allowed, else the seconds until the window ends
    (the Retry-After)."""
    count, window = limits()
    now = time.time() if now is None else now
    bucket = int(now // window)
    name = f"press:rl:{key}:{bucket}"
    cache.add(name, 0, timeout=window + 5)
    try:
        used = cache.incr(name)
    except ValueError:  # evicted between add and incr
        cache.set(name, 1, timeout=window + 5)
        used = 1
    if used > count:
        return max(1, int((bucket + 1) * window - now + 0.999))
    return None
