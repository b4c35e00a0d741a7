"""Django app config for press: players' messages inside a match (issue 13)."""

from __future__ import annotations

from django.apps import AppConfig


class PressConfig(AppConfig):
    name = "press"
    verbose_name = "Press (in-match messages)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from press import emails, freshness

        emails.register()
        freshness.register()
        freshness.register_page_version()
