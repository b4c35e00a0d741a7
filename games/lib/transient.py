"""Which failures are the infrastructure's, not the game's: a lost or refused database
connection, a serialisation failure or deadlock, a task's soft time limit hit outside the
rules. They are retried by the sweeps and never count toward a phase's quarantine
(``games.services.phases``), which is for rules that fail to resolve.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError


def is_database_outage(exc: BaseException) -> bool:
    """The database refused, lost the connection, or aborted the transaction
    (deadlock, serialisation failure): try again later, nothing was written."""
    return isinstance(exc, (OperationalError, InterfaceError))


def is_transient(exc: BaseException) -> bool:
    """A database outage, or the task's soft time limit (raised outside the rules: inside
    ``engine.resolve`` it is the rules' failure and counted as such)."""
    try:
        from celery.exceptions import SoftTimeLimitExceeded
    except ImportError:  # pragma: no cover - Celery is a dependency
        return is_database_outage(exc)
    return is_database_outage(exc) or isinstance(exc, SoftTimeLimitExceeded)
