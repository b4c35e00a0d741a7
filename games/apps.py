"""The framework's Django app."""

from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Matches"

    def ready(self) -> None:
        # Fills games.lib.oncommit.TASKS, so what the services queue on commit finds its
        # task in every process (web, worker, management commands), not only in the worker.
        from games import tasks  # noqa: F401
        from games.lib import lookback, pages

        # the phase selector's fragment comes in the match page's one cache round trip
        pages.PAGE_FRAGMENTS.append(lookback.page_fragment)
