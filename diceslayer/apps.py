"""Django app config: registers the Dice Slayer engine with the game registry, with the
page hooks of the generic match page (board, order form, posted form → order) and the
default versus schedule (24 h per turn)."""

from __future__ import annotations

from typing import Any, Mapping

from django.apps import AppConfig


def rating_mode(match: Any) -> str:
    """Versus matches place the players; solo and daily games are rated against par."""
    variant = str((match.config or {}).get("variant", "solo"))
    if variant.startswith("versus"):
        return "versus"
    return "daily" if hasattr(match, "diceslayer_daily") else "solo"


def press_default(config: Mapping[str, Any]) -> str:
    """A solo game has no one to talk to."""
    return "none" if str(config.get("variant", "")).startswith("solo") else "full"


class DiceslayerConfig(AppConfig):
    """The ``diceslayer`` app; ``ready()`` registers its engine (docs/style.md §15)."""

    name = "diceslayer"
    verbose_name = "Dice Slayer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.registry import AppHooks, GameHooks, PeriodicJob, register, register_app

        from diceslayer import emails, engine
        from diceslayer.forms import order_from_post
        from diceslayer.services import default_schedule

        register(engine, GameHooks(
            board_template="diceslayer/generic_board.html",
            order_form_template="diceslayer/generic_order_form.html",
            order_from_post=order_from_post, default_schedule=default_schedule,
            home_url_name="diceslayer:home", email_coalesce=True,
            match_page_url_names=frozenset({"diceslayer:play"}),
            rating_mode=rating_mode, press_default=press_default,
            periodic=(
                # every five minutes: challenges unanswered for 48 h expire
                PeriodicJob("diceslayer-challenges-expire", "diceslayer.tasks.challenges_expire",
                            "diceslayer.services.challenges_expire",
                            cron={"minute": "*/5"}, expires=290),
            )))
        # the challenge email (kind "challenge") on the outbox, and its send-time policy
        register_app(AppHooks(label="diceslayer",
                              email_builders={emails.KIND: emails.ctx_challenge},
                              email_categories={emails.KIND: "phase"},
                              send_veto=emails.challenge_send_veto))

