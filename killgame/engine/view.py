"""What each seat may see (§18): :func:`player_view` (one door for hidden information) and
:func:`omniscient_view` (director, post-game replay).

While the match runs, a living player sees the public part, their own private fields, the
roster of their own zone (names, or only a count inside smoke), clouds in or next to their
zone, their allies' identity and alive status, and the market. Spectators and dead players see
only the public part. After the match ends everything is public (§18.7).
"""

from __future__ import annotations

from typing import Any

from . import catalogue as cat
from .market import price_list
from .serialize import dump
from .state import ACTION, TACTICAL, Player, State, are_allies


def _public(state: State) -> dict[str, Any]:
    gmap = state.gmap
    closed = state.closed
    nxt = (gmap.closure_order[state.closed_count]
           if state.closed_count < len(gmap.closure_order) else None)
    cfg = state.config
    return {
        "game": "killgame",
        "map": {
            "id": gmap.id, "name": gmap.name, "central": gmap.central,
            "default_start": gmap.default_start,
            "closure_order": list(gmap.closure_order),
            "never_close": list(gmap.never_close),
            "zones": [{"id": z, "name": gmap.names[z], "gloss": gmap.glosses[z],
                       "closed": z in closed, "adjacent": list(gmap.adjacent[z])}
                      for z in gmap.zones],
        },
        "mode": cfg["mode"],
        "k_rations_enabled": cfg["k_rations_enabled"],
        "check_enabled": cfg["check_enabled"],
        "turn": state.turn,
        "phase": state.phase,
        "over": state.over,
        "winners": list(state.winners),
        "closed": [z for z in gmap.closure_order if z in closed],
        "next_to_close": nxt,
        "living_count": sum(1 for p in state.players if p.alive),
        "double_damage": state.double_damage if state.phase == ACTION else False,
        "players": [{"id": p.pid, "seat": p.seat, "alive": p.alive}
                    for p in sorted(state.players, key=lambda p: p.seat)],
    }


def _me(state: State, p: Player) -> dict[str, Any]:
    cfg = state.config
    T = state.turn
    return {
        "id": p.pid, "seat": p.seat, "rules_seat": p.rseat, "team": p.team, "alive": p.alive,
        "zone": p.zone, "energy": p.energy, "coins": p.coins, "firearm": p.firearm,
        "knife": p.knife, "weapon_melee": p.knife or cat.FISTS,
        "items": dict(p.items), "options": list(p.options),
        "poisoned": p.poison_until >= T and p.poison_until > 0,
        "poison_ticks_left": max(0, p.poison_until - T + 1) if p.poison_until >= T else 0,
        "reload_turn": p.reload_turn,
        # the machine gun / shotgun cannot fire in this turn's Action phase
        "reloading": p.reload_turn == T,
        "approval": p.approval, "persuasion": p.persuasion,
        "orders": [{"slot": o.slot, "seq": o.seq, "order": dict(o.order)} for o in p.orders],
        "checked": p.checked,
        "purchases_left": max(0, int(cfg["market_purchase_limit"]) - p.bought),
    }


def _zone_view(state: State, p: Player) -> dict[str, Any] | None:
    if p.zone is None:
        return None
    T = state.turn
    smoked = (p.zone in state.smoke) if state.phase == ACTION else (p.zone in state.last_smoked)
    out: dict[str, Any] = {"id": p.zone, "closed": p.zone in state.closed, "smoked": smoked,
                           "gassed": state.gas.get(p.zone, 0) >= T}
    others = [q for q in state.players if q.alive and q.zone == p.zone and q is not p]
    mon = next((m for m in state.monsters if m.alive and m.zone == p.zone), None)
    monster = mon is not None
    if smoked:
        out.update(players=None, monster=None, monster_id=None,
                   presences=len(others) + int(monster))
    else:
        out.update(players=[{"id": q.pid, "seat": q.seat, "teammate": _ally_known(state, p, q)}
                            for q in others],
                   monster=monster, monster_id=mon.mid if mon else None,
                   presences=len(others) + int(monster))
    return out


def _ally_known(state: State, p: Player, q: Player) -> bool:
    if not are_allies(state.config, p, q):
        return False
    # district partners are revealed when turn 1's Action phase opens
    return not (state.config["mode"] == "districts" and state.turn == 1
                and state.phase == TACTICAL)


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    """Exactly what ``seat`` (None = spectator) may see; JSON only."""
    view = _public(state)
    if state.over:
        view["omniscient"] = omniscient_view(state)
    p = state.player_by_seat(seat) if seat is not None else None
    if p is None:
        view["me"] = None
        return view
    if not p.alive:
        view["me"] = {"id": p.pid, "seat": p.seat, "alive": False, "died_turn": p.died_turn}
        return view
    gmap = state.gmap
    T = state.turn
    view["me"] = _me(state, p)
    view["zone"] = _zone_view(state, p)
    view["allies"] = [{"id": q.pid, "seat": q.seat, "alive": q.alive}
                      for q in state.players if _ally_known(state, p, q)]
    clouds = []
    if p.zone is not None:
        for z in (p.zone, *gmap.adjacent[p.zone]):
            for kind, table in (("smoke", state.smoke), ("gas", state.gas)):
                if table.get(z, 0) >= T:
                    clouds.append({"zone": z, "cloud": kind, "until": table[z]})
    view["clouds"] = clouds
    if state.phase == TACTICAL and T == 1:
        view["start_zones"] = list(gmap.lit)
        view["catalogue"] = price_list(state.config, "unchanged")
        view["market"] = None
        view["moves"] = []
    elif state.phase == TACTICAL:
        view["market"] = {"regime": state.market,
                          "prices": price_list(state.config, state.market or "unchanged")}
        closed = state.closed
        adj = gmap.adjacent[p.zone] if p.zone else ()
        stuck = p.zone in closed and all(z in closed for z in adj)
        view["moves"] = [z for z in adj if z not in closed or stuck]
    else:
        view["market"] = None
        view["moves"] = []
    return view


def omniscient_view(state: State) -> dict[str, Any]:
    """Everything (the director and the post-game replay)."""
    out = dump(state)
    out["game"] = "killgame"
    return out
