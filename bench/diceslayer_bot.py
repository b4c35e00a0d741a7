"""Benchmark of the Dice Slayer bot: prints JSON (decision time median/max, games/s).

Usage: ``python bench/diceslayer_bot.py [--games 50] [--seed bench] [--variant solo]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from diceslayer.botplay import run_games  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--variant", default="solo", choices=["solo", "solo_wild"])
    args = parser.parse_args(argv)
    report = run_games(args.games, args.seed, args.variant)
    out = {
        "bench": "diceslayer_bot",
        "variant": report["variant"],
        "games": report["games"],
        "decisions": report["decisions"],
        "decision_ms_median": report["decision_ms_median"],
        "decision_ms_max": report["slowest_decision_ms"],
        "decision_cpu_ms_median": report["decision_cpu_ms_median"],
        "decision_cpu_ms_max": report["slowest_decision_cpu_ms"],
        "games_per_second": report["games_per_second"],
        "mean_score": report["mean_score"],
        "median_score": report["median_score"],
    }
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
