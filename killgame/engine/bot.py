"""The Kill Game bot: sensible orders decided from a player view only (never the state).

Turn 1: buy a sensible backpack and start in a zone that closes late. Later Tactical phases:
leave a zone that is closed or closes next, heal when hurt, cure poison, top up rations.
Action phases: wear a vest when others are around and an amulet when a monster is there,
attack with the best weapon (at random in smoke), bomb a neighbouring zone when alone, and
shout when persuasion is high.
"""

from __future__ import annotations

import random
from typing import Any

FIREARM_PREF = ("shotgun", "machine_gun", "flamethrower", "poison_crossbow", "sniper_rifle")
CARTS = (
    {"shotgun": 1, "small_knife": 1, "medkit": 3, "vest": 2, "grenade": 1, "k_ration": 3},
    {"machine_gun": 1, "rambo_knife": 1, "medkit": 2, "vest": 2, "amulet": 1, "k_ration": 3},
    {"flamethrower": 1, "medkit": 3, "vest": 1, "gas_mask": 1, "amulet": 1, "k_ration": 3},
    {"poison_crossbow": 1, "ninja_knife": 1, "medkit": 2, "c4": 1, "smoke_grenade": 1,
     "gas_canister": 1, "k_ration": 2},
)


def _cart(view: dict[str, Any], rng: random.Random) -> dict[str, int]:
    budget = view["me"]["coins"]
    prices = {k: v["buy"] for k, v in view["catalogue"].items()}
    cart = dict(rng.choice(CARTS))
    if not view["k_rations_enabled"]:
        cart.pop("k_ration", None)

    def total() -> int:
        return sum(prices[i] * n for i, n in cart.items())
    # trim the cheapest-to-lose lines until it fits
    for item in ("k_ration", "grenade", "c4", "amulet", "gas_mask", "smoke_grenade",
                 "gas_canister", "vest", "medkit", "small_knife", "ninja_knife",
                 "rambo_knife"):
        while item in cart and total() > budget:
            cart[item] -= 1
            if cart[item] <= 0:
                del cart[item]
    if total() > budget:
        cart = {}
    return cart


def _distance_map(view: dict[str, Any], start: str) -> dict[str, int]:
    adj = {z["id"]: z["adjacent"] for z in view["map"]["zones"]}
    closed = {z["id"] for z in view["map"]["zones"] if z["closed"]}
    dist = {start: 0}
    todo = [start]
    while todo:
        z = todo.pop(0)
        for n in adj[z]:
            if n not in dist and n not in closed:
                dist[n] = dist[z] + 1
                todo.append(n)
    return dist


def bot_orders(view: dict[str, Any], seed: str) -> list[dict[str, Any]]:
    """Orders for the viewer of ``view`` (a :func:`killgame.engine.view.player_view`)."""
    me = view.get("me")
    if not me or not me.get("alive") or view["over"]:
        return []
    rng = random.Random(f"{seed}|bot|{view['turn']}|{view['phase']}|{me['id']}")
    if view["phase"] == "tactical":
        return _tactical(view, me, rng)
    return _action(view, me, rng)


def _tactical(view: dict[str, Any], me: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    if view["turn"] == 1:
        starts = view["start_zones"]
        # favour the zones that close late (the end of the closure order)
        zone = starts[len(starts) // 2 + rng.randrange((len(starts) + 1) // 2)]
        return [{"type": "cart", "items": _cart(view, rng)},
                {"type": "start_zone", "zone": zone}]
    out: list[dict[str, Any]] = []
    items = me["items"]
    if me["poisoned"] and items.get("antidote"):
        out.append({"type": "antidote"})
    energy = me["energy"]
    kits = items.get("medkit", 0)
    while kits and energy <= 17:
        out.append({"type": "medkit", "target": "self"})
        kits -= 1
        energy += (2 * (25 - energy) + 4) // 5
    zone = me["zone"]
    nxt = view["next_to_close"]
    central = view["map"]["central"]
    moves = view["moves"]
    crowd = view["zone"]["presences"]
    # weak and outnumbered: run; otherwise leave zones that are closed or close next
    must_leave = view["zone"]["closed"] or zone == nxt or (
        zone == central and view["k_rations_enabled"]) or (energy <= 10 and crowd >= 2)
    stays = not (moves and must_leave)
    if (stays and crowd and items.get("gas_canister") and items.get("gas_mask")
            and not (zone == central and view["k_rations_enabled"])
            and not view["zone"]["closed"]):
        # gas our own zone and wear the mask in the Action phase
        out.append({"type": "gas", "zone": zone})
    if moves and (must_leave or rng.randrange(4) == 0):
        never = set(view["map"]["never_close"])
        order = view["map"]["closure_order"]
        rank = {z: (len(order) + 1 if z in never else order.index(z)) for z in moves}
        safe = [z for z in moves if z != nxt]
        if not view["k_rations_enabled"] or items.get("k_ration", 0) > 1:
            safe = [z for z in safe if z != central] or safe
        if safe:
            best = max(rank[z] for z in safe)
            choices = [z for z in safe if rank[z] >= best - 1]
            out.append({"type": "move", "to": rng.choice(choices)})
    market = view.get("market")
    if market and me["purchases_left"] > 0:
        prices = market["prices"]
        wish = []
        if view["k_rations_enabled"] and items.get("k_ration", 0) < 2:
            wish.append("k_ration")
        if items.get("medkit", 0) < 1:
            wish.append("medkit")
        if not me["firearm"]:
            wish.append("sniper_rifle")
        if not items.get("vest") and coins_ok(me, 400):
            wish.append("vest")
        coins = me["coins"]
        for item in wish[:me["purchases_left"]]:
            if prices[item]["buy"] <= coins:
                out.append({"type": "buy", "item": item})
                coins -= prices[item]["buy"]
    return out


def coins_ok(me: dict[str, Any], reserve: int) -> bool:
    return bool(me["coins"] >= reserve)


def _action(view: dict[str, Any], me: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    items = me["items"]
    zone = view["zone"]
    others = zone["presences"]
    wear = []
    if others and items.get("vest"):
        wear.append("vest")
    if zone["monster"] and items.get("amulet"):
        wear.append("amulet")
    if zone["gassed"] and items.get("gas_mask"):
        wear.append("gas_mask")
    if wear:
        out.append({"type": "wear", "items": wear})
    if view["turn"] >= 2 and me["persuasion"] >= 80:
        out.append({"type": "shout"})
    reloading = me["reload_turn"] == view["turn"]
    weapon = me["firearm"]
    if weapon in ("machine_gun", "shotgun") and reloading:
        weapon = None
    if weapon is None:
        weapon = me["knife"] or "fists"
    if others:
        if zone["smoked"]:
            shots = 2 if weapon in ("machine_gun", "ninja_knife") else 1
            if weapon == "flamethrower":
                shots = others
            out.append({"type": "attack", "weapon": weapon, "random": min(shots, max(1, others))
                        if weapon == "flamethrower" else shots})
        else:
            allies = {a["id"] for a in view.get("allies", [])}
            targets = [q["id"] for q in zone["players"] if q["id"] not in allies]
            if zone["monster_id"] and (not targets or rng.randrange(3) == 0):
                targets = [zone["monster_id"]]
            if not targets:
                return out
            if weapon == "flamethrower":
                out.append({"type": "attack", "weapon": weapon, "targets": targets})
            elif weapon in ("machine_gun", "ninja_knife"):
                t = rng.choice(targets)
                out.append({"type": "attack", "weapon": weapon, "targets": [t, t]})
            else:
                out.append({"type": "attack", "weapon": weapon,
                            "targets": [rng.choice(targets)]})
    elif view["turn"] >= 2 and (items.get("grenade") or items.get("c4")):
        # alone: lob an explosive into a neighbouring open zone to please the audience
        central = view["map"]["central"]
        zones = {z["id"]: z for z in view["map"]["zones"]}
        near = [z for z in zones[zone["id"]]["adjacent"] if not zones[z]["closed"]
                and not (view["k_rations_enabled"] and z == central)]
        if near:
            kind = "c4" if items.get("c4") else "grenade"
            out.append({"type": kind, "zone": rng.choice(near)})
    return out
