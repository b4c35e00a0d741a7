"""Judgments (§8): reveal, Demonic Talent retrials, the reason's effect, after-judgment skills."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.data import CARDS
from sanguosha.engine.flow import (JUDGE_EFFECTS, discard_cards, fire, handler, open_ask,
                                   to_discard_if_proc)
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def judge_result(c: int) -> JSON:
    k = CARDS[c]
    return {"card": c, "suit": k.suit, "rank": k.rank, "color": k.color}


@handler("judge")
def h_judge(ctx: Ctx, f: JSON) -> None:
    s = f["player"]
    step = f["step"]
    if step == "reveal":
        if not ctx.ensure_draw(1):
            return
        c = ctx.st["draw"][0]
        ctx.move(c, "proc")
        f["card"] = c
        ctx.emit("judge", {"seat": s, "reason": f["reason"], "card": c})
        f["step"] = "retrial"
        f["order"] = [x for x in ctx.action_order(ctx.st["current"]) if ctx.has(x, "guicai")]
        f["ri"] = 0
        return
    if step == "retrial":
        if "ans" in f:
            who = f["order"][f["ri"] - 1]
            o = f.pop("ans")[str(who)]
            if o.get("yes") and o.get("card") is not None:
                old = f["card"]
                new = o["card"]
                ctx.move(new, "proc")
                ctx.emit("skill", {"seat": who, "skill": "guicai"})
                ctx.emit("judge_replace", {"seat": who, "old": old, "card": new, "player": s})
                discard_cards(ctx, None, [old], "guicai")
                f["card"] = new
        while f["ri"] < len(f["order"]):
            who = f["order"][f["ri"]]
            f["ri"] += 1
            if ctx.alive(who) and ctx.seat(who)["hand"]:
                opt = {"skill": "guicai", "yes": True, "no": True, "cards": list(ctx.seat(who)["hand"]),
                       "judged": s, "card": f["card"], "reason": f["reason"]}
                open_ask(ctx, "invoke", [who], {who: opt}, {who: {"no": True}},
                         {"seat": who, "skill": "guicai", "judged": s, "card": f["card"]})
                return
        f["step"] = "effect"
        return
    if step == "effect":
        f["result"] = judge_result(f["card"])
        ctx.emit("judge_result", {"seat": s, "reason": f["reason"], **f["result"]})
        f["step"] = "after"
        eff = JUDGE_EFFECTS.get(f["reason"])
        if eff:
            eff(ctx, f, f["result"])
        return
    if step == "after":
        f["step"] = "cleanup"
        if f["card"] in ctx.st["proc"]:
            fire(ctx, "after_judge", [s], {"card": f["card"]})
        return
    res = dict(f["result"])
    if f.get("hit"):
        res["hit"] = True
    ctx.ret(f, res)
    to_discard_if_proc(ctx, [f["card"]])
