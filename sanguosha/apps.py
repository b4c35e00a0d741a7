"""Django app config: registers the Sanguosha engine with the game registry, with the
hooks the generic pages use (board and order-form templates, the posted-form parser, the
schedule built from the ask duration classes, the ask kinds whose check-ins are private)."""

from __future__ import annotations

from django.apps import AppConfig


class SanguoshaConfig(AppConfig):
    name = "sanguosha"
    verbose_name = "Three Kingdoms Kill"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import GameHooks, register

        from sanguosha import engine
        from sanguosha.forms import order_from_post, schedule_for

        from games.services.news import out_of_play_alive_flags

        register(engine, GameHooks(
            board_template="sanguosha/board.html",
            order_form_template="sanguosha/order_fields.html",
            order_from_post=order_from_post, default_schedule=schedule_for,
            schedule_from_settings=True,
            table_url_name="sanguosha:table",
            private_checkin_kinds=frozenset({"ask:negate_window", "ask:rescue"}),
            email_coalesce=True, demo_players=4, out_of_play=out_of_play_alive_flags,
            rating_mode=lambda match: "identity",  # by side: each winner beat each loser
            press_default=lambda config: "public"))  # hidden roles: the public board only
