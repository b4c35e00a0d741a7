"""Dice Slayer's Celery task: the sweep that expires unanswered versus challenges
(a thin adapter, docs/style.md §12; the beat schedule in config/celery.py names it)."""

from __future__ import annotations

from celery import shared_task

from diceslayer.services import challenges_expire as challenges_expire_task


@shared_task(bind=True, acks_late=True, soft_time_limit=50, time_limit=60)
def challenges_expire(self) -> int:
    """Expire every pending challenge past its deadline (beat, every five minutes)."""
    return challenges_expire_task()
