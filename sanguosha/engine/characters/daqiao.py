"""Da Qiao: National Beauty (a ♦ card as Indulgence); Deflection (pay 1 card to move a Kill
aimed at her to another player within her attack range)."""

from __future__ import annotations

from sanguosha.engine.data import CARDS
from sanguosha.engine.flow import discard_cards, handler
from sanguosha.engine.options import empty_city
from sanguosha.engine.skills import Conversion, Trigger, conversion, trigger

GUOSE = conversion(Conversion("guose", "indulgence", ("hand", "equip"),
                              lambda c: CARDS[c].suit == "diamond"))


def _by_card(ctx, s, user, taken=()):
    out = {}
    for c in list(ctx.seat(s)["hand"]) + ctx.equipped(s):
        gone = frozenset([c]) if c in ctx.equipped(s) else frozenset()
        ts = [t for t in ctx.living() if t not in (s, user) and t not in taken
              and ctx.in_range(s, t, gone)
              and not empty_city(ctx, t)]
        if ts:
            out[str(c)] = ts
    return out


def _taken(ctx, data):
    """Players the Kill already targets (a player cannot be targeted twice)."""
    return ctx.stack[ctx.stack[data["frame"]]["use"]]["targets"]


def _can(ctx, s, data):
    return bool(_by_card(ctx, s, data["user"], _taken(ctx, data)))


def _apply(ctx, s, data, order):
    by = _by_card(ctx, s, data["user"], _taken(ctx, data))
    targets = sorted({t for ts in by.values() for t in ts})
    ctx.push({"t": "sk_liuli", "seat": s, "frame": data["frame"], "step": "ask"})
    ctx.push({"t": "opt_cost", "who": s, "why": "liuli", "count": 1, "cards": [int(c) for c in by],
              "targets": targets, "targets_by_card": by, "ret": "paid"})


@handler("sk_liuli")
def h_liuli(ctx, f):
    ctx.ret(f)
    paid = f.get("paid")
    if paid:
        ctx.emit("skill", {"seat": f["seat"], "skill": "liuli", "to": paid["target"]})
        discard_cards(ctx, f["seat"], paid["cards"], "liuli")
        ctx.stack[f["frame"]]["moved_to"] = paid["target"]


LIULI = trigger(Trigger("liuli", "targeted_kill", False, _can, _apply, compulsory=True))
