"""Project configuration; exposes the Celery app so ``celery -A config`` finds it."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
