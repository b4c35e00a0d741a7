"""Huang Yueying: Wisdom (draw 1 when using a non-delayed trick); Genius **C** (no trick distance)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

COMPULSORY = ("qicai",)


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.draw(s, 1, "jizhi")


JIZHI = trigger(Trigger("jizhi", "use_trick", True, lambda ctx, s, d: True, _apply))
