"""Sun Quan: Balance of Power (discard any number, draw that many, once per Play phase);
Rescue **L C** (a Wu player's Peach heals him 2 — ``flow.use_rescue_peach``)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import discard_cards
from sanguosha.engine.skills import Active, active
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

COMPULSORY = ("jiuyuan",)


def _option(ctx: Ctx, s: int) -> JSON | None:
    if ctx.st["tc"]["used"].get("zhiheng"):
        return None
    cards = list(ctx.seat(s)["hand"]) + ctx.equipped(s)
    if not cards:
        return None
    return {"cards": cards, "min_cards": 1, "max_cards": len(cards), "targets": [],
            "min_targets": 0, "max_targets": 0}


def _start(ctx: Ctx, s: int, order: JSON) -> None:
    cards = list(order["cards"])
    ctx.emit("skill", {"seat": s, "skill": "zhiheng"})
    discard_cards(ctx, s, cards, "zhiheng")
    ctx.draw(s, len(cards), "zhiheng")


ZHIHENG = active(Active("zhiheng", _option, _start))
