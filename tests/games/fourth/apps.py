"""The fourth game's app config: registers the auction engine with its hooks (the board,
the press default, the rating mode)."""

from __future__ import annotations

from django.apps import AppConfig


class FourthConfig(AppConfig):
    name = "tests.games.fourth"
    label = "fourth"
    verbose_name = "Sealed-Bid Auction"

    def ready(self) -> None:
        from games.registry import GameHooks, register
        from tests.games.fourth import engine

        register(engine, GameHooks(board_template="fourth/board.html",
                                   press_default=lambda config: "public",
                                   rating_mode=lambda match: "auction"))
