"""Lü Meng: Self-Mastery — no Kill used or played in his Play phase: he may skip Discard."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.stack[data["frame"]]["skipped"] = True


KEJI = trigger(Trigger("keji", "discard_skip", True,
                       lambda ctx, s, d: not ctx.st["tc"]["used_kill"], _apply))
