"""Sima Yi: Demonic Talent (retrial, run by the judgment frame for every ``guicai`` owner);
Retaliation (take a card from the damage source)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.skills import Trigger, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _can(ctx: Ctx, s: int, data: JSON) -> bool:
    src = data.get("source")
    return src is not None and src != s and ctx.alive(src) and \
        bool(ctx.seat(src)["hand"] or ctx.equipped(src))


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.push({"t": "take_card", "chooser": s, "owner": data["source"], "areas": ["hand", "equip"],
              "why": "fankui"})


FANKUI = trigger(Trigger("fankui", "after_damage", False, _can, _apply))
GUICAI = "guicai"  # see flow.h_judge, step "retrial"
