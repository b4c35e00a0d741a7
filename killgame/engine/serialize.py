"""Lossless JSON form of the state: ``load(dump(s)) == s``."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from .state import Monster, Player, State, StoredOrder


def _copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, tuples of scalars), several times
    faster than ``copy.deepcopy`` (no memo, no dispatch per type): loading a state is on
    every match page rendered anew and every close. Anything else goes to ``deepcopy``."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, tuple):
        return tuple(_copy(v) for v in value)
    return copy.deepcopy(value)

FORMAT = 1


def _order_json(so: StoredOrder) -> dict[str, Any]:
    return {"slot": so.slot, "seq": so.seq, "order": _copy(dict(so.order))}


def dump_player(p: Player) -> dict[str, Any]:
    return {
        "seat": p.seat, "rseat": p.rseat, "pid": p.pid, "team": p.team, "alive": p.alive,
        "zone": p.zone, "energy": p.energy, "coins": p.coins, "firearm": p.firearm,
        "knife": p.knife, "items": dict(p.items), "options": list(p.options),
        "poison_until": p.poison_until, "reload_turn": p.reload_turn, "approval": p.approval,
        "persuasion": p.persuasion, "orders": [_order_json(o) for o in p.orders],
        "checked": p.checked, "bought": p.bought, "died_turn": p.died_turn,
    }


def dump(state: State) -> dict[str, Any]:
    """The state as plain JSON."""
    return {
        "format": FORMAT,
        "config": _copy(dict(state.config)),
        "map_id": state.map_id, "turn": state.turn, "phase": state.phase,
        "players": [dump_player(p) for p in state.players],
        "monsters": [{"number": m.number, "zone": m.zone, "energy": m.energy,
                      "damage": m.damage, "alive": m.alive} for m in state.monsters],
        "next_monster": state.next_monster, "closed_count": state.closed_count,
        "smoke": dict(state.smoke), "gas": dict(state.gas),
        "last_smoked": list(state.last_smoked), "market": state.market,
        "double_damage": state.double_damage, "seq": state.seq, "over": state.over,
        "winners": list(state.winners), "stats": _copy(dict(state.stats)),
        "seed": state.seed,
    }


def load(raw: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`dump` output."""
    if raw.get("format") != FORMAT:
        raise ValueError("Unknown Kill Game state format.")
    players = tuple(
        Player(seat=p["seat"], rseat=p["rseat"], pid=p["pid"], team=p["team"],
               alive=p["alive"], zone=p["zone"], energy=p["energy"], coins=p["coins"],
               firearm=p["firearm"], knife=p["knife"], items=dict(p["items"]),
               options=tuple(p["options"]), poison_until=p["poison_until"],
               reload_turn=p["reload_turn"], approval=p["approval"],
               persuasion=p["persuasion"],
               orders=tuple(StoredOrder(o["slot"], o["seq"], _copy(o["order"]))
                            for o in p["orders"]),
               checked=p["checked"], bought=p["bought"], died_turn=p["died_turn"])
        for p in raw["players"])
    monsters = tuple(Monster(number=m["number"], zone=m["zone"], energy=m["energy"],
                             damage=m["damage"], alive=m["alive"]) for m in raw["monsters"])
    return State(
        config=_copy(dict(raw["config"])), map_id=raw["map_id"], turn=raw["turn"],
        phase=raw["phase"], players=players, monsters=monsters,
        next_monster=raw["next_monster"], closed_count=raw["closed_count"],
        smoke=dict(raw["smoke"]), gas=dict(raw["gas"]),
        last_smoked=tuple(raw["last_smoked"]), market=raw["market"],
        double_damage=raw["double_damage"], seq=raw["seq"], over=raw["over"],
        winners=tuple(raw["winners"]), stats=_copy(dict(raw["stats"])),
        seed=raw.get("seed", ""),
    )
