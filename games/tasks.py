"""Celery tasks: thin adapters (docs/style.md §12). Each takes primitive ids, calls the service
of the same name (imported as ``<service>_task``) and returns a small JSON-able result.
The beat schedule in config/celery.py names them.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils.timezone import now as timezone_now

from games.lib.oncommit import register_tasks
from games.services.matches import matches_start_due as matches_start_due_task
from games.services.notifications import digests_send as digests_send_task
from games.services.outbox import notification_send as notification_send_task
from games.services.outbox import notifications_drain as notifications_drain_task
from games.services.outbox import notifications_due_count, notifications_send_batch
from games.services.notifications import seats_send_nags as seats_send_nags_task
from games.services.retention import retention_prune as retention_prune_task
from games.lib.transient import is_transient
from games.services.phases import PhaseCloseFailed
from games.services.phases import phase_close as phase_close_task
from games.services.phases import phases_close_due as phases_close_due_task
from games.services.phases import phases_next_deadline

log = logging.getLogger(__name__)


# The clock's tasks get short limits (soft, then hard): a stuck close must give the
# queue back long before the next sweeps pile up. Other tasks use the settings' defaults.
CLOCK_LIMITS = {"soft_time_limit": 50, "time_limit": 60}
CLOSE_LIMITS = {"soft_time_limit": 25, "time_limit": 30}
#: a sweep starts no batch after this long (below the clock's soft limit, so that no batch
#: is cut off and rolled back); the next sweep is queued at once
SWEEP_BUDGET_SECONDS = CLOCK_LIMITS["soft_time_limit"] - 10


@shared_task(bind=True, acks_late=True, **CLOCK_LIMITS)
def phases_close_due(self, helper: bool = False) -> int:
    """The deadline sweep (beat, every few seconds; ``helper``: asked by another sweep).

    Two things keep a deadline storm short (docs/operations.md "Queues and workers"):

    - a sweep that finds more due than one batch asks ``SWEEP_HELPERS`` more sweeps at
      once, so every clock process closes from the first second, not from its next beat;
    - a sweep that sees the next deadline come before the next beat schedules a sweep for
      that instant (a Celery ETA, once per deadline: a Redis mark), so a phase closes at
      its deadline, not up to ``CELERY_BEAT_SWEEP_SECONDS`` after it.
    """
    # (a helper that runs out of time just ends: the sweep that asked it queues the next
    # one, which asks again, so the helpers never multiply)
    closed = phases_close_due_task(on_backlog=None if helper else _ask_helpers,
                                   budget_seconds=SWEEP_BUDGET_SECONDS,
                                   on_unfinished=None if helper else _sweep_again)
    _sweep_at_next_deadline()
    return closed


def _sweep_again() -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    phases_close_due.apply_async(expires=max(float(settings.CELERY_BEAT_SWEEP_SECONDS), 1.0))


#: the Redis mark of helpers asked lately (a storm's later sweeps ask no more of them)
HELPERS_MARK = "sweep-helpers-asked"


def _ask_helpers() -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # one process: nobody to ask
    expires = max(float(settings.CELERY_BEAT_SWEEP_SECONDS), 1.0)
    try:
        if not cache.add(HELPERS_MARK, 1, timeout=max(int(expires), 1)):
            return  # asked within the last beat: they are at work (or expired unneeded)
    except Exception:  # noqa: BLE001 - the cache is an accelerator: ask anyway
        pass
    for _ in range(settings.SWEEP_HELPERS):
        phases_close_due.apply_async(kwargs={"helper": True}, expires=expires)


def _sweep_at_next_deadline() -> None:
    """Schedule a sweep at the next deadline when it comes before the next beat."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # an eager "later" is now: the beat's sweep is enough
    now = timezone_now()
    interval = timedelta(seconds=float(settings.CELERY_BEAT_SWEEP_SECONDS))
    try:
        at = phases_next_deadline(now=now)
        if at is None or at - now > interval:
            return
        # once per deadline, whichever sweep sees it first
        if not cache.add(f"sweep-at:{at.isoformat()}", 1, timeout=3 * interval.total_seconds()):
            return
        phases_close_due.apply_async(eta=at + SWEEP_AT_MARGIN, expires=at + interval * 2)
    except Exception:  # noqa: BLE001 - the beat's sweep closes it anyway, a moment later
        log.warning("could not schedule the sweep at the next deadline", exc_info=True)


#: a sweep scheduled for a deadline runs this much after it (clocks of one machine)
SWEEP_AT_MARGIN = timedelta(milliseconds=5)


@shared_task(bind=True, acks_late=True, **CLOSE_LIMITS)
def phase_close(self, phase_id: int) -> bool:
    """Close one phase if it is due or complete (queued by the check-in that completed
    it). A failure is already recorded by the service (retry/quarantine): not re-raised.
    A database outage is not the phase's fault: the sweep closes it once the database
    is back."""
    try:
        return phase_close_task(phase_id=phase_id, require_ready=True)
    except PhaseCloseFailed:
        return False
    except Exception as exc:
        if not is_transient(exc):
            raise
        log.warning("phase %s not closed now (%r); the sweep will close it", phase_id, exc)
        return False


@shared_task(bind=True, acks_late=True, **CLOCK_LIMITS)
def matches_start_due(self) -> dict:
    return matches_start_due_task()


@shared_task(bind=True, acks_late=True)
def seats_send_nags(self) -> int:
    return seats_send_nags_task()


# Email runs on its own queue ("mail") and workers, apart from the clock: a hanging mail
# server must never delay a phase close. Retries are the outbox's own (next_attempt_at,
# backoff, 24 h); the tasks never need Celery's retry.

@shared_task(bind=True, acks_late=True, queue="mail")
def notification_send(self, notification_id: int) -> bool:
    """Send one outbox row (if due and unclaimed); failures stay on the row for the sweep."""
    return notification_send_task(notification_id=notification_id)


@shared_task(bind=True, acks_late=True, queue="mail")
def notifications_send(self, notification_ids: list[int]) -> int:
    """Send the rows one close (or one sweep) wrote, in batches over one SMTP connection
    each; rows another sender holds, or held back by coalescing, are left to the sweep."""
    sent = 0
    size = settings.EMAIL_BATCH_SIZE
    for start in range(0, len(notification_ids), size):
        report = notifications_send_batch(ids=notification_ids[start:start + size])
        sent += len(report.sent)
    return sent


@shared_task(bind=True, acks_late=True, queue="mail")
def notifications_drain(self) -> int:
    """Send due rows batch after batch for up to ~25 s."""
    return notifications_drain_task()


@shared_task(bind=True, acks_late=True, queue="mail")
def notifications_send_pending(self) -> int:
    """The outbox sweep (beat, every 30 s): rows whose on-commit send was lost, whose lease
    expired (a sender died), whose retry or coalescing time came. Fans out up to
    ``EMAIL_DRAIN_TASKS`` drainers so a backlog is shared by the mail workers."""
    count = notifications_due_count()
    if not count:
        return 0
    tasks = min(settings.EMAIL_DRAIN_TASKS, -(-count // settings.EMAIL_BATCH_SIZE))
    for _ in range(tasks - 1):
        notifications_drain.delay()
    return notifications_drain_task()


@shared_task(bind=True, acks_late=True)
def digests_send(self) -> int:
    return digests_send_task()


@shared_task(bind=True, acks_late=True)
def retention_prune(self) -> dict:
    """Daily: delete sent email, expired sessions and old login records (retention)."""
    return retention_prune_task()


# what the services queue on commit (``games.lib.oncommit`` finds them here by name)
register_tasks(phases_close_due, phase_close, matches_start_due, seats_send_nags,
               notification_send, notifications_send, notifications_send_pending, digests_send)
