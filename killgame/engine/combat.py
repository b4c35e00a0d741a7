"""The combat step (§11, §16.2 step 5): firearm, knife and fist attacks, explosives with the
per-zone cap, gas; vests, double damage, crossbow poison, smoke-random targets, noise.
"""

from __future__ import annotations

from typing import Any

from . import catalogue as cat
from .context import Ctx
from .rng import pick, sample
from .state import MMonster, MPlayer


def hit_damage(base: int, weapon: str, double: bool, *, vest: bool, reinforced: bool) -> int:
    """One hit (§11.1): weapon damage, ×2 under double damage, then the target's vest.

    >>> hit_damage(3, "sniper_rifle", True, vest=True, reinforced=False)
    3
    """
    d = base * 2 if double else base
    if vest:
        if weapon in cat.MELEE:
            return 0
        if weapon in cat.VEST_HALVES:
            return 0 if reinforced else d // 2
    return d


def _entities_in(ctx: Ctx, zone: str, exclude: MPlayer | None = None) -> list[Any]:
    out: list[Any] = [q for q in ctx.players if q.alive and q.zone == zone and q is not exclude]
    out += [m for m in ctx.monsters if m.alive and m.zone == zone]
    return out


def _ent_id(e: MPlayer | MMonster) -> str:
    return e.pid if isinstance(e, MPlayer) else e.mid


def attacks(ctx: Ctx, combat: dict[str, dict[str, Any]], gunfire: dict[str, int]) -> None:
    """Step 5a: attacks by seat; smoke draws in attacker seat order, then shot order."""
    cfg = ctx.cfg
    double = ctx.double_damage
    for p in ctx.players:
        o = combat.get(p.pid)
        if o is None or o["type"] != "attack":
            continue
        w = o["weapon"]
        zone = p.zone
        assert zone is not None
        base = int(cfg["weapons"][w]["damage"])
        smoked = zone in ctx.smoked_now
        if "random" in o:
            pres = _entities_in(ctx, zone, exclude=p)
            k = o["random"]
            if w == "flamethrower":
                hits = sample(ctx.rng["smoke"], pres, min(k, len(pres)))
            else:
                hits = [pick(ctx.rng["smoke"], pres) for _ in range(k)]
            p.attacked = True
        else:
            hits = [ctx.by_pid.get(t) or ctx.by_mid[t] for t in o["targets"]]
            if any(isinstance(h, MMonster) or not ctx.allies(p, h) for h in hits):
                p.attacked = True
        if w in cat.RELOADING:
            p.fired_reloading = True
        if w in cat.FIREARMS:
            gunfire[zone] = gunfire.get(zone, 0) + len(hits)
        witnesses = ctx.occupants.get(zone, frozenset())
        smoke_hits: dict[int, int] = {}
        for h in hits:
            if isinstance(h, MPlayer):
                amount = hit_damage(base, w, double, vest="vest" in h.worn,
                                    reinforced="reinforced_vests" in h.options)
                if w == "poison_crossbow":
                    h.poison_until = max(h.poison_until,
                                         ctx.turn + int(cfg["crossbow_poison_turns"]))
            else:
                amount = base * 2 if double else base
            ctx.hurt(h, amount, w)
            if smoked:
                if isinstance(h, MPlayer):
                    smoke_hits[h.seat] = smoke_hits.get(h.seat, 0) + amount
                    ctx.emit("attack", {"smoked": True, "zone": zone, "victim": h.pid,
                                        "amount": amount}, (h.seat,))
                continue
            victim = _ent_id(h)
            private = {p.seat} | ({h.seat} if isinstance(h, MPlayer) else set())
            data = {"attacker": p.pid, "victim": victim, "weapon": w, "zone": zone}
            ctx.emit("attack", {**data, "amount": amount}, private)
            others = witnesses - private
            if others:
                ctx.emit("attack", {**data, "amount": None}, others)
        if smoked:
            ctx.emit("attack", {"smoked": True, "zone": zone, "attacker": p.pid, "weapon": w,
                                "hits": len(hits)}, (p.seat,))


def explosives(ctx: Ctx, bombs: list[tuple[int, MPlayer, str, str]],
               noise: dict[str, int]) -> None:
    """Step 5b: per zone (listing order), the first ``explosives_cap_per_zone`` by sequence
    number are effective; every entity in the zone takes the (doubled) damage (§11.4)."""
    cfg = ctx.cfg
    cap = int(cfg["explosives_cap_per_zone"])
    by_zone: dict[str, list[tuple[int, MPlayer, str]]] = {}
    for seq, p, kind, zone in bombs:
        by_zone.setdefault(zone, []).append((seq, p, kind))
        p.take(kind)
        p.attacked = True
    for zone in ctx.gmap.zones:
        lst = by_zone.get(zone)
        if not lst:
            continue
        lst.sort(key=lambda t: t[0])
        noise[zone] = noise.get(zone, 0) + len(lst)
        victims = _entities_in(ctx, zone)
        witnesses = ctx.occupants.get(zone, frozenset())
        for i, (seq, p, kind) in enumerate(lst):
            effective = i < cap
            ctx.emit("explosion_result", {"zone": zone, "type": kind, "effective": effective,
                                          "player": p.pid}, (p.seat,))
            if not effective:
                continue
            dmg = int(cfg["grenade_damage" if kind == "grenade" else "c4_damage"])
            if ctx.double_damage:
                dmg *= 2
            for v in victims:
                ctx.hurt(v, dmg, kind)
            if witnesses:
                if zone in ctx.smoked_now:
                    # §18.2: inside smoke the blast is only "an unknown source" hitting you
                    ctx.emit("explosion", {"zone": zone, "smoked": True, "damage": dmg},
                             witnesses)
                else:
                    ctx.emit("explosion", {"zone": zone, "type": kind, "damage": dmg},
                             witnesses)


def gas(ctx: Ctx) -> None:
    """Step 5c: every living entity in a gassed zone takes ``gas_damage`` unless masked."""
    dmg = int(ctx.cfg["gas_damage"])
    for zone in ctx.gmap.zones:
        if ctx.gas.get(zone, 0) < ctx.turn:
            continue
        for v in _entities_in(ctx, zone):
            if isinstance(v, MPlayer):
                if "gas_mask" in v.worn:
                    ctx.me(v, "gas_damage", {"zone": zone, "amount": 0, "masked": True})
                    continue
                ctx.me(v, "gas_damage", {"zone": zone, "amount": dmg, "masked": False})
            ctx.hurt(v, dmg, "gas")
