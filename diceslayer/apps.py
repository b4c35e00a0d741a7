"""Django app config: registers the Dice Slayer engine with the game registry."""

from __future__ import annotations

from django.apps import AppConfig


class DiceslayerConfig(AppConfig):
    """The ``diceslayer`` app; ``ready()`` registers its engine (STYLE.md §15)."""

    name = "diceslayer"
    verbose_name = "Dice Slayer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import register

        from diceslayer import engine

        register(engine)
