"""Xiahou Dun: Eye for an Eye — judge; not ♥: the source discards 2 hand cards or takes 1 damage.

The cost is the judgment's effect (§8 step 3), so it runs inside the judgment, through
``JUDGE_EFFECTS``: the two discarded cards (or the damage) are done before the judgment card
leaves the processing area (step 5).
"""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import JUDGE_EFFECTS, discard_cards, handler, push_damage
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
    if f["step"] == "judge":
        f["step"] = "done"
        ctx.push({"t": "judge", "player": f["seat"], "reason": "ganglie", "src": f["src"],
                  "step": "reveal", "ret": "result"})
        return
    ctx.ret(f)


def _effect(ctx: Ctx, jf: JSON, result: JSON) -> None:
    """Not ♥: the source pays, while the judgment card is still in the processing area."""
    src = jf["src"]
    if result["suit"] != "heart" and ctx.alive(src):
        ctx.push({"t": "sk_ganglie_cost", "seat": jf["player"], "src": src, "step": "ask"})


@handler("sk_ganglie_cost")
def h_ganglie_cost(ctx: Ctx, f: JSON) -> None:
    s, src = f["seat"], f["src"]
    if f["step"] == "ask":
        f["step"] = "pay"
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


JUDGE_EFFECTS["ganglie"] = _effect
GANGLIE = trigger(Trigger("ganglie", "after_damage", False, _can, _apply))
