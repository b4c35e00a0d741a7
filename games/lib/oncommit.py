"""Queue Celery tasks after the surrounding transaction commits (docs/style.md §9, §12):
Celery's ``delay_on_commit`` (robust, ``config.celery.Task``: a broker that is down is
logged, never raised into what committed; the outbox sweep or the deadline sweep picks
the work up again later).

:func:`deferred` lets the deadline sweep hold back what its closes queue until the sweep
ends, then publish it in a few large tasks: the workers keep closing phases first (the
player-visible clock) and send the email afterwards, and the broker sees a handful of
messages instead of one per email.

Tasks are found by name in :data:`TASKS`, a table ``games.tasks`` fills when it is imported
(``GamesConfig.ready`` imports it): the services call this module, ``games.tasks`` calls the
services, and this module imports no task, so the imports stay one-way.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

BATCH_TASKS = {"notifications_send"}  # tasks whose single argument is a list of ids

_local = threading.local()

TASKS: dict[str, Any] = {}
"""Task name (``"phase_close"``) -> the Celery task; filled by :func:`register_tasks`."""


def register_tasks(*tasks: Any) -> None:
    """Make ``tasks`` (Celery tasks of ``games.tasks``) enqueueable by their short name."""
    for task in tasks:
        TASKS[task.name.rsplit(".", 1)[-1]] = task


def enqueue(task_name: str, *args: Any) -> None:
    """Send ``games.tasks.<task_name>`` with ``args`` now, logging instead of raising."""
    held = getattr(_local, "held", None)
    if held is not None:
        held.append((task_name, args))
        return
    _send(task_name, *args)


def _send(task_name: str, *args: Any) -> None:
    try:
        TASKS[task_name].delay(*args)
    except Exception:  # noqa: BLE001 - a side effect must never break its cause
        log.exception("could not enqueue %s%r; the sweeps will retry", task_name, args)


def enqueue_on_commit(task_name: str, *args: Any) -> None:
    """``task_name(*args)`` queued once the current transaction commits (at once outside
    one) by the task's ``delay_on_commit``; inside :func:`deferred`, held for its end."""
    if getattr(_local, "held", None) is not None:
        transaction.on_commit(lambda: enqueue(task_name, *args), robust=True)
        return
    TASKS[task_name].delay_on_commit(*args)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold every enqueue made in this thread until the block ends (nested: outermost wins);
    batch tasks are merged into chunks of ``EMAIL_BATCH_SIZE`` ids (one sender's batch:
    a task of more would be sent as several batches one after the other by one process,
    a task of fewer would send batches smaller than the claim and the render are sized for)."""
    if getattr(_local, "held", None) is not None:
        yield
        return
    _local.held = []
    try:
        yield
    finally:
        held, _local.held = _local.held, None
        size = settings.EMAIL_BATCH_SIZE
        batched: dict[str, list] = {}
        for task_name, args in held:
            if task_name in BATCH_TASKS:
                batched.setdefault(task_name, []).extend(args[0])
            else:
                _send(task_name, *args)
        for task_name, ids in batched.items():
            for start in range(0, len(ids), size):
                _send(task_name, ids[start:start + size])
