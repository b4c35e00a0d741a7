"""The fourth game's app config: registers the engine with its one hook, the board."""

from __future__ import annotations

from django.apps import AppConfig


class FourthConfig(AppConfig):
    name = "tests.games.fourth"
    label = "fourth"

    def ready(self) -> None:
        from games.registry import GameHooks, register
        from tests.games import guessgame

        register(guessgame, GameHooks(board_template="fourth/board.html"))
