"""The session engine: Django's ``cached_db`` (read from the cache, written through to the
database) that keeps working while the cache is down.

Django's own store guards the cache read and the save, but not the refill after a
database read, nor the delete on logout: with Redis stopped, every request of a logged-in
user would fail. Here each cache call that fails is logged and treated as a miss; the
database holds every session, so nobody is logged out by a cache outage.

Ending a session (logout, the sessions page) deletes the cached copy *first* and fails
closed when it cannot (``accounts.sessions``): Django's own order (the database, then the
cache, the cache's failure ignored) left a deleted session valid while Redis kept it.
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

    def load(self) -> dict[str, Any]:
        """A key ended while the cache was down is no session, even if the cache still
        holds it (``accounts.sessions``: fail closed)."""
        from accounts.sessions import is_ended

        if self.session_key and is_ended(self.session_key):
            self._session_key = None
            return {}
        return super().load()

    def cycle_key(self) -> None:
        """A new key for the same session (login, password change): the sessions page's
        row follows it, then the old key is ended (cache first)."""
        from accounts.sessions import record_new_key, session_end

        data = self._session
        old = self.session_key
        self.create()
        self._session_cache = data
        if old:
            record_new_key(old, self.session_key)
            session_end(old)

    def delete(self, session_key: str | None = None) -> None:
        """Log out or end: the cached copy first, then the database row; if the cache
        cannot be reached the end is recorded, so no process accepts the key from the
        cache again (``accounts.sessions.session_end``)."""
        from accounts.sessions import session_end

        key = session_key if session_key is not None else self.session_key
        if key is not None:
            session_end(key)
