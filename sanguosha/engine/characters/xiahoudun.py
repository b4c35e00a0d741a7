"""Xiahou Dun: Eye for an Eye — judge; not ♥: the source discards 2 hand cards or takes 1 damage."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import discard_cards, handler, push_damage
from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _can(ctx: Ctx, s: int, data: JSON) -> bool:
    src = data.get("source")
    return src is not None and ctx.alive(src)


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.push({"t": "sk_ganglie", "seat": s, "src": data["source"], "step": "judge"})


@handler("sk_ganglie")
def h_ganglie(ctx: Ctx, f: JSON) -> None:
    s, src = f["seat"], f["src"]
    if f["step"] == "judge":
        f["step"] = "result"
        ctx.push({"t": "judge", "player": s, "reason": "ganglie", "step": "reveal", "ret": "result"})
        return
    if f["step"] == "result":
        res = f.get("result")
        if res is None or res["suit"] == "heart" or not ctx.alive(src):
            ctx.ret(f)
            return
        f["step"] = "paid"
        hand = list(ctx.seat(src)["hand"])
        if len(hand) >= 2:
            ctx.push({"t": "opt_cost", "who": src, "why": "ganglie", "count": 2, "cards": hand,
                      "ret": "paid"})
        return
    ctx.ret(f)
    paid = f.get("paid")
    if paid:
        discard_cards(ctx, src, paid["cards"], "ganglie")
    elif ctx.alive(src):
        push_damage(ctx, src, 1, s if ctx.alive(s) else None, None)


GANGLIE = trigger(Trigger("ganglie", "after_damage", False, _can, _apply))
