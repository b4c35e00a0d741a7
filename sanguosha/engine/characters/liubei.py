"""Liu Bei: Benevolence (give hand cards; heal once when the total reaches 2); Rouse **L**
(Shu helpers give a Kill that counts as his)."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import begin_use, handler, heal
from sanguosha.engine.options import can_kill_more, kill_targets
from sanguosha.engine.skills import Active, active
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _rende_option(ctx: Ctx, s: int) -> JSON | None:
    hand = ctx.seat(s)["hand"]
    others = [t for t in ctx.living() if t != s]
    if not hand or not others:
        return None
    return {"cards": list(hand), "min_cards": 1, "max_cards": len(hand), "targets": others,
            "min_targets": 1, "max_targets": 1}


def _rende(ctx: Ctx, s: int, order: JSON) -> None:
    t = order["targets"][0]
    cards = list(order["cards"])
    for c in cards:
        ctx.move(c, "hand", t)
    ctx.emit("give", {"from": s, "to": t, "count": len(cards), "why": "rende"})
    ctx.emit("give_cards", {"from": s, "to": t, "cards": cards, "why": "rende"}, to=[s, t])
    tc = ctx.st["tc"]
    tc["rende"] += len(cards)
    if not tc["rende_done"] and tc["rende"] >= 2:
        tc["rende_done"] = True
        heal(ctx, s, 1, s)


def _jijiang_option(ctx: Ctx, s: int) -> JSON | None:
    tc = ctx.st["tc"]
    if tc.get("jijiang_locked") or not can_kill_more(ctx, s, []):
        return None
    if not any(ctx.kingdom(o) == "shu" for o in ctx.living() if o != s):
        return None
    ts = kill_targets(ctx, s)
    if not ts:
        return None
    return {"cards": [], "min_cards": 0, "max_cards": 0, "targets": ts, "min_targets": 1,
            "max_targets": 1}


def _jijiang(ctx: Ctx, s: int, order: JSON) -> None:
    helpers = [o for o in ctx.action_order(ctx.st["current"]) if o != s and ctx.kingdom(o) == "shu"]
    ctx.emit("skill", {"seat": s, "skill": "jijiang", "targets": order["targets"]})
    ctx.push({"t": "sk_jijiang", "seat": s, "targets": order["targets"], "step": "ask"})
    ctx.push({"t": "lord_help", "lord": s, "name": "slash", "helpers": helpers, "i": 0,
              "ret": "got", "use": True})


@handler("sk_jijiang")
def h_jijiang(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    got = f.get("got")
    ctx.ret(f)
    if not got:
        ctx.st["tc"]["jijiang_locked"] = True
        return
    got = dict(got)
    got["user"] = s
    got["skill"] = "jijiang"
    targets = [t for t in f["targets"] if ctx.alive(t)]
    begin_use(ctx, s, got, targets)


RENDE = active(Active("rende", _rende_option, _rende))
JIJIANG = active(Active("jijiang", _jijiang_option, _jijiang))
