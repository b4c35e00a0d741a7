"""Celery adapters for press (docs/style.md §12)."""

from __future__ import annotations

from celery import shared_task

from press.emails import press_emails_due as press_emails_due_task


@shared_task(bind=True, acks_late=True)
def press_emails_due(self) -> int:
    """Every minute: the coalesced message emails whose quiet period ended."""
    return press_emails_due_task()
