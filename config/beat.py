"""One scheduler: celery-redbeat (docs/operations.md "Beat").

RedBeat keeps the schedule in Redis and lets one beat send at a time: the beat that holds
its lock (``<REDIS_KEY_PREFIX>:beat:lock``, ``BEAT_LOCK_TTL_SECONDS`` to live) extends
it on every tick, at least every ``CELERY_BEAT_MAX_LOOP_INTERVAL`` seconds; a standby beat
tries to take it as often. So a holder that dies (or is SIGKILLed) is replaced within
``BEAT_LOCK_TTL_SECONDS + CELERY_BEAT_MAX_LOOP_INTERVAL``. Nothing on disk can stop a
restart (start beat with ``--pidfile=``; the schedule file is not used).

This subclass adds three things the site needs around the library:

- the schedule: every periodic job the apps and games registered (``games.registry``);
- the holder marks itself alive for ``/healthz`` (``config.liveness``);
- a lock lost while running (Redis down past the TTL, a pause past it: redbeat's extension
  raises) sends the beat back to standby instead of ending the process: it sends nothing
  and takes the lock again with redbeat's own acquisition once it is free.

Closing a phase is idempotent, so two beats sweeping at once would not close anything
twice; the lock keeps the work (and the broker traffic) from doubling.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from redbeat.schedulers import RedBeatScheduler, acquire_distributed_beat_lock
from redis.exceptions import LockError, RedisError

from config import liveness

log = logging.getLogger(__name__)


class Scheduler(RedBeatScheduler):
    """RedBeat with the schedule of the registry's periodic jobs, the liveness mark and a
    standby instead of an exit on a lost lock."""

    def setup_schedule(self) -> None:
        """The schedule is every registered ``PeriodicJob`` (``config.celery.beat_schedule``),
        read here: the apps registered their jobs when Django set up, before the beat
        starts its scheduler."""
        from config.celery import beat_schedule

        self.app.conf.beat_schedule = beat_schedule()
        super().setup_schedule()

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if self.lock_key and self.lock is None and not self._take_lock():
            return self.max_interval
        try:
            interval = super().tick(*args, **kwargs)
        except (LockError, RedisError) as exc:
            log.warning("beat lock lost (%r); standing by", exc)
            self.lock = None
            return self.max_interval
        if self.lock is not None:
            liveness.beat_mark(self.owner)
        return interval

    @property
    def owner(self) -> str:
        token = getattr(self.lock, "local", None)
        token = getattr(token, "token", None) or b""
        suffix = token.decode()[:8] if isinstance(token, bytes) else str(token)[:8]
        return f"{liveness.owner_id()}:{suffix}"

    def _take_lock(self) -> bool:
        """redbeat's own start-up acquisition (it waits while another beat holds the lock,
        retrying every ``max_interval``); False when Redis cannot be reached."""
        try:
            acquire_distributed_beat_lock(sender=SimpleNamespace(scheduler=self))
        except RedisError as exc:
            log.warning("beat lock: Redis unreachable (%r); standing by", exc)
            self.lock = None
            return False
        log.warning("beat lock taken by %s", self.owner)
        return True
