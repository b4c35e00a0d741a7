"""Django app config: registers the Dice Slayer engine with the game registry, with the
page hooks of the generic match page (board, order form, posted form → order) and the
default versus schedule (24 h per turn)."""

from __future__ import annotations

from django.apps import AppConfig


class DiceslayerConfig(AppConfig):
    """The ``diceslayer`` app; ``ready()`` registers its engine (docs/style.md §15)."""

    name = "diceslayer"
    verbose_name = "Dice Slayer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import GameHooks, register

        from diceslayer import emails, engine
        from diceslayer.forms import order_from_post
        from diceslayer.pages import named
        from diceslayer.services import challenges_expire, default_schedule

        register(engine, GameHooks(
            board_template="diceslayer/generic_board.html",
            order_form_template="diceslayer/generic_order_form.html",
            order_from_post=order_from_post, default_schedule=default_schedule,
            home_url_name="diceslayer:home", email_coalesce=True, name_text=named,
            # the embedded server's beat runs it every minute (production: the beat
            # entry "diceslayer-challenges-expire" in config/celery.py)
            sweeps=(challenges_expire,)))
        emails.register()  # the challenge email (kind "challenge") on the outbox
