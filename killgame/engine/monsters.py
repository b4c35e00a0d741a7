"""Monsters (§6.4, §12): creation, movement, attacks and replacement."""

from __future__ import annotations

from .context import Ctx
from .rng import pick, sample
from .state import MMonster, Monster


def _free_zones(ctx: Ctx) -> list[str]:
    taken = {m.zone for m in ctx.monsters if m.alive}
    return [z for z in ctx.gmap.zones if z not in ctx.closed and z not in taken]


def spawn(ctx: Ctx) -> MMonster | None:
    """Create the next monster on a free active zone (two draws on stream ``spawn``)."""
    free = _free_zones(ctx)
    if not free:
        return None
    rng = ctx.rng["spawn"]
    zone = pick(rng, free)
    lo, hi = int(ctx.cfg["monster_damage_min"]), int(ctx.cfg["monster_damage_max"])
    dmg = lo + rng.randrange(hi - lo + 1)
    ctx.next_monster += 1
    m = MMonster(Monster(number=ctx.next_monster, zone=zone, energy=dmg, damage=dmg))
    ctx.monsters.append(m)
    ctx.by_mid[m.mid] = m
    return m


def create_initial(ctx: Ctx) -> None:
    """§6.4: ``monster_count`` monsters; extra ones are not created when zones run out."""
    for _ in range(int(ctx.cfg["monster_count"])):
        if spawn(ctx) is None:
            break


def move(ctx: Ctx) -> None:
    """§12 movement, in number order, each onto a free adjacent active zone (``pick``)."""
    rng = None
    for m in ctx.monsters:
        if not m.alive or m.zone is None:
            continue
        taken = {o.zone for o in ctx.monsters if o.alive and o is not m}
        adj = ctx.gmap.adjacent[m.zone]
        options = [z for z in adj if z not in ctx.closed and z not in taken]
        if not options and m.zone in ctx.closed:
            options = [z for z in adj if z not in taken]
        if options:
            if rng is None:
                rng = ctx.rng["monster_move"]
            m.zone = pick(rng, options)


def attack(ctx: Ctx, heard: set[str]) -> None:
    """§12 attack: ``(n + 1) // 2`` of the n unprotected living players, not doubled."""
    for m in ctx.monsters:
        if not m.alive or m.zone is None:
            continue
        zone = m.zone
        eligible = [p for p in ctx.players if p.alive and p.zone == zone
                    and "amulet" not in p.worn]
        k = (len(eligible) + 1) // 2
        if k == 0:
            continue
        victims = sample(ctx.rng["monster_target"], eligible, k)
        heard.add(zone)
        smoked = zone in ctx.smoked_now
        for v in victims:
            ctx.lose(v, m.damage, "monster")
            ctx.me(v, "monster_hit", {"zone": zone, "amount": m.damage, "smoked": smoked})
        if not smoked:
            ctx.emit("monster_attack", {"zone": zone, "victims": [v.pid for v in victims]},
                     ctx.occupants.get(zone, frozenset()))


def replace_dead(ctx: Ctx) -> None:
    """§12 replacement: one new monster per monster that died in this Action phase."""
    stop = int(ctx.cfg["monster_spawn_stop_at_living"])
    for _dead in sorted(ctx.monsters_died_now, key=lambda m: m.number):
        if len(ctx.living_players()) <= stop:
            return
        spawn(ctx)
