"""Queue Celery tasks after the surrounding transaction commits (STYLE.md §9, §12).

Enqueueing can fail (broker down, or an eager task raising in tests and the embedded
server): that must never undo or break what was committed, so failures are logged, and
the outbox sweep (``notifications_send_pending``) or the deadline sweep picks the work up
again later.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

log = logging.getLogger(__name__)


def enqueue(task_name: str, *args: Any) -> None:
    """Send ``games.tasks.<task_name>`` with ``args`` now, logging instead of raising."""
    from games import tasks  # late import: tasks import the services that call us

    try:
        getattr(tasks, task_name).delay(*args)
    except Exception:  # noqa: BLE001 - a side effect must never break its cause
        log.exception("could not enqueue %s%r; the sweeps will retry", task_name, args)


def enqueue_on_commit(task_name: str, *args: Any) -> None:
    """Enqueue ``task_name(*args)`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: enqueue(task_name, *args))
