"""Random legal play for property tests: candidate orders drawn at random, refused ones
dropped, so every stored order is one the engine accepted."""

from __future__ import annotations

import random
from typing import Any

from killgame import engine
from killgame.engine import catalogue as cat
from killgame.engine.errors import KillGameOrderError
from killgame.engine.state import State


def candidates(state: State, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    p = state.player_by_seat(seat)
    assert p is not None
    gmap = state.gmap
    all_zones = list(gmap.zones)
    near = [p.zone, *gmap.adjacent[p.zone]] if p.zone else list(gmap.lit)
    all_ids = [q.pid for q in state.players] + [m.mid for m in state.monsters]
    here = [q.pid for q in state.players if q.zone == p.zone and q.alive and q is not p]
    here += [m.mid for m in state.monsters if m.alive and m.zone == p.zone]
    # mostly plausible choices, sometimes anything (to exercise refusals)
    zones = near if rng.randrange(4) else all_zones
    ids = (here or all_ids) if rng.randrange(4) else all_ids
    out: list[dict[str, Any]] = []
    for _ in range(rng.randrange(1, 6)):
        kind = rng.choice(["move", "start_zone", "cart", "medkit", "antidote", "smoke", "gas",
                           "buy", "sell", "attack", "attack", "attack", "grenade", "c4",
                           "wear", "shout", "withdraw", "check"])
        if kind == "move":
            out.append({"type": "move", "to": rng.choice(zones)})
        elif kind == "start_zone":
            out.append({"type": "start_zone", "zone": rng.choice(
                list(gmap.lit) if rng.randrange(4) else all_zones)})
        elif kind == "cart":
            items = {i: rng.randrange(1, 3) for i in rng.sample(cat.CATALOGUE, 4)}
            guns = sorted(set(cat.FIREARMS) & set(items))
            for extra in guns[1:]:
                del items[extra]
            out.append({"type": "cart", "items": items})
        elif kind == "medkit":
            out.append({"type": "medkit", "target": rng.choice(["self"] + ids)})
        elif kind in ("smoke", "gas", "grenade", "c4"):
            out.append({"type": kind, "zone": rng.choice(zones)})
        elif kind in ("buy", "sell"):
            out.append({"type": kind, "item": rng.choice(cat.CATALOGUE)})
        elif kind == "attack":
            w = rng.choice([p.firearm, p.knife, "fists"] if (p.firearm or p.knife) else ["fists"])
            if w is None:
                w = "fists"
            if rng.randrange(3) == 0:
                out.append({"type": "attack", "weapon": w, "random": rng.randrange(1, 3)})
            else:
                out.append({"type": "attack", "weapon": w,
                            "targets": [rng.choice(ids) for _ in range(rng.randrange(1, 3))]})
        elif kind == "wear":
            out.append({"type": "wear", "items": rng.sample(list(cat.WEARABLE),
                                                           rng.randrange(1, 4))})
        elif kind == "withdraw":
            out.append({"type": "withdraw", "slot": rng.choice(["combat", "move", "wear"])})
        else:
            out.append({"type": kind})
    return out


def play_phase(state: State, rng: random.Random) -> tuple[State, list[tuple[int, dict]]]:
    """Submit random legal orders for every living seat; return the accepted ones."""
    accepted = []
    for p in state.players:
        if not p.alive:
            continue
        # half the time the bot plays (longer, richer matches), else random candidates
        orders = (list(engine.bot_orders(state, p.seat, str(rng.random())))
                  if rng.randrange(2) else candidates(state, p.seat, rng))
        for o in orders:
            try:
                state = engine.submit(state, p.seat, o).state
            except KillGameOrderError:
                continue
            accepted.append((p.seat, o))
    return state, accepted
