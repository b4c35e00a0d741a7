"""Xu Chu: Bare-Chested — draw 1 fewer; his Kill/Duel damage is +1 this turn (flow.h_damage)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.stack[data["frame"]]["n"] -= 1
    ctx.st["tc"]["luoyi"] = True


LUOYI = trigger(Trigger("luoyi", "draw", False, lambda ctx, s, d: True, _apply))
