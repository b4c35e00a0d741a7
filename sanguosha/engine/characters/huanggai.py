"""Huang Gai: Self-Injury — lose 1 HP, then (if he survives) draw 2; any number of times."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import handler, lose_hp
from sanguosha.engine.skills import Active, active
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _option(ctx: Ctx, s: int) -> JSON | None:
    return {"cards": [], "min_cards": 0, "max_cards": 0, "targets": [], "min_targets": 0,
            "max_targets": 0}


def _start(ctx: Ctx, s: int, order: JSON) -> None:
    ctx.emit("skill", {"seat": s, "skill": "kurou"})
    ctx.push({"t": "sk_kurou", "seat": s})
    lose_hp(ctx, s, 1)


@handler("sk_kurou")
def h_kurou(ctx: Ctx, f: JSON) -> None:
    ctx.ret(f)
    if ctx.alive(f["seat"]):
        ctx.draw(f["seat"], 2, "kurou")


KUROU = active(Active("kurou", _option, _start))
