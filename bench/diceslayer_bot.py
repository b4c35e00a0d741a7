"""Benchmark of the Dice Slayer bot: prints JSON (decision time median/max, games/s).

Usage: ``python bench/diceslayer_bot.py [--games 50] [--seed bench] [--variant solo]
[--versus-games 20]``.

The top level is the solo self-play (as before); ``versus`` holds one entry per versus
variant: the bot plays both seats of ``--versus-games`` matches and every decision is
timed twice in CPU time (``time.process_time``): ``cold`` with the search's memo cleared
first (the worst case, what the 50 ms budget is checked against) and ``warm`` with the memo
kept from earlier decisions, as in a running server. Versus 2 matches start from setup;
versus 1 from seeded positions of 6–9 dice a side (from setup its 3 dice a side run out
in six picks).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import diceslayer.engine as engine  # noqa: E402
from diceslayer.botplay import run_games  # noqa: E402
from diceslayer.engine import versus_bot  # noqa: E402
from diceslayer.engine.state import Player, State, Variant  # noqa: E402


def _versus1_start(seed: str) -> State:
    rng = random.Random(f"bench-versus1|{seed}")
    players = tuple(Player(tuple(sorted(rng.randint(1, 6) for _ in range(rng.randint(6, 9)))),
                           tuple(rng.randint(1, 6) for _ in range(2)))
                    for _ in range(2))
    return State(variant=Variant.VERSUS1, players=players, target=100)


def _ms(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values) * 1000, 3),
            "max": round(max(values) * 1000, 3)}


def run_versus(variant: str, games: int, seed: str) -> dict[str, Any]:
    cold: list[float] = []
    warm: list[float] = []
    ends: dict[str, int] = {}
    moves: list[int] = []
    t0 = time.perf_counter()
    for i in range(games):
        match_seed = f"{seed}:{i}"
        s = engine.setup({"variant": variant}, [0, 1], match_seed) if variant == "versus2" \
            else _versus1_start(match_seed)
        while not s.over and s.moves < 400:
            m = s.to_move
            versus_bot.clear_caches()
            c0 = time.process_time()
            order = engine.bot_orders(s, m, match_seed)
            cold.append(time.process_time() - c0)
            c0 = time.process_time()
            again = engine.bot_orders(s, m, match_seed)
            warm.append(time.process_time() - c0)
            assert again == order
            s = engine.resolve(engine.submit(s, m, order[0]).state, match_seed).state
        ends[s.end_reason or "unfinished"] = ends.get(s.end_reason or "unfinished", 0) + 1
        moves.append(s.moves)
    return {
        "games": games,
        "decisions": len(cold),
        "decision_cpu_ms_cold": _ms(cold),
        "decision_cpu_ms_warm": _ms(warm),
        "decisions_over_50ms_cold": sum(1 for c in cold if c > 0.050),
        "mean_moves": round(statistics.mean(moves), 2),
        "end_reasons": ends,
        "seconds": round(time.perf_counter() - t0, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--variant", default="solo", choices=["solo", "solo_wild"])
    parser.add_argument("--versus-games", type=int, default=20)
    args = parser.parse_args(argv)
    report = run_games(args.games, args.seed, args.variant)
    out: dict[str, Any] = {
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
    if args.versus_games > 0:
        out["versus"] = {v: run_versus(v, args.versus_games, args.seed)
                         for v in ("versus2", "versus1")}
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
