"""The framework's Django app: it registers its own periodic jobs (and those of
``accounts``, which sits below it and imports no registry) like any app would."""

from __future__ import annotations

from django.apps import AppConfig


def framework_jobs() -> tuple:
    """The framework's clock (docs/design.md "Phase lifecycle"): Celery beat runs the
    tasks, ``manage.py run``'s sweeper the functions, from this one list."""
    from games.registry import PeriodicJob as Job

    every_minute: dict[str, str | int] = {}
    return (
        # every sweep (a few seconds): close every phase whose deadline passed
        Job("phases-close-due", "games.tasks.phases_close_due",
            "games.services.phases.phases_close_due"),
        # every minute: start matches whose start time came, send check-in reminders
        Job("matches-start-due", "games.tasks.matches_start_due",
            "games.services.matches.matches_start_due", cron=every_minute, expires=55),
        Job("seats-send-nags", "games.tasks.seats_send_nags",
            "games.services.notifications.seats_send_nags", cron=every_minute, expires=55),
        # every 30 s: the email outbox sweep (lost sends, expired leases, retries, coalesced)
        Job("notifications-retry", "games.tasks.notifications_send_pending",
            "games.services.outbox.notifications_drain", seconds=30.0),
        # hourly: daily digests go out at 07:00 in each reader's time zone
        Job("digests-send", "games.tasks.digests_send",
            "games.services.notifications.digests_send", cron={"minute": 0}, expires=3000),
        # every minute: cached copies of sessions ended while Redis was down
        Job("sessions-clear-ended", "accounts.tasks.sessions_clear_ended",
            "accounts.sessions.sessions_clear_ended", cron=every_minute, expires=55),
        # daily at 03:30 UTC: prune sent email, expired sessions, old login records
        Job("retention-prune", "games.tasks.retention_prune",
            "games.services.retention.retention_prune", cron={"minute": 30, "hour": 3},
            expires=3600),
    )


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Matches"

    def ready(self) -> None:
        # Fills games.lib.oncommit.TASKS, so what the services queue on commit finds its
        # task in every process (web, worker, management commands), not only in the worker.
        from games import tasks  # noqa: F401
        from games.lib import lookback
        from games.registry import AppHooks, register_app

        # the phase selector's fragment comes in the match page's one cache round trip
        register_app(AppHooks(label="games", periodic=framework_jobs(),
                              page_fragment=lookback.page_fragment))
