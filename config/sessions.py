"""The session engine: Django's ``cached_db`` (read from the cache, written through to the
database) that keeps working while the cache is down.

Django's own store guards the cache read and the save, but not the refill after a
database read, nor the delete on logout: with Redis stopped, every request of a logged-in
user would fail. Here each cache call that fails is logged and treated as a miss; the
database holds every session, so nobody is logged out by a cache outage.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.core.cache import caches

log = logging.getLogger("django.contrib.sessions")
_KEY = re.compile(r"[a-z0-9]{32}")


class _TolerantCache:
    """The cache calls the session store makes; a failure is a miss, never an error."""

    def __init__(self, cache: Any) -> None:
        self._cache = cache

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self._cache.get(key, default)
        except Exception:  # noqa: BLE001 - any cache failure
            log.warning("session cache unavailable (get)", exc_info=True)
            return default

    def set(self, key: str, value: Any, timeout: Any = None) -> None:
        try:
            self._cache.set(key, value, timeout)
        except Exception:  # noqa: BLE001
            log.warning("session cache unavailable (set)", exc_info=True)

    def delete(self, key: str) -> None:
        try:
            self._cache.delete(key)
        except Exception:  # noqa: BLE001
            log.warning("session cache unavailable (delete)", exc_info=True)

    def __contains__(self, key: str) -> bool:
        try:
            return key in self._cache
        except Exception:  # noqa: BLE001
            return False

    def __getattr__(self, name: str) -> Any:  # the async variants and anything else
        return getattr(self._cache, name)

    def __repr__(self) -> str:
        return repr(self._cache)


class SessionStore(CachedDBStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache: Any = _TolerantCache(caches[settings.SESSION_CACHE_ALIAS])

    def _validate_session_key(self, key: Any) -> bool:
        """Only keys this store could have made (32 lowercase letters and digits): a junk
        cookie (a NUL byte, 4 KB of text) is no session, never a database error."""
        return isinstance(key, str) and len(key) == 32 and _KEY.fullmatch(key) is not None
