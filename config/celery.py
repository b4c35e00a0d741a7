"""The Celery app, and the beat schedule built from the registry's periodic jobs
(docs/style.md §12)."""

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
        # (Celery returns None here too; its type stubs say AsyncResult)
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

def beat_schedule() -> dict[str, dict[str, Any]]:
    """Celery beat's schedule, built from every registered :class:`games.registry.PeriodicJob`
    (the framework's, each app's and each game's, declared once in their ``AppConfig``;
    ``manage.py run``'s sweeper runs the same list). A scheduled task still queued when its
    next run is due expires (workers that were down find one run waiting, not hundreds)."""
    from django.conf import settings

    from games.registry import periodic_jobs

    sweep = float(settings.CELERY_BEAT_SWEEP_SECONDS)
    schedule: dict[str, dict[str, Any]] = {}
    for job in periodic_jobs():
        when: Any
        if job.cron is not None:
            when = crontab(**job.cron)
            period = 60.0
        else:
            when = period = float(job.seconds if job.seconds is not None else sweep)
        schedule[job.name] = {"task": job.task, "schedule": when,
                              "options": {"expires": job.expires or period}}
    return schedule


# Each worker marks itself alive with its queues in Redis (read by /healthz).
liveness.install_worker_heartbeat()


@worker_process_init.connect(weak=False)
def _freeze_startup_objects(**_: Any) -> None:
    """A pool process starts with everything its parent imported (Django, the apps, the
    rule tables): collected once and frozen, full garbage collections stop walking those
    objects, which cost a quarter of a phase close's CPU (a close allocates thousands of
    small objects: states, events, rows). The web workers do the same (config/wsgi.py).

    Then the collector's thresholds (``WORKER_GC_THRESHOLD``): a batch of closes, or of
    emails, allocates some hundred thousand short-lived objects, nearly none of them in
    reference cycles; at Python's default (a young collection every 700 allocations) the
    collector still took a fifth of a close's CPU, at 20,000 next to none
    (docs/operations.md "The deadline storm")."""
    from django.conf import settings

    gc.collect()
    gc.freeze()
    threshold = getattr(settings, "WORKER_GC_THRESHOLD", None)
    if threshold:
        gc.set_threshold(*threshold)
