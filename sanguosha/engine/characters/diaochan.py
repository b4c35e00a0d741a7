"""Diao Chan: Sow Discord (discard 1 card: man B uses an unnegatable Duel on man A); Eclipse
the Moon (draw 1 at the start of End)."""

from __future__ import annotations

from typing import Any

from games.rules import Msg, T

from sanguosha.engine.flow import begin_use, discard_cards
from sanguosha.engine.options import desc, empty_city
from sanguosha.engine.skills import Active, Trigger, active, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _option(ctx: Ctx, s: int) -> JSON | None:
    if ctx.st["tc"]["used"].get("lijian"):
        return None
    cards = list(ctx.seat(s)["hand"]) + ctx.equipped(s)
    men = [t for t in ctx.living() if t != s and ctx.gender(t) == "M"]
    if not cards or len(men) < 2:
        return None
    first = [t for t in men if not empty_city(ctx, t)]
    if not first:
        return None
    return {"cards": cards, "min_cards": 1, "max_cards": 1, "targets": men, "min_targets": 2,
            "max_targets": 2, "ordered": True, "first": first}


def _check(ctx: Ctx, s: int, order: JSON) -> Msg | None:
    a, b = order["targets"]
    if empty_city(ctx, a):
        return T("Sow Discord: the first player must be a legal Duel target (Empty City).")
    return None


def _start(ctx: Ctx, s: int, order: JSON) -> None:
    a, b = order["targets"]
    ctx.emit("skill", {"seat": s, "skill": "lijian", "targets": [a, b]})
    discard_cards(ctx, s, list(order["cards"]), "lijian")
    begin_use(ctx, b, desc([], "duel", b, "lijian"), [a], extra={"no_negate": True})


def _biyue(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    ctx.draw(s, 1, "biyue")


LIJIAN = active(Active("lijian", _option, _start, _check))
BIYUE = trigger(Trigger("biyue", "end", True, lambda ctx, s, d: True, _biyue))
