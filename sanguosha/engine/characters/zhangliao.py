"""Zhang Liao: Sudden Strike — instead of drawing, take a hand card from 1 or 2 other players."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _targets(ctx: Ctx, s: int) -> list[int]:
    return [t for t in ctx.action_order(s) if t != s and ctx.seat(t)["hand"]]


def _can(ctx: Ctx, s: int, data: JSON) -> bool:
    return bool(_targets(ctx, s))


def _choices(ctx: Ctx, s: int, data: JSON) -> JSON:
    ts = _targets(ctx, s)
    return {"targets": ts, "min_targets": 1, "max_targets": min(2, len(ts))}


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.stack[data["frame"]]["skip"] = True
    chosen = [t for t in ctx.action_order(s) if t in order.get("targets", [])]
    for t in reversed(chosen):
        ctx.push({"t": "take_card", "chooser": s, "owner": t, "areas": ["hand"], "why": "tuxi"})


TUXI = trigger(Trigger("tuxi", "draw", False, _can, _apply, choices=_choices))
