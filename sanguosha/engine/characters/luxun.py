"""Lu Xun: Humility **C** (no Snatch or Indulgence on him); Linked Camps (hand emptied: draw 1)."""

from __future__ import annotations

from sanguosha.engine.skills import Trigger, trigger

COMPULSORY = ("qianxun",)


def _apply(ctx, s, data, order):
    ctx.draw(s, 1, "lianying")


LIANYING = trigger(Trigger("lianying", "lost_hand", True,
                           lambda ctx, s, d: not ctx.seat(s)["hand"], _apply))
