"""``manage.py diceslayer_bot --games 200 --seed 1 --json``: the bot plays solo games.

A thin adapter over :func:`diceslayer.botplay.run_games`: prints mean and median score
and the slowest decision in milliseconds (JSON with ``--json``).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from diceslayer.botplay import run_games


class Command(BaseCommand):
    help = "Let the Dice Slayer expectimax bot play solo games and report scores and times."

    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200, help="games to play (200)")
        parser.add_argument("--seed", default="1", help="base seed; game i uses SEED:i")
        parser.add_argument("--variant", default="solo", choices=["solo", "solo_wild"])
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = run_games(options["games"], str(options["seed"]), options["variant"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        self.stdout.write(
            f"{report['games']} {report['variant']} games: mean score {report['mean_score']}, "
            f"median {report['median_score']}, slowest decision "
            f"{report['slowest_decision_ms']} ms ({report['slowest_decision_cpu_ms']} ms CPU)")
