"""Benchmark of the Sanguosha engine; prints JSON.

Engine time only (setup, submit, resolve; bot thinking excluded) for whole 8-player bot
games, and the per-ask cost (submit + resolve of one ask). Targets: a game < 0.5 s,
one ask < 1 ms median.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sanguosha import engine  # noqa: E402


def one_game(seed: str, players: int = 8) -> tuple[float, list[float], int]:
    t = time.perf_counter()
    state = engine.setup({}, list(range(players)), seed)
    total = time.perf_counter() - t
    per_ask: list[float] = []
    asks = 0
    while not state.raw["over"] and asks < 20000:
        ask_time = 0.0
        for s in engine.awaiting(state):
            order = engine.bot_orders(state, s, f"{seed}:{asks}:{s}")[0]
            t = time.perf_counter()
            state = engine.submit(state, s, order).state
            ask_time += time.perf_counter() - t
            if not engine.awaiting(state):
                break
        t = time.perf_counter()
        state = engine.resolve(state, f"{seed}:{asks}").state
        ask_time += time.perf_counter() - t
        per_ask.append(ask_time)
        total += ask_time
        asks += 1
    return total, per_ask, asks


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    totals: list[float] = []
    asks: list[float] = []
    counts: list[int] = []
    for g in range(games):
        total, per_ask, n = one_game(f"bench-{g}")
        totals.append(total)
        asks.extend(per_ask)
        counts.append(n)
    print(json.dumps({
        "game": "sanguosha", "players": 8, "games": games,
        "game_engine_seconds_mean": round(statistics.mean(totals), 4),
        "game_engine_seconds_max": round(max(totals), 4),
        "asks_per_game_mean": round(statistics.mean(counts), 1),
        "ask_ms_median": round(statistics.median(asks) * 1000, 4),
        "ask_ms_p95": round(sorted(asks)[int(len(asks) * 0.95)] * 1000, 4),
        "targets": {"game_engine_seconds": 0.5, "ask_ms_median": 1.0},
        "ok": statistics.mean(totals) < 0.5 and statistics.median(asks) < 0.001,
    }, sort_keys=True))


if __name__ == "__main__":
    main()
