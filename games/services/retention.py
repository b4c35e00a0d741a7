"""Retention: what is pruned, and when (docs/operations.md "Retention").

Once a day (beat's ``retention-prune``; the embedded server's sweeper every hour) rows
that only ever served a short purpose are deleted after a configurable number of days
(0 keeps them):

- outbox rows sent, skipped or failed more than ``RETENTION_OUTBOX_DAYS`` (30) ago (an
  unsent row is never pruned, a held one neither);
- expired sessions, ``RETENTION_SESSION_DAYS`` (0: as soon as they expire) after their
  expiry;
- django-axes' login records older than ``RETENTION_THROTTLE_DAYS`` (30) (the counters
  themselves live in the cache with the cool-off as their time to live).

Presence ("on the page") lives only in the cache with a two-minute time to live and
throttle counters with their window: nothing of them is stored to prune. Match records,
diaries, snapshots, orders, press messages and ratings are kept.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import Q
from django.utils.timezone import now as timezone_now

from games.models import Notification

log = logging.getLogger(__name__)

#: rows deleted per statement (keeps each transaction and its locks short)
CHUNK = 5000


def _delete_in_chunks(queryset) -> int:
    total = 0
    while True:
        ids = list(queryset.order_by().values_list("pk", flat=True)[:CHUNK])
        if not ids:
            return total
        deleted, _ = queryset.model.objects.filter(pk__in=ids).delete()
        total += deleted


def _cutoff(days: int, now: datetime) -> datetime | None:
    return now - timedelta(days=days) if days > 0 else None


def retention_prune(*, now: datetime | None = None) -> dict[str, int]:
    """Delete what outlived its retention period; how many rows of each kind."""
    now = now or timezone_now()
    out: dict[str, int] = {}
    cutoff = _cutoff(settings.RETENTION_OUTBOX_DAYS, now)
    out["outbox"] = 0 if cutoff is None else _delete_in_chunks(Notification.objects.filter(
        Q(sent_at__lt=cutoff) | Q(failed_at__lt=cutoff)))
    out["sessions"] = _delete_in_chunks(Session.objects.filter(
        expire_date__lt=now - timedelta(days=max(settings.RETENTION_SESSION_DAYS, 0))))
    cutoff = _cutoff(settings.RETENTION_THROTTLE_DAYS, now)
    out["throttle"] = 0
    if cutoff is not None:
        from axes.models import AccessAttempt, AccessFailureLog, AccessLog

        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            out["throttle"] += _delete_in_chunks(model.objects.filter(attempt_time__lt=cutoff))
    if any(out.values()):
        log.info("retention: pruned %s", out)
    return out
