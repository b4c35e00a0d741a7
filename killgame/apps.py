"""Django app config for Kill Game: registers the pure engine with the game registry."""

from __future__ import annotations

from django.apps import AppConfig


class KillgameConfig(AppConfig):
    name = "killgame"
    verbose_name = "Kill Game"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import register

        from killgame import engine

        register(engine)
