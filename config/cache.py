"""The Redis cache backend: one Redis client per connection pool, and an outage is a miss.

**One client per pool.** Django's ``RedisCache`` builds a new ``redis.Redis`` for every
cache call, and building one fills its table of ~170 response callbacks: about 0.2 ms of
CPU per call, several calls per page (the session, the display preferences, presence,
unread counts). The client is thread-safe and holds no connection of its own (the pool
does), so one per pool is enough.

**Redis is optional for correctness** (docs/operations.md "Outages"). Everything this site
keeps in the cache is an accelerator or a short-lived fact: rendered fragments, diary
sentences, display preferences, presence, unread counters, sessions (written through to
the database). So a cache call that cannot reach Redis is a miss, never an error: ``get``
answers the default, ``set``/``add``/``delete`` do nothing, ``incr`` raises ``ValueError``
("no such counter", what callers already handle). After a failure the backend does not
try Redis again for ``CACHE_RETRY_SECONDS`` (each page would otherwise wait for a refused
or timed-out connection several times); :func:`cache_down` says whether we are in such a
pause, so the throttles can fail closed instead of counting nothing
(``accounts.throttle``).

A key written or deleted while Redis was unreachable may hold an older value when Redis
comes back (a session logged out meanwhile, a counter): such keys are remembered (up to
``_PENDING_MAX`` per process) and deleted at the first call that reaches Redis again.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from django.utils.functional import cached_property

log = logging.getLogger(__name__)

#: the keys whose write failed during an outage, deleted once Redis answers again
_PENDING_MAX = 10_000
_lock = threading.Lock()
_down_until = 0.0
_pending: set[str] = set()


def cache_down() -> bool:
    """Whether the cache failed within the last ``CACHE_RETRY_SECONDS`` (this process)."""
    return time.monotonic() < _down_until


def _retry_seconds() -> float:
    return float(getattr(settings, "CACHE_RETRY_SECONDS", 5))


def _outage_errors() -> tuple[type[BaseException], ...]:
    import redis

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


def _mark_down(exc: BaseException, op: str) -> None:
    global _down_until
    with _lock:
        first = not cache_down()
        _down_until = time.monotonic() + _retry_seconds()
    if first:
        log.warning("cache unreachable (%s: %r): treated as empty for %g s", op, exc,
                    _retry_seconds())


def _remember(keys: Any) -> None:
    with _lock:
        if len(_pending) < _PENDING_MAX:
            _pending.update(keys)


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(self._servers[index],
                                                               **self._pool_options)
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client



class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self) -> RedisCacheClient:
        return RedisCacheClient(self._servers, **self._options)

    def _call(self, op: str, keys: list[str], fallback: Any, fn: Any, *args: Any) -> Any:
        """Run ``fn`` against Redis; on an outage remember ``keys`` (for writes) and
        answer ``fallback`` (an exception class is raised instead)."""
        if cache_down():
            if op in _WRITES:
                _remember(keys)
            if isinstance(fallback, type) and issubclass(fallback, Exception):
                raise fallback("cache unavailable")
            return fallback
        try:
            if _pending:
                self._flush_pending()
            return fn(*args)
        except _outage_errors() as exc:
            _mark_down(exc, op)
            if op in _WRITES:
                _remember(keys)
            if isinstance(fallback, type) and issubclass(fallback, Exception):
                raise fallback("cache unavailable") from exc
            return fallback

    def _flush_pending(self) -> None:
        with _lock:
            keys = list(_pending)
            _pending.clear()
        if keys:
            try:
                self._cache.delete_many(keys)
            except _outage_errors():
                _remember(keys)
                raise
            log.warning("cache back: dropped %d key(s) written during the outage", len(keys))

    # --- every operation the site uses ----------------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):  # type: ignore[no-untyped-def]
        k = self.make_and_validate_key(key, version=version)
        return self._call("add", [k], False, self._cache.add, k, value,
                          self.get_backend_timeout(timeout))

    def get(self, key, default=None, version=None):  # type: ignore[no-untyped-def]
        k = self.make_and_validate_key(key, version=version)
        return self._call("get", [], default, self._cache.get, k, default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):  # type: ignore[no-untyped-def]
        k = self.make_and_validate_key(key, version=version)
        self._call("set", [k], None, self._cache.set, k, value,
                   self.get_backend_timeout(timeout))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):  # type: ignore[no-untyped-def]
        k = self.make_and_validate_key(key, version=version)
        return self._call("touch", [], False, self._cache.touch, k,
                          self.get_backend_timeout(timeout))

    def delete(self, key, version=None):  # type: ignore[no-untyped-def]
        k = self.make_and_validate_key(key, version=version)
        return self._call("delete", [k], False, self._cache.delete, k)

    def get_many(self, keys, version=None):  # type: ignore[no-untyped-def]
        key_map = {self.make_and_validate_key(key, version=version): key for key in keys}
        found = self._call("get_many", [], {}, self._cache.get_many, key_map.keys())
        return {key_map[k]: v for k, v in found.items()}

    def has_key(self, key, version=None):  # type: ignore[no-untyped-def]
        k = self.make_and_validate_key(key, version=version)
        return self._call("has_key", [], False, self._cache.has_key, k)

    def incr(self, key, delta=1, version=None):  # type: ignore[no-untyped-def]
        k = self.make_and_validate_key(key, version=version)
        return self._call("incr", [k], ValueError, self._cache.incr, k, delta)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):  # type: ignore[no-untyped-def]
        if not data:
            return []
        safe = {self.make_and_validate_key(key, version=version): value
                for key, value in data.items()}
        self._call("set_many", list(safe), None, self._cache.set_many, safe,
                   self.get_backend_timeout(timeout))
        return []

    def delete_many(self, keys, version=None):  # type: ignore[no-untyped-def]
        if not keys:
            return
        safe = [self.make_and_validate_key(key, version=version) for key in keys]
        self._call("delete_many", safe, None, self._cache.delete_many, safe)

    def clear(self):  # type: ignore[no-untyped-def]
        return self._call("clear", [], False, self._cache.clear)


_WRITES = {"add", "set", "delete", "incr", "set_many", "delete_many"}


def reset_outage_state() -> None:
    """Tests: forget a pause and the remembered keys."""
    global _down_until
    with _lock:
        _down_until = 0.0
        _pending.clear()
