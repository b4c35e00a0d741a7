"""Zhuge Liang: Stargazing (arrange the top X cards); Empty City **C** (``options.empty_city``)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import handler, open_ask
from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

COMPULSORY = ("kongcheng",)


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.push({"t": "sk_guanxing", "seat": s})


@handler("sk_guanxing")
def h_guanxing(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    if "ans" in f:
        o = f.pop("ans")[str(s)]
        cards = f["cards"]
        top, bottom = o.get("top", []), o.get("bottom", [])
        rest = ctx.st["draw"][len(cards):]
        ctx.st["draw"] = list(top) + rest + list(bottom)
        ctx.emit("stargazing", {"seat": s, "top": len(top), "bottom": len(bottom)})
        ctx.emit("stargazing_cards", {"seat": s, "top": list(top), "bottom": list(bottom)}, to=[s])
        ctx.ret(f)
        return
    x = min(5, len(ctx.living()))
    if not ctx.ensure_draw(x):
        return
    f["cards"] = ctx.st["draw"][:x]
    open_ask(ctx, "arrange", [s], {s: {"cards": f["cards"], "skill": "guanxing"}},
             {s: {"top": f["cards"], "bottom": []}}, {"seat": s, "skill": "guanxing", "count": x})


GUANXING = trigger(Trigger("guanxing", "start", True, lambda ctx, s, d: not d.get("again"), _apply,
                           compulsory=True))
