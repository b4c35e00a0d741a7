"""Zhen Ji: Goddess Luo (judge at Start, keep black cards, stop at red); Beauty (a black hand
card as a Dodge)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import JUDGE_EFFECTS, fire, handler
from sanguosha.engine.skills import Conversion, Trigger, black, conversion, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

QINGGUO = conversion(Conversion("qingguo", "jink", ("hand",), black))


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.push({"t": "sk_luoshen", "seat": s, "step": "judge"})


@handler("sk_luoshen")
def h_luoshen(ctx: Ctx, f: JSON) -> None:
    if f["step"] == "judge":
        f["step"] = "after"
        ctx.push({"t": "judge", "player": f["seat"], "reason": "luoshen", "step": "reveal",
                  "ret": "result"})
        return
    ctx.ret(f)
    res = f.get("result")
    if res and res["color"] == "black" and ctx.alive(f["seat"]):
        fire(ctx, "start", [f["seat"]], {"again": True})


def _effect(ctx: Ctx, jf: JSON, result: JSON) -> None:
    if result["color"] == "black":
        ctx.move(jf["card"], "hand", jf["player"])
        ctx.emit("take", {"from": None, "to": jf["player"], "count": 1, "cards": [jf["card"]],
                          "why": "luoshen"})


JUDGE_EFFECTS["luoshen"] = _effect
LUOSHEN = trigger(Trigger("luoshen", "start", True, lambda ctx, s, d: True, _apply))
