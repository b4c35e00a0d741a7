"""The per-target effects of the non-delayed tricks (§7.2), after their Negate window."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.flow import (begin_use, discard_cards, give_card, handler, heal, open_ask,
                                   push_damage)
from sanguosha.engine.options import can_public_kill, desc, sources, spear_pair
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def apply_trick(ctx: Ctx, f: JSON) -> None:
    """Apply ``f['card']`` to ``f['target']`` (the window did not negate it)."""
    name = f["card"]["name"]
    t, user = f["target"], f["user"]
    if name in ("dismantlement", "snatch"):
        if f.get("step") == "apply":
            f["step"] = "picked"
            ctx.push({"t": "choose_card", "chooser": user, "owner": t,
                      "areas": ["hand", "equip", "judg"], "ret": "picked", "why": name})
            return
        c = f.get("picked")
        ctx.ret(f)
        if c is None or not ctx.alive(t):
            return
        if name == "dismantlement":
            discard_cards(ctx, t, [c], "dismantlement")
        elif ctx.alive(user):
            give_card(ctx, c, t, user, "snatch")
        return
    ctx.ret(f)
    if name == "ex_nihilo":
        ctx.draw(t, 2, "ex_nihilo")
    elif name == "god_salvation":
        heal(ctx, t, 1, user)
    elif name == "duel":
        ctx.push({"t": "duel", "user": user, "target": t, "whose": t, "card": f["card"],
                  "step": "go", "got": 0})
    elif name in ("savage_assault", "archery_attack"):
        need = "slash" if name == "savage_assault" else "jink"
        ctx.push({"t": "area_eff", "user": user, "target": t, "card": f["card"], "need": need,
                  "step": "ask"})
    elif name == "amazing_grace":
        ctx.push({"t": "pick_revealed", "use": f["use"], "target": t})
    elif name == "collateral":
        ctx.push({"t": "collateral", "user": user, "target": t, "sub": f["sub"], "step": "ask"})


@handler("area_eff")
def h_area_eff(ctx: Ctx, f: JSON) -> None:
    if f["step"] == "ask":
        f["step"] = "done"
        ctx.push({"t": "demand", "who": f["target"], "name": f["need"], "ret": "resp",
                  "reason": f["card"]["name"], "src": f["user"]})
        return
    resp = f.pop("resp", None)
    ctx.ret(f)
    if resp is None and ctx.alive(f["target"]):
        push_damage(ctx, f["target"], 1, f["user"], f["card"])


@handler("duel")
def h_duel(ctx: Ctx, f: JSON) -> None:
    user, target = f["user"], f["target"]
    if f["step"] == "go":
        if not (ctx.alive(user) and ctx.alive(target)):
            ctx.ret(f)
            return
        p = f["whose"]
        opp = user if p == target else target
        f["need"] = 2 if ctx.has(opp, "wushuang") else 1
        f["step"] = "resp"
        ctx.push({"t": "demand", "who": p, "name": "slash", "ret": "resp", "reason": "duel",
                  "src": opp})
        return
    resp = f.pop("resp", None)
    p = f["whose"]
    opp = user if p == target else target
    if resp is None:
        ctx.ret(f)
        push_damage(ctx, p, 1, opp, f["card"])
        return
    f["got"] += 1
    if f["got"] < f["need"]:
        ctx.push({"t": "demand", "who": p, "name": "slash", "ret": "resp", "reason": "duel",
                  "src": opp})
        return
    f["whose"], f["got"], f["step"] = opp, 0, "go"


@handler("pick_revealed")
def h_pick_revealed(ctx: Ctx, f: JSON) -> None:
    use = ctx.stack[f["use"]]
    t = f["target"]
    remaining = [c for c in use.get("revealed", []) if c in ctx.st["proc"]]
    if "ans" in f:
        c = f.pop("ans")[str(t)]["card"]
    elif len(remaining) > 1:
        open_ask(ctx, "pick_revealed", [t], {t: {"cards": remaining}}, {t: {"card": remaining[0]}},
                 {"seat": t, "cards": remaining})
        return
    elif remaining:
        c = remaining[0]
    else:
        ctx.ret(f)
        return
    ctx.ret(f)
    ctx.move(c, "hand", t)
    ctx.emit("pick", {"seat": t, "card": c})


def kill_options_on(ctx: Ctx, a: int) -> list[JSON]:
    """Kill sources A may use for Borrowed Sword (one card each, or a Spear pair)."""
    return sources(ctx, a, "slash")


@handler("collateral")
def h_collateral(ctx: Ctx, f: JSON) -> None:
    """Borrowed Sword on A (§7.2): A may Kill B (Rouse included), else A's weapon goes to the user."""
    user, a, b = f["user"], f["target"], f["sub"]
    if "help" in f:  # a Rouse attempt came back
        got = f.pop("help")
        if got:
            ctx.ret(f)
            begin_use(ctx, a, dict(got, user=a, skill="jijiang"), [b], counted=False)
            return
    if "ans" in f:
        o = f.pop("ans")[str(a)]
        if o.get("lord_skill"):
            f["tried_lord"] = True
            helpers = [h for h in ctx.action_order(ctx.st["current"])
                       if h != a and ctx.kingdom(h) == "shu"]
            ctx.emit("skill", {"seat": a, "skill": "jijiang"})
            ctx.push({"t": "lord_help", "lord": a, "name": "slash", "helpers": helpers, "i": 0,
                      "ret": "help", "use": True})
            return
        if not o.get("decline"):
            cards = o["cards"] if o.get("cards") else [o["card"]]
            skill = "spear" if len(cards) == 2 else None
            d = desc(cards, "slash", a, skill or o.get("skill"))
            ctx.ret(f)
            begin_use(ctx, a, d, [b], counted=False)
            return
        ctx.emit("decline", {"seat": a, "name": "collateral"})
        f["declined"] = True
    rouse = bool(ctx.has(a, "jijiang") and not f.get("tried_lord")
                 and any(ctx.kingdom(o) == "shu" for o in ctx.living() if o != a))
    if not f.get("declined") and ctx.alive(b) and (can_public_kill(ctx, a) or rouse):
        opts: JSON = {"cards": kill_options_on(ctx, a), "target": b, "decline": True,
                      "lord_skill": rouse}
        pair = spear_pair(ctx, a)
        if pair:
            opts["pair"] = pair
        open_ask(ctx, "borrowed_sword", [a], {a: opts}, {a: {"decline": True}},
                 {"seat": a, "target": b, "user": user})
        return
    ctx.ret(f)
    w = ctx.equip(a, "weapon")
    if w is not None and ctx.alive(user):
        give_card(ctx, w, a, user, "collateral")
