"""Celery adapters for accounts (docs/style.md §12)."""

from __future__ import annotations

from celery import shared_task

from accounts.sessions import sessions_clear_ended as sessions_clear_ended_now


@shared_task(bind=True, acks_late=True)
def sessions_clear_ended(self) -> int:
    """Every minute: delete the cached copies of sessions ended while the cache was down."""
    return sessions_clear_ended_now()
