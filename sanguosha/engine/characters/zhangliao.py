"""Zhang Liao: Sudden Strike — instead of drawing, take a hand card from 1 or 2 other players."""

from __future__ import annotations

from sanguosha.engine.skills import Trigger, trigger


def _targets(ctx, s):
    return [t for t in ctx.action_order(s) if t != s and ctx.seat(t)["hand"]]


def _can(ctx, s, data):
    return bool(_targets(ctx, s))


def _choices(ctx, s, data):
    ts = _targets(ctx, s)
    return {"targets": ts, "min_targets": 1, "max_targets": min(2, len(ts))}


def _apply(ctx, s, data, order):
    ctx.stack[data["frame"]]["skip"] = True
    chosen = [t for t in ctx.action_order(s) if t in order.get("targets", [])]
    for t in reversed(chosen):
        ctx.push({"t": "take_card", "chooser": s, "owner": t, "areas": ["hand"], "why": "tuxi"})


TUXI = trigger(Trigger("tuxi", "draw", False, _can, _apply, choices=_choices))
