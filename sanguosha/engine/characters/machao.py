"""Ma Chao: Horsemanship **C** (``Ctx.distance``); Iron Cavalry (judge; red: no Dodge allowed)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import handler
from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

COMPULSORY = ("mashu",)


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.push({"t": "sk_tieqi", "seat": s, "target": data["target"], "use": data["use"],
              "step": "judge"})


@handler("sk_tieqi")
def h_tieqi(ctx: Ctx, f: JSON) -> None:
    if f["step"] == "judge":
        f["step"] = "after"
        ctx.push({"t": "judge", "player": f["seat"], "reason": "tieqi", "step": "reveal",
                  "ret": "result"})
        return
    ctx.ret(f)
    res = f.get("result")
    if res and res["color"] == "red":
        use = ctx.stack[f["use"]]
        use["tinfo"].setdefault(str(f["target"]), {})["unanswerable"] = True
        ctx.emit("unanswerable", {"seat": f["target"], "skill": "tieqi"})


TIEQI = trigger(Trigger("tieqi", "after_target_kill", True, lambda ctx, s, d: ctx.alive(d["target"]),
                        _apply))
