"""Zhou Yu: Handsome (draw 1 more); Sow Dissension (the target names a suit, takes one of his
hand cards blind; wrong suit: 1 damage)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.data import CARDS, SUITS
from sanguosha.engine.flow import handler, open_ask, push_damage
from sanguosha.engine.skills import Active, Trigger, active, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _yingzi(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.stack[data["frame"]]["n"] += 1


def _option(ctx: Ctx, s: int) -> JSON | None:
    if ctx.st["tc"]["used"].get("fanjian") or not ctx.seat(s)["hand"]:
        return None
    others = [t for t in ctx.living() if t != s]
    return {"cards": [], "min_cards": 0, "max_cards": 0, "targets": others, "min_targets": 1,
            "max_targets": 1} if others else None


def _start(ctx: Ctx, s: int, order: JSON) -> None:
    ctx.emit("skill", {"seat": s, "skill": "fanjian", "targets": order["targets"]})
    ctx.push({"t": "sk_fanjian", "seat": s, "target": order["targets"][0], "step": "suit"})


@handler("sk_fanjian")
def h_fanjian(ctx: Ctx, f: JSON) -> None:
    s, t = f["seat"], f["target"]
    if f["step"] == "suit":
        if "ans" in f:
            f["suit"] = f.pop("ans")[str(t)]["suit"]
            ctx.emit("name_suit", {"seat": t, "suit": f["suit"]})
            f["step"] = "take"
            f["card"] = None
            ctx.push({"t": "choose_card", "chooser": t, "owner": s, "areas": ["hand"],
                      "ret": "card", "why": "fanjian"})
            return
        open_ask(ctx, "choose_option", [t], {t: {"suits": list(SUITS), "skill": "fanjian"}},
                 {t: {"suit": "spade"}}, {"seat": t, "skill": "fanjian", "source": s})
        return
    ctx.ret(f)
    c = f.get("card")
    if c is None:
        return
    ctx.move(c, "hand", t)
    ctx.emit("take", {"from": s, "to": t, "count": 1, "cards": [c], "why": "fanjian"})
    if CARDS[c].suit != f["suit"] and ctx.alive(t):
        push_damage(ctx, t, 1, s, None)


YINGZI = trigger(Trigger("yingzi", "draw", True, lambda ctx, s, d: True, _yingzi))
FANJIAN = active(Active("fanjian", _option, _start))
