"""Sun Shangxiang: Warrior Lady (an equipment card leaves: draw 2); Marriage (discard 2 hand
cards: a wounded man heals 1, then she heals 1)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import discard_cards, heal
from sanguosha.engine.skills import Active, Trigger, active, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _xiaoji(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.draw(s, 2, "xiaoji")


def _option(ctx: Ctx, s: int) -> JSON | None:
    if ctx.st["tc"]["used"].get("jieyin") or len(ctx.seat(s)["hand"]) < 2:
        return None
    ts = [t for t in ctx.living() if t != s and ctx.gender(t) == "M"
          and ctx.seat(t)["hp"] < ctx.seat(t)["max_hp"]]
    if not ts:
        return None
    return {"cards": list(ctx.seat(s)["hand"]), "min_cards": 2, "max_cards": 2, "targets": ts,
            "min_targets": 1, "max_targets": 1}


def _start(ctx: Ctx, s: int, order: JSON) -> None:
    ctx.emit("skill", {"seat": s, "skill": "jieyin", "targets": order["targets"]})
    discard_cards(ctx, s, list(order["cards"]), "jieyin")
    heal(ctx, order["targets"][0], 1, s)
    heal(ctx, s, 1, s)


XIAOJI = trigger(Trigger("xiaoji", "lost_equip", True, lambda ctx, s, d: True, _xiaoji))
JIEYIN = active(Active("jieyin", _option, _start))
