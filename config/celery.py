"""The Celery app and the whole beat schedule (docs/style.md §12)."""

from __future__ import annotations

import gc
import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init
from celery.contrib.django.task import DjangoTask
from celery.schedules import crontab

from config import liveness

# production by default (as wsgi/asgi): the package import runs this before them
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

class Task(DjangoTask):
    """Celery's task for Django, whose ``delay_on_commit`` queues the task once the
    transaction commits. Robust here: a message that cannot be published then (the broker
    is down) is logged, never raised into what already committed (a check-in must not
    answer 500 because Redis is away); the sweeps re-read the database and do the work."""

    def delay_on_commit(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        from django.db import transaction

        def publish() -> None:  # a named function: Django logs a failure by its __qualname__
            self.delay(*args, **kwargs)

        transaction.on_commit(publish, robust=True)


app = Celery("pbw", task_cls=Task)
app.config_from_object("django.conf:settings", namespace="CELERY")


def _redbeat_settings() -> dict:
    """celery-redbeat reads its keys (``redbeat_*``) without Celery's namespace: the
    settings' ``CELERY_REDBEAT_*``, handed over as they are (config/beat.py)."""
    from django.conf import settings

    return {name[len("CELERY_"):].lower(): getattr(settings, name)
            for name in dir(settings) if name.startswith("CELERY_REDBEAT_")}


app.add_defaults(_redbeat_settings)
app.autodiscover_tasks()

_sweep = float(os.environ.get("CELERY_BEAT_SWEEP_SECONDS", "5"))


def _expires(seconds: float) -> dict:
    """A scheduled task still queued when its next run is due is dropped (workers that were
    down find one sweep waiting, not hundreds)."""
    return {"expires": seconds}


app.conf.beat_schedule = {
    # every few seconds: close every phase whose deadline passed (the clock of the game)
    "phases-close-due": {"task": "games.tasks.phases_close_due", "schedule": _sweep,
                         "options": _expires(_sweep)},
    # every minute (* * * * *): start matches whose start time came, send check-in reminders
    "matches-start-due": {"task": "games.tasks.matches_start_due", "schedule": crontab(),
                          "options": _expires(55)},
    "seats-send-nags": {"task": "games.tasks.seats_send_nags", "schedule": crontab(),
                        "options": _expires(55)},
    # every 30 s: the email outbox sweep (lost sends, expired leases, retries, coalesced)
    "notifications-retry": {"task": "games.tasks.notifications_send_pending",
                            "schedule": 30.0, "options": _expires(30)},
    # hourly (0 * * * *): daily digests go out at 07:00 in each reader's time zone
    # every minute (* * * * *): message emails whose quiet period ended (press/emails.py)
    "press-emails-due": {"task": "press.tasks.press_emails_due", "schedule": crontab(),
                         "options": _expires(50)},
    "digests-send": {"task": "games.tasks.digests_send", "schedule": crontab(minute=0),
                     "options": _expires(3000)},
    # every minute: cached copies of sessions ended while Redis was down (accounts/sessions.py)
    "sessions-clear-ended": {"task": "accounts.tasks.sessions_clear_ended",
                             "schedule": crontab(), "options": _expires(55)},
    # daily at 03:30 UTC: prune sent email, expired sessions, old login records
    "retention-prune": {"task": "games.tasks.retention_prune",
                        "schedule": crontab(minute=30, hour=3), "options": _expires(3600)},
    # every five minutes (*/5 * * * *): Dice Slayer challenges unanswered for 48 h expire
    "diceslayer-challenges-expire": {"task": "diceslayer.tasks.challenges_expire",
                                     "schedule": crontab(minute="*/5"),
                                     "options": _expires(290)},
}

# Each worker marks itself alive with its queues in Redis (read by /healthz).
liveness.install_worker_heartbeat()


@worker_process_init.connect(weak=False)
def _freeze_startup_objects(**_: Any) -> None:
    """A pool process starts with everything its parent imported (Django, the apps, the
    rule tables): collected once and frozen, full garbage collections stop walking those
    objects, which cost a quarter of a phase close's CPU (a close allocates thousands of
    small objects: states, events, rows). gunicorn's web workers do the same."""
    gc.collect()
    gc.freeze()
