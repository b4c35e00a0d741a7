"""Audience approval and the challenge shout (§15): shouts, approval deltas, rewards,
punishments and persuasion."""

from __future__ import annotations

from .context import Ctx
from .rng import chance, weighted
from .state import MPlayer


def shouts(ctx: Ctx, shouters: list[MPlayer]) -> None:
    """§15.2 / step 4: roll ``chance(persuasion)`` by seat; reveal the shouter's zone."""
    dec = int(ctx.cfg["persuasion_shout_decrease"])
    for p in shouters:
        success = chance(ctx.rng["shout"], p.persuasion)
        p.shout = success
        p.persuasion = max(0, p.persuasion - dec)
        ctx.emit("shout", {"player": p.pid, "zone": p.zone}, None)
        ctx.me(p, "shout_result", {"success": success, "persuasion": p.persuasion})


def approval(ctx: Ctx) -> None:
    """§15.1 / step 10: +1 for attacking an opponent or bombing, else 0 if alone, else −1;
    plus the shout modifier."""
    bonus = int(ctx.cfg["shout_approval"])
    for p in ctx.players:
        if not p.alive:
            continue
        delta = 1 if p.attacked else (-1 if p.has_opp else 0)
        if p.shout is not None:
            delta += bonus if p.shout else -bonus
        p.approval += delta
        ctx.me(p, "approval", {"delta": delta, "approval": p.approval})


def rewards(ctx: Ctx) -> None:
    """§15.4 / step 11: reward at ≥ threshold, punishment at ≤ −threshold, then reset."""
    th = int(ctx.cfg["approval_threshold"])
    rows = [r for r in ctx.cfg["rewards"]
            if ctx.cfg["k_rations_enabled"] or "k_ration" not in r[1]]
    pun = ctx.cfg["punishments"]
    for p in ctx.players:
        if not p.alive:
            continue
        if p.approval >= th and rows:
            label, items, _w = rows[weighted(ctx.rng["reward"], [r[2] for r in rows])]
            for item, n in items.items():
                p.give(item, n)
            ctx.stats["rewards"] += 1
            ctx.me(p, "reward", {"label": label, "items": dict(items)})
            p.approval = 0
        elif p.approval <= -th:
            amount = pun[weighted(ctx.rng["reward"], [r[1] for r in pun])][0]
            ctx.lose(p, amount, "punishment")
            ctx.stats["punishments"] += 1
            ctx.me(p, "punishment", {"amount": amount})
            p.approval = 0


def persuasion(ctx: Ctx) -> None:
    """§15.2 / step 12: +20 (cap 100) in every Action phase from turn 2 without a shout."""
    if ctx.turn < 2:
        return
    inc = int(ctx.cfg["persuasion_rest_increase"])
    for p in ctx.players:
        if p.alive and p.shout is None:
            p.persuasion = min(100, p.persuasion + inc)
            ctx.me(p, "persuasion", {"persuasion": p.persuasion})
