"""Celery tasks: thin adapters (STYLE.md §12). Each takes primitive ids, calls the service
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
from games.services.notifications import notification_send as notification_send_task
from games.services.notifications import notification_send_failure
from games.services.notifications import notifications_pending
from games.services.notifications import seats_send_nags as seats_send_nags_task
from games.services.phases import PhaseCloseFailed
from games.services.phases import phase_close as phase_close_task
from games.services.phases import phases_close_due as phases_close_due_task

log = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True)
def phases_close_due(self) -> int:
    """The deadline sweep (beat, every few seconds)."""
    return phases_close_due_task()


@shared_task(bind=True, acks_late=True)
def phase_close(self, phase_id: int) -> bool:
    """Close one phase if it is due or complete (queued by the check-in that completed
    it). A failure is already recorded by the service (retry/quarantine): not re-raised."""
    try:
        return phase_close_task(phase_id=phase_id, require_ready=True)
    except PhaseCloseFailed:
        return False


@shared_task(bind=True, acks_late=True)
def matches_start_due(self) -> dict:
    return matches_start_due_task()


@shared_task(bind=True, acks_late=True)
def seats_send_nags(self) -> int:
    return seats_send_nags_task()


@shared_task(bind=True, acks_late=True, max_retries=settings.EMAIL_MAX_RETRIES)
def notification_send(self, notification_id: int) -> bool:
    """Send one outbox row; retries with backoff; the last failure marks it failed."""
    try:
        return notification_send_task(notification_id=notification_id)
    except Exception as exc:  # noqa: BLE001 - any transport error is retried
        if self.request.retries >= self.max_retries:
            notification_send_failure(notification_id=notification_id, error=repr(exc))
            log.error("notification %s failed for good: %r", notification_id, exc)
            return False
        raise self.retry(exc=exc, countdown=min(30 * 2 ** self.request.retries, 3600))


@shared_task(bind=True, acks_late=True)
def notifications_send(self, notification_ids: list[int]) -> int:
    """Send a batch of outbox rows (what one close or one sweep wrote); a row that fails
    gets its own ``notification_send`` task with retries, so one bad address does not hold
    up the rest."""
    sent = 0
    for notification_id in notification_ids:
        try:
            sent += bool(notification_send_task(notification_id=notification_id))
        except Exception:  # noqa: BLE001 - retried on its own below
            try:
                notification_send.apply_async(args=[notification_id], countdown=30, retries=1)
            except Exception:  # noqa: BLE001 - eager mode runs (and fails) it right here
                log.warning("notification %s: retry queued or failed", notification_id)
    return sent


@shared_task(bind=True, acks_late=True)
def notifications_send_pending(self) -> int:
    """Re-queue outbox rows whose on-commit send was lost (broker down, worker died)."""
    ids = notifications_pending()
    for notification_id in ids:
        notification_send.delay(notification_id)
    return len(ids)


@shared_task(bind=True, acks_late=True)
def digests_send(self) -> int:
    return digests_send_task()


# what the services queue on commit (``games.lib.oncommit`` finds them here by name)
register_tasks(phases_close_due, phase_close, matches_start_due, seats_send_nags,
               notification_send, notifications_send, notifications_send_pending, digests_send)
