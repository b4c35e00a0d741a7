"""Guo Jia: Envy of Heaven (take his own judgment card); Bequeathed Strategy (per point of
damage, look at the top 2 cards and give them away)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import handler, open_ask
from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _tiandu_can(ctx: Ctx, s: int, data: JSON) -> bool:
    return data.get("card") in ctx.st["proc"]


def _tiandu(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.move(data["card"], "hand", s)
    ctx.emit("take", {"from": None, "to": s, "count": 1, "cards": [data["card"]], "why": "tiandu"})


def _yiji(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.push({"t": "sk_yiji", "seat": s, "left": data.get("amount", 1)})


@handler("sk_yiji")
def h_yiji(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    if "ans" in f:
        o = f.pop("ans")[str(s)]
        cards = f.pop("cards")
        if not o.get("no"):
            give = {str(c): s for c in cards} if o.get("keep") else o["give"]
            per: dict[int, list[int]] = {}
            for c in cards:
                to = int(give[str(c)])
                ctx.move(c, "hand", to)
                per.setdefault(to, []).append(c)
            for to, cs in per.items():
                ctx.emit("give", {"from": s, "to": to, "count": len(cs), "why": "yiji"})
                ctx.emit("give_cards", {"from": s, "to": to, "cards": cs, "why": "yiji"}, to=[s, to])
    if f["left"] <= 0 or not ctx.alive(s):
        ctx.ret(f)
        return
    f["left"] -= 1
    if not ctx.ensure_draw(2):
        return
    cards = ctx.st["draw"][:2]
    f["cards"] = cards
    open_ask(ctx, "distribute", [s], {s: {"cards": cards, "targets": ctx.living(), "skill": "yiji"}},
             {s: {"give": {str(c): s for c in cards}}}, {"seat": s, "skill": "yiji"})


TIANDU = trigger(Trigger("tiandu", "after_judge", True, _tiandu_can, _tiandu))
YIJI = trigger(Trigger("yiji", "after_damage", True, lambda ctx, s, d: True, _yiji,
                       compulsory=True))
