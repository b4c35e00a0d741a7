"""Cao Cao: Villainous Hero (take the card that hurt you); Royal Escort **L** (Wei helpers
give a Dodge — handled by the demand frame's ``lord_skill`` option)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

LORD_SKILL = "hujia"


def _can(ctx: Ctx, s: int, data: JSON) -> bool:
    card = data.get("card") or {}
    cards = card.get("cards") or []
    return bool(cards) and all(c in ctx.st["proc"] for c in cards)


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    for c in data["card"]["cards"]:
        ctx.move(c, "hand", s)
    ctx.emit("take", {"from": None, "to": s, "count": len(data["card"]["cards"]),
                      "cards": data["card"]["cards"], "why": "jianxiong"})


JIANXIONG = trigger(Trigger("jianxiong", "after_damage", True, _can, _apply))
