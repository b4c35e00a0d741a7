"""Whole bot games, pure: wins by identity, length in asks and turns, invariant violations."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from sanguosha import engine
from sanguosha.engine.data import CARDS, deck_numbers
from sanguosha.engine.state import State

JSON = dict[str, Any]


def invariants(state: State) -> list[str]:
    """Card conservation, HP bounds, the dead never awaited (a list of violations)."""
    st = state.raw
    bad: list[str] = []
    seen: list[int] = list(st["draw"]) + list(st["discard"]) + list(st["proc"])
    for p in st["seats"]:
        seen += p["hand"] + [c for c in p["equip"].values() if c is not None] + p["judg"]
        if p["hp"] > p["max_hp"]:
            bad.append(f"seat {p['seat']} hp {p['hp']} above max {p['max_hp']}")
        dying = {f.get("player") for f in st["stack"] if f["t"] in ("dying", "death")}
        if p["alive"] and p["character"] and p["hp"] < 1 and p["seat"] not in dying \
                and not st["over"]:
            bad.append(f"seat {p['seat']} alive at hp {p['hp']} outside dying")
        for slot, c in p["equip"].items():
            if c is not None and CARDS[c].kind != slot:
                bad.append(f"card {c} in the wrong slot {slot}")
    if not st.get("scenario"):
        expected = deck_numbers(st["config"]["deck"])
        if sorted(seen) != expected:
            bad.append("card conservation broken")
    if len(seen) != len(set(seen)):
        bad.append("a card is in two zones")
    if st["ask"]:
        for s in st["ask"]["awaited"]:
            if not st["seats"][s]["alive"]:
                bad.append(f"dead seat {s} awaited")
    return bad


def play_game(players: int, seed: str, *, max_asks: int = 20000, config: JSON | None = None,
              check: bool = True) -> JSON:
    """One bot game; returns its result and measurements."""
    state = engine.setup(config or {}, list(range(players)), seed)
    asks = 0
    violations: list[str] = []
    t0 = time.perf_counter()
    while not state.raw["over"] and asks < max_asks:
        for s in engine.awaiting(state):
            order = engine.bot_orders(state, s, f"{seed}:{asks}:{s}")[0]
            state = engine.submit(state, s, order).state
            if not engine.awaiting(state):
                break
        state = engine.resolve(state, f"{seed}:{asks}").state
        asks += 1
        if check:
            violations += invariants(state)
    elapsed = time.perf_counter() - t0
    st = state.raw
    return {"seed": seed, "over": st["over"], "reason": st["end_reason"], "winners": st["winners"],
            "winner_identities": sorted({st["seats"][s]["identity"] for s in st["winners"]}),
            "asks": asks, "turns": st["turn"], "seconds": elapsed, "violations": violations,
            "state": state}


def simulate(players: int = 8, games: int = 100, seed: int | str = 1,
             config: JSON | None = None) -> JSON:
    """Many bot games: wins by identity, mean length, invariant violations."""
    wins: Counter[str] = Counter()
    asks = turns = 0
    violations: list[str] = []
    unfinished = draws = 0
    for g in range(games):
        r = play_game(players, f"{seed}-{g}", config=config)
        asks += r["asks"]
        turns += r["turns"]
        violations += [f"game {g}: {v}" for v in r["violations"]]
        if not r["over"]:
            unfinished += 1
        elif r["reason"] == "draw":
            draws += 1
        else:
            key = "+".join(r["winner_identities"]) or "none"
            wins[key] += 1
    return {"players": players, "games": games, "seed": seed, "wins": dict(wins),
            "draws": draws, "unfinished": unfinished,
            "mean_asks": asks / games if games else 0, "mean_turns": turns / games if games else 0,
            "violations": violations[:50], "violation_count": len(violations)}
