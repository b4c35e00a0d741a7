"""Django app config: registers the Sanguosha engine with the game registry."""

from __future__ import annotations

from django.apps import AppConfig


class SanguoshaConfig(AppConfig):
    name = "sanguosha"
    verbose_name = "Three Kingdoms Kill"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import register

        from sanguosha import engine

        register(engine)
