"""Django app config for Kill Game: registers the pure engine with the game registry, with
the board and order-form templates, the form-to-order hook, the config hook that snapshots
the admin-edited map and prices, the 13:00 / 21:30 default schedule, the new-match form's
map and deadline fields, the zone names for diary sentences, and its own diary (the board
shows the feed and the reader's diary, so the generic one is not rendered)."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig


def rating_mode(match: Any) -> str:
    """Rated in the match's mode: free-for-all places players, teams and districts pair
    sides (``players.ratings.SIDE_MODES``)."""
    return str((match.config or {}).get("mode", "ffa"))


class KillgameConfig(AppConfig):
    name = "killgame"
    verbose_name = "Kill Game"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import GameHooks, register
        from games.services.news import out_of_play_alive_flags

        from killgame import engine, forms, pages, services

        register(engine, GameHooks(
            board_template=pages.BOARD_TEMPLATE,
            order_form_template=pages.ORDER_FORM_TEMPLATE,
            order_from_post=pages.order_from_post,
            config_prepare=services.config_build,
            default_schedule=services.default_schedule, schedule_from_settings=True,
            match_form_adapt=forms.adapt_match_form,
            describe_context=services.describe_context,
            email_template="killgame/email_now.txt",
            email_template_html="killgame/email_now.html",
            email_context=pages.email_context,
            own_diary=True, diary_turn_template=pages.DIARY_TURN_TEMPLATE,
            out_of_play=out_of_play_alive_flags,
            rating_mode=rating_mode))  # press: the default, full
