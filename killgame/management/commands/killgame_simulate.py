"""``manage.py killgame_simulate``: play a whole Kill Game match with bots and print a summary.

A thin wrapper around the pure :func:`killgame.engine.simulate.simulate`.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.rules import InvalidConfig
from killgame.engine.simulate import simulate


class Command(BaseCommand):
    help = "Simulate a Kill Game match played by bots and print the summary."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=30)
        parser.add_argument("--map", default="classic", choices=["classic", "inferno"])
        parser.add_argument("--mode", default="ffa", choices=["ffa", "teams", "districts"])
        parser.add_argument("--teams", type=int, default=2, help="team_count in teams mode")
        parser.add_argument("--monsters", type=int, default=2)
        parser.add_argument("--seed", default="sim")
        parser.add_argument("--max-turns", type=int, default=0)
        parser.add_argument("--no-k-rations", action="store_true")
        parser.add_argument("--json", action="store_true", help="print JSON only")

    def handle(self, *args: Any, **opts: Any) -> None:
        if not 2 <= opts["players"] <= 100:
            raise CommandError("--players must be between 2 and 100")
        config: dict[str, Any] = {"map": opts["map"], "mode": opts["mode"],
                                  "monster_count": opts["monsters"],
                                  "k_rations_enabled": not opts["no_k_rations"]}
        if opts["mode"] == "teams":
            config["team_count"] = opts["teams"]
        if opts["max_turns"]:
            config["max_turns"] = opts["max_turns"]
        try:
            summary = simulate(opts["players"], config=config, seed=str(opts["seed"]))
        except InvalidConfig as exc:
            raise CommandError(str(exc)) from None
        if opts["json"]:
            self.stdout.write(json.dumps(summary, sort_keys=True))
            return
        self.stdout.write(f"Kill Game on {summary['map']} ({summary['mode']}), "
                          f"{summary['players']} players: {summary['turns']} turns.")
        self.stdout.write(f"Winners: {', '.join(summary['winners']) or 'nobody'}")
        self.stdout.write(json.dumps(summary, sort_keys=True, indent=2))
