"""Django app config for press: players' messages inside a match (issue 13). It plugs into
the framework once, through ``games.registry.register_app`` (docs/design.md)."""

from __future__ import annotations

from typing import Any, Mapping

from django.apps import AppConfig


def _match_created(match: Any, data: Mapping[str, Any]) -> None:
    """The press rules chosen on the new-match form (none chosen: the game's default)."""
    if data.get("press"):
        from press.services import press_settings_set

        press_settings_set(match=match, rules=data["press"])


class PressConfig(AppConfig):
    name = "press"
    verbose_name = "Press (in-match messages)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import AppHooks, PeriodicJob, register_app
        from press import emails, freshness, selectors

        freshness.register()
        register_app(AppHooks(
            label="press",
            page_fragment=freshness.panel_key,
            page_annotations={"press_version": freshness.page_version,
                              "press_settings_row": freshness.page_settings},
            unread_counts=selectors.unread_counts,
            match_created=_match_created,
            email_builders={emails.KIND: emails.ctx_press},
            digest_lines=emails.digest_lines,
            periodic=(
                # every minute: message emails whose quiet period ended (press/emails.py)
                PeriodicJob("press-emails-due", "press.tasks.press_emails_due",
                            "press.emails.press_emails_due", cron={}, expires=50),
            )))
