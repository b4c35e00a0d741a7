"""Lu Xun: Humility **C** (no Snatch or Indulgence on him); Linked Camps (hand emptied: draw 1)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

COMPULSORY = ("qianxun",)


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.draw(s, 1, "lianying")


LIANYING = trigger(Trigger("lianying", "lost_hand", True,
                           lambda ctx, s, d: not ctx.seat(s)["hand"], _apply))
