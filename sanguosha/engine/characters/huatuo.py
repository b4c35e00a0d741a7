"""Hua Tuo: Green Satchel (discard 1 hand card: a wounded player heals 1); First Aid (a red
card as a Peach outside his turn)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import discard_cards, heal
from sanguosha.engine.skills import Active, Conversion, active, conversion, red
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

JIJIU = conversion(Conversion("jijiu", "peach", ("hand", "equip"), red, outside_own_turn=True))


def _option(ctx: Ctx, s: int) -> JSON | None:
    if ctx.st["tc"]["used"].get("qingnang") or not ctx.seat(s)["hand"]:
        return None
    ts = [t for t in ctx.living() if ctx.seat(t)["hp"] < ctx.seat(t)["max_hp"]]
    if not ts:
        return None
    return {"cards": list(ctx.seat(s)["hand"]), "min_cards": 1, "max_cards": 1, "targets": ts,
            "min_targets": 1, "max_targets": 1}


def _start(ctx: Ctx, s: int, order: JSON) -> None:
    ctx.emit("skill", {"seat": s, "skill": "qingnang", "targets": order["targets"]})
    discard_cards(ctx, s, list(order["cards"]), "qingnang")
    heal(ctx, order["targets"][0], 1, s)


QINGNANG = active(Active("qingnang", _option, _start))
