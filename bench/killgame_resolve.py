"""Benchmark of the Kill Game engine; prints JSON.

- ``action_resolve_ms_median``: one Action phase close with 100 players and 10 monsters,
  every player having a combat order (goal ≤ 10 ms);
- ``match_30_players_s_median``: a whole simulated 30-player match with bots (goal < 1 s).

Usage: ``python bench/killgame_resolve.py [--repeat 30] [--matches 5]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from killgame import engine  # noqa: E402
from killgame.engine.errors import KillGameOrderError  # noqa: E402
from killgame.engine.simulate import simulate  # noqa: E402


def action_position(players: int = 100, monsters: int = 10, seed: str = "bench"):
    """A turn-2 Action phase with ``players`` players, ``monsters`` monsters, all ordering."""
    state = engine.setup({"monster_count": monsters, "min_players": 2,
                          "max_players": players}, list(range(players)), seed)
    lit = state.gmap.lit
    for i, p in enumerate(state.players):
        state = engine.submit(state, p.seat, {"type": "cart", "items": {
            "machine_gun" if i % 2 else "flamethrower": 1, "vest": 2, "grenade": 2,
            "k_ration": 2}}).state
        state = engine.submit(state, p.seat, {"type": "start_zone",
                                              "zone": lit[i % len(lit)]}).state
    state = engine.resolve(state, seed).state  # turn 1 Tactical close
    state = engine.resolve(state, seed).state  # turn 1 Action close
    state = engine.resolve(state, seed).state  # turn 2 Tactical close
    for p in state.players:
        if not p.alive:
            continue
        for o in engine.bot_orders(state, p.seat, seed):
            try:
                state = engine.submit(state, p.seat, o).state
            except KillGameOrderError:
                pass
    assert state.phase == "action" and len(state.players) == players
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args(argv)
    state = action_position()
    orders = sum(len(p.orders) for p in state.players)
    times = []
    cpu = []
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        engine.resolve(state, "bench")
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    match_times = []
    turns = []
    for i in range(args.matches):
        t0 = time.perf_counter()
        summary = simulate(30, seed=f"bench-{i}")
        match_times.append(time.perf_counter() - t0)
        turns.append(summary["turns"])
    out = {
        "bench": "killgame_resolve",
        "action_players": len(state.players),
        "action_monsters": sum(1 for m in state.monsters if m.alive),
        "action_orders": orders,
        "action_resolve_ms_median": round(statistics.median(times), 3),
        "action_resolve_ms_max": round(max(times), 3),
        # CPU time is steadier than wall time on a shared machine
        "action_resolve_cpu_ms_median": round(statistics.median(cpu), 3),
        "action_goal_ms": 10,
        "match_30_players_s_median": round(statistics.median(match_times), 4),
        "match_30_players_s_max": round(max(match_times), 4),
        "match_turns": turns,
        "match_goal_s": 1,
    }
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
