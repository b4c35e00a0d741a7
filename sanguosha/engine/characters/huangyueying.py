"""Huang Yueying: Wisdom (draw 1 when using a non-delayed trick); Genius **C** (no trick distance)."""

from __future__ import annotations

from sanguosha.engine.skills import Trigger, trigger

COMPULSORY = ("qicai",)


def _apply(ctx, s, data, order):
    ctx.draw(s, 1, "jizhi")


JIZHI = trigger(Trigger("jizhi", "use_trick", True, lambda ctx, s, d: True, _apply))
