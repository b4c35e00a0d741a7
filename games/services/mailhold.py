"""Mail held after a restore (docs/operations.md "Backups"): a database restored from a
backup holds outbox rows that were still unsent when the backup was taken, though many
went out before the outage. Sending them again would email players twice, dropping them
could lose some, so the director decides: :func:`mail_hold` holds every unsent row queued
before a given time; :func:`mail_release` sends held rows, :func:`mail_drop` closes them
unsent. Each step is logged as a ``DirectorAction``.

A held row is kept out of every sender by its ``next_attempt_at`` (far in the future:
the senders claim only rows due now, so the sending path needs no knowledge of holds) and
is told apart by ``held_at``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterable

from django.db import transaction
from django.utils.timezone import now as timezone_now

from games.lib.oncommit import enqueue_on_commit
from games.models import DirectorAction, Notification

#: the "next attempt" of a held row: never, until released
HELD_UNTIL = datetime(9999, 1, 1, tzinfo=timezone.utc)
DROPPED_ERROR = "skipped: dropped by the director after a restore"


def _held(ids: Iterable[int] | None):
    rows = Notification.objects.filter(held_at__isnull=False, sent_at__isnull=True,
                                       failed_at__isnull=True)
    return rows if ids is None else rows.filter(pk__in=list(ids))


def mail_hold(*, before: datetime, actor=None, now: datetime | None = None) -> int:
    """Hold every unsent, unfailed outbox row created before ``before``; how many."""
    now = now or timezone_now()
    with transaction.atomic():
        count = (Notification.objects.filter(sent_at__isnull=True, failed_at__isnull=True,
                                             held_at__isnull=True, created_at__lt=before)
                 .update(held_at=now, next_attempt_at=HELD_UNTIL, claimed_until=None))
        DirectorAction.objects.create(actor=actor, action="mail_hold", details={
            "before": before.isoformat(), "held": count})
    return count


def mail_release(*, ids: Iterable[int] | None = None, actor=None,
                 now: datetime | None = None) -> int:
    """Send held rows (``ids``, or all of them) now; how many were released."""
    now = now or timezone_now()
    with transaction.atomic():
        picked = list(_held(ids).values_list("pk", flat=True))
        Notification.objects.filter(pk__in=picked).update(held_at=None, next_attempt_at=now,
                                                          claimed_until=None)
        DirectorAction.objects.create(actor=actor, action="mail_release",
                                      details={"released": len(picked)})
        for start in range(0, len(picked), 100):
            enqueue_on_commit("notifications_send", picked[start:start + 100])
    return len(picked)


def mail_drop(*, ids: Iterable[int] | None = None, actor=None,
              now: datetime | None = None) -> int:
    """Close held rows (``ids``, or all of them) unsent, as skipped; how many."""
    now = now or timezone_now()
    with transaction.atomic():
        count = _held(ids).update(sent_at=now, error=DROPPED_ERROR, claimed_until=None)
        DirectorAction.objects.create(actor=actor, action="mail_drop",
                                      details={"dropped": count})
    return count


def mail_held(limit: int = 200) -> list[Notification]:
    """The held rows, oldest first (for the command's list)."""
    return list(_held(None).select_related("recipient", "match").order_by("created_at", "pk")
                [:limit])
