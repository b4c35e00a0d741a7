"""``manage.py sanguosha_simulate --players 8 --games 100 --seed 1 --json``: bot games, pure."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from sanguosha.engine.simulate import simulate


class Command(BaseCommand):
    help = "Play whole Three Kingdoms Kill games between bots and report the results."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=8)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", default="1")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args, **opts):
        report = simulate(players=opts["players"], games=opts["games"], seed=opts["seed"])
        if opts["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        self.stdout.write(f"{report['games']} games, {report['players']} players")
        for k, v in sorted(report["wins"].items()):
            self.stdout.write(f"  {k}: {v}")
        self.stdout.write(f"  draws: {report['draws']}  unfinished: {report['unfinished']}")
        self.stdout.write(f"  mean asks {report['mean_asks']:.1f}, mean turns "
                          f"{report['mean_turns']:.1f}, violations {report['violation_count']}")
