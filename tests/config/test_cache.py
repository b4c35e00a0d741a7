"""The Redis cache backend (config/cache.py): one client per pool, Django's behaviour
otherwise, and a dead Redis is a miss (tests/config/test_cache_outage.py)."""

from __future__ import annotations

import os
import uuid

import pytest
import redis

from config.cache import RedisCache

REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/12")


def _cache(location: str) -> RedisCache:
    return RedisCache(location, {"KEY_PREFIX": f"test-cache-{os.getpid()}-{uuid.uuid4().hex[:6]}"})


def test_the_client_is_built_once_per_pool():
    cache = _cache("redis://127.0.0.1:1/0")
    first = cache._cache.get_client()
    assert cache._cache.get_client(write=True) is first
    assert cache._cache.get_client("some-key") is first


def test_a_dead_redis_is_a_miss_and_builds_no_new_client(settings):
    settings.CACHE_RETRY_SECONDS = 0  # try Redis again on every call
    cache = _cache("redis://127.0.0.1:1/0")  # nothing listens on port 1
    for _ in range(2):
        assert cache.get("k", "miss") == "miss"  # config/cache.py: an outage is a miss
    assert len(cache._cache._clients) == 1


def test_reads_and_writes_on_a_real_redis():
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    cache = _cache(REDIS)
    try:
        cache.set("a", {"x": 1}, 30)
        cache.set("n", 5, 30)
        assert cache.get("a") == {"x": 1} and cache.incr("n") == 6
        assert cache.get_many(["a", "n", "missing"]) == {"a": {"x": 1}, "n": 6}
        assert cache.add("a", 2) is False and cache.delete("a") is True
    finally:
        cache.delete_many(["a", "n"])
