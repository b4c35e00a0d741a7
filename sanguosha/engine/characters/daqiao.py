"""Da Qiao: National Beauty (a ♦ card as Indulgence); Deflection (pay 1 card to move a Kill
aimed at her to another player within her attack range)."""

from __future__ import annotations

from typing import Any, Sequence

from sanguosha.engine.data import CARDS
from sanguosha.engine.flow import discard_cards, handler
from sanguosha.engine.options import empty_city
from sanguosha.engine.skills import Conversion, Trigger, conversion, trigger
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]

GUOSE = conversion(Conversion("guose", "indulgence", ("hand", "equip"),
                              lambda c: CARDS[c].suit == "diamond"))


def _by_card(ctx: Ctx, s: int, user: int, taken: Sequence[int] = ()) -> JSON:
    out = {}
    for c in list(ctx.seat(s)["hand"]) + ctx.equipped(s):
        gone = frozenset([c]) if c in ctx.equipped(s) else frozenset()
        ts = [t for t in ctx.living() if t not in (s, user) and t not in taken
              and ctx.in_range(s, t, gone)
              and not empty_city(ctx, t)]
        if ts:
            out[str(c)] = ts
    return out


def _taken(ctx: Ctx, data: JSON) -> list[int]:
    """Players the Kill already targets (a player cannot be targeted twice)."""
    targets: list[int] = ctx.stack[ctx.stack[data["frame"]]["use"]]["targets"]
    return targets


def _can(ctx: Ctx, s: int, data: JSON) -> bool:
    return bool(_by_card(ctx, s, data["user"], _taken(ctx, data)))


def _apply(ctx: Ctx, s: int, data: JSON, order: JSON) -> None:
    by = _by_card(ctx, s, data["user"], _taken(ctx, data))
    targets = sorted({t for ts in by.values() for t in ts})
    ctx.push({"t": "sk_liuli", "seat": s, "frame": data["frame"], "step": "ask"})
    ctx.push({"t": "opt_cost", "who": s, "why": "liuli", "count": 1, "cards": [int(c) for c in by],
              "targets": targets, "targets_by_card": by, "ret": "paid"})


@handler("sk_liuli")
def h_liuli(ctx: Ctx, f: JSON) -> None:
    ctx.ret(f)
    paid = f.get("paid")
    if paid:
        ctx.emit("skill", {"seat": f["seat"], "skill": "liuli", "to": paid["target"]})
        discard_cards(ctx, f["seat"], paid["cards"], "liuli")
        ctx.stack[f["frame"]]["moved_to"] = paid["target"]


LIULI = trigger(Trigger("liuli", "targeted_kill", False, _can, _apply, compulsory=True))
