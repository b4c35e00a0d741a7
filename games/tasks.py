"""Celery tasks: thin adapters (docs/style.md §12). Each takes primitive ids, calls the service
of the same name (imported as ``<service>_task``) and returns a small JSON-able result.
The beat schedule in config/celery.py names them.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

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

log = logging.getLogger(__name__)


# The clock's tasks get short limits (soft, then hard): a stuck close must give the
# queue back long before the next sweeps pile up. Other tasks use the settings' defaults.
CLOCK_LIMITS = {"soft_time_limit": 50, "time_limit": 60}
CLOSE_LIMITS = {"soft_time_limit": 25, "time_limit": 30}


@shared_task(bind=True, acks_late=True, **CLOCK_LIMITS)
def phases_close_due(self) -> int:
    """The deadline sweep (beat, every few seconds)."""
    return phases_close_due_task()


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
