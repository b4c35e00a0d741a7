"""One scheduler: Celery beat guarded by a lock in Redis (docs/operations.md "Beat").

Any number of beats may run; only the one holding ``<REDIS_KEY_PREFIX>:beat:lock`` sends tasks. The lock
is a key with a time to live (``BEAT_LOCK_TTL_SECONDS``) that its holder renews on every
tick: a beat that crashes (or is SIGKILLed) stops renewing, and a standby beat takes over
within the TTL. Nothing is kept on disk that could stop a restart (start beat with
``--pidfile=``, and the schedule file is only a cache of the last run times).

Closing a phase is idempotent, so two beats sweeping at once would not close anything
twice; the lock keeps the work (and the broker traffic) from doubling.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from celery.beat import PersistentScheduler
from django.conf import settings

from config import liveness

log = logging.getLogger(__name__)



def lock_key() -> str:
    return liveness.key("beat", "lock")


# Renew only if we still own it (a beat paused past the TTL must not steal it back).
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class BeatLock:
    """A renewable Redis lock with a time to live; ``hold()`` takes or renews it."""

    def __init__(self, *, ttl_seconds: float, owner: str | None = None) -> None:
        self.ttl_ms = int(ttl_seconds * 1000)
        self.owner = owner or f"{liveness.owner_id()}:{uuid.uuid4().hex[:8]}"
        self.held = False

    def hold(self) -> bool:
        redis = liveness.client()
        if redis is None:
            return True  # embedded: no Redis, one process, nothing to share
        try:
            if self.held and redis.eval(_RENEW, 1, lock_key(), self.owner, self.ttl_ms):
                return True
            got = bool(redis.set(lock_key(), self.owner, nx=True, px=self.ttl_ms))
        except Exception as exc:  # noqa: BLE001 - Redis down: nobody can send anyway
            if self.held:
                log.warning("beat lock: Redis unreachable (%r); standing by", exc)
            self.held = False
            return False
        if got != self.held:
            log.warning("beat lock %s by %s", "taken" if got else "lost", self.owner)
        self.held = got
        return got

    def release(self) -> None:
        redis = liveness.client()
        if redis is None or not self.held:
            return
        try:
            redis.eval(_RELEASE, 1, lock_key(), self.owner)
        except Exception:  # noqa: BLE001 - it expires by itself
            pass
        self.held = False


class LockedScheduler(PersistentScheduler):
    """Beat's scheduler that sends nothing unless it holds the lock."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lock = BeatLock(ttl_seconds=settings.BEAT_LOCK_TTL_SECONDS)
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        # Renew at least three times per TTL, and retry a lost lock as often.
        renew_every = max(self.lock.ttl_ms / 3000, 0.5)
        if not self.lock.hold():
            return renew_every
        liveness.beat_mark(self.lock.owner)
        return min(super().tick(*args, **kwargs), renew_every)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.lock.release()
