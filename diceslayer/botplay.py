"""Self-play of the Dice Slayer bot with timing (Django-free; used by the
``diceslayer_bot`` management command and ``bench/diceslayer_bot.py``).

The engine itself has no clock; timing a decision is this module's job.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import diceslayer.engine as engine


def play_one(seed: str, variant: str = "solo") -> tuple[int, list[float], list[float]]:
    """Play one solo game with the bot; return (final score, wall times, CPU times) with
    one time (in seconds) per decision. CPU time is what the search costs; wall time
    also counts whatever else the machine was doing."""
    state = engine.setup({"variant": variant}, [0], seed)
    wall: list[float] = []
    cpu: list[float] = []
    while not state.over:
        t0, c0 = time.perf_counter(), time.process_time()
        orders = engine.bot_orders(state, 0, seed)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        state = engine.resolve(engine.submit(state, 0, orders[0]).state, seed).state
    return state.players[0].score, wall, cpu


def run_games(games: int = 200, seed: str = "1", variant: str = "solo") -> dict[str, Any]:
    """Play ``games`` solo games (seeds ``f"{seed}:{i}"``) and summarise scores and times."""
    if variant not in ("solo", "solo_wild"):
        raise ValueError("the bot self-play runs the solo variants (solo, solo_wild)")
    if games < 1:
        raise ValueError("play at least one game")
    scores: list[int] = []
    rounds: list[int] = []
    times: list[float] = []
    cpu: list[float] = []
    t0 = time.perf_counter()
    for i in range(games):
        score, wall, c = play_one(f"{seed}:{i}", variant)
        scores.append(score)
        rounds.append(len(wall))
        times.extend(wall)
        cpu.extend(c)
    elapsed = time.perf_counter() - t0
    return {
        "variant": variant,
        "games": games,
        "seed": str(seed),
        "mean_score": round(statistics.mean(scores), 2),
        "median_score": statistics.median(scores),
        "min_score": min(scores),
        "max_score": max(scores),
        "mean_rounds": round(statistics.mean(rounds), 2),
        "decisions": len(times),
        "decision_ms_median": round(statistics.median(times) * 1000, 3),
        "decision_ms_mean": round(statistics.mean(times) * 1000, 3),
        "slowest_decision_ms": round(max(times) * 1000, 3),
        "decision_cpu_ms_median": round(statistics.median(cpu) * 1000, 3),
        "slowest_decision_cpu_ms": round(max(cpu) * 1000, 3),
        "games_per_second": round(games / elapsed, 3),
        "seconds": round(elapsed, 3),
    }
