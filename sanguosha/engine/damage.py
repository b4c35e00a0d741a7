"""Damage, dying, rescue, death and victory (§9, §10) as resolution frames."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.data import CARDS
from sanguosha.engine.flow import (discard_cards, fire, handler, heal, open_ask,
                                   to_discard_if_proc)
from sanguosha.engine.options import sources
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


# -- damage, dying, death (§9) ---------------------------------------------------------


@handler("damage")
def h_damage(ctx: Ctx, f: JSON) -> None:
    t = f["target"]
    step = f["step"]
    card = f["card"] or {}
    if step == "start":
        if not ctx.alive(t):
            ctx.ret(f)
            return
        src = f["source"]
        if src is not None and not ctx.alive(src):
            f["source"] = src = None
        if src is not None and ctx.st["tc"].get("luoyi") and src == ctx.st["current"] and \
                card.get("name") in ("slash", "duel") and card.get("user") == src and ctx.has(src, "luoyi"):
            f["amount"] += 1
        f["step"] = "kylin"
        return
    src = f["source"]
    is_kill = src is not None and card.get("name") == "slash" and card.get("user") == src
    if step == "kylin":
        f["step"] = "ice"
        horses = [k for k in ("plus_horse", "minus_horse") if ctx.equip(t, k) is not None]
        if is_kill and horses and ctx.weapon_active(src, "kylin_bow"):
            ctx.push({"t": "weapon_trigger", "skill": "kylin_bow", "seat": src, "target": t,
                      "ret": "kylin"})
        return
    if step == "ice":
        if f.pop("kylin", None):
            f["step"] = "kylin_pick"
            ctx.push({"t": "choose_card", "chooser": src, "owner": t, "areas": ["equip"],
                      "only": ["plus_horse", "minus_horse"], "ret": "horse", "why": "kylin_bow"})
            return
        f["step"] = "ice2"
        if is_kill and ctx.weapon_active(src, "ice_sword") and \
                (ctx.seat(t)["hand"] or ctx.equipped(t)):
            ctx.push({"t": "weapon_trigger", "skill": "ice_sword", "seat": src, "target": t,
                      "ret": "ice"})
        return
    if step == "kylin_pick":
        h = f.pop("horse", None)
        if h is not None:
            discard_cards(ctx, t, [h], "kylin_bow")
        f["step"] = "ice"
        f["kylin"] = None
        return
    if step == "ice2":
        if f.pop("ice", None):
            ctx.emit("prevent", {"seat": t, "source": src, "why": "ice_sword"})
            ctx.ret(f)
            ctx.push({"t": "ice_discard", "src": src, "target": t, "left": 2})
            return
        f["step"] = "apply"
        return
    if step == "apply":
        if f["amount"] <= 0:
            ctx.ret(f)
            return
        p = ctx.seat(t)
        p["hp"] -= f["amount"]
        ctx.emit("damage", {"seat": t, "amount": f["amount"], "source": src,
                            "card": card.get("name"), "hp": p["hp"]})
        f["step"] = "after"
        if p["hp"] <= 0:
            ctx.push({"t": "dying", "player": t, "killer": src, "step": "start"})
        return
    ctx.ret(f)
    if ctx.alive(t) and not ctx.st["over"]:
        fire(ctx, "after_damage", [t], {"source": src, "card": f["card"], "amount": f["amount"]})


@handler("weapon_trigger")
def h_weapon_trigger(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    if "ans" in f:
        yes = bool(f.pop("ans")[str(s)].get("yes"))
        if yes:
            ctx.emit("skill", {"seat": s, "skill": f["skill"]})
        ctx.ret(f, yes)
        return
    open_ask(ctx, "invoke", [s], {s: {"skill": f["skill"], "yes": True, "no": True,
                                      "target": f.get("target")}},
             {s: {"no": True}}, {"seat": s, "skill": f["skill"], "target": f.get("target")})


@handler("ice_discard")
def h_ice_discard(ctx: Ctx, f: JSON) -> None:
    if "card" in f:
        c = f.pop("card")
        if c is not None:
            discard_cards(ctx, f["target"], [c], "ice_sword")
    if f["left"] <= 0 or not (ctx.seat(f["target"])["hand"] or ctx.equipped(f["target"])):
        ctx.ret(f)
        return
    f["left"] -= 1
    ctx.push({"t": "choose_card", "chooser": f["src"], "owner": f["target"],
              "areas": ["hand", "equip"], "ret": "card", "why": "ice_sword"})


def can_rescue(ctx: Ctx, s: int) -> bool:
    if ctx.seat(s)["hand"]:
        return True
    return (ctx.has(s, "jijiu") and ctx.st["current"] != s
            and any(CARDS[c].color == "red" for c in ctx.equipped(s)))


def peach_sources(ctx: Ctx, s: int) -> list[JSON]:
    return sources(ctx, s, "peach")


def use_rescue_peach(ctx: Ctx, user: int, dying: int, c: int) -> None:
    name = CARDS[c].id
    skill = None if name == "peach" else "jijiu"
    ctx.move(c, "proc")
    ctx.emit("use", {"seat": user, "card": "peach", "cards": [c], "targets": [dying],
                     "skill": skill})
    amount = 1
    if ctx.has(dying, "jiuyuan") and user != dying and ctx.kingdom(user) == "wu":
        amount = 2
    heal(ctx, dying, amount, user)
    to_discard_if_proc(ctx, [c])


@handler("dying")
def h_dying(ctx: Ctx, f: JSON) -> None:
    s = f["player"]
    p = ctx.seat(s)
    if f["step"] == "start":
        if p["hp"] > 0 or not p["alive"]:
            ctx.ret(f)
            return
        ctx.emit("dying", {"seat": s, "hp": p["hp"]})
        f["order"] = ctx.action_order(ctx.st["current"] if ctx.alive(ctx.st["current"])
                                      else ctx.next_living(ctx.st["current"]))
        f["i"] = 0
        f["step"] = "ask"
    if "ans" in f:
        ans = f.pop("ans")
        for u in f["order"]:
            o = ans.get(str(u))
            if not o or not o.get("peaches"):
                continue
            for c in o["peaches"]:
                if p["hp"] > 0:
                    break
                use_rescue_peach(ctx, u, s, c)
        if ctx.cfg("rescue_mode") == "sequential":
            u = f["order"][f["i"]]
            o = ans.get(str(u)) or {}
            if not o.get("peaches"):
                f["i"] += 1
        else:
            f["i"] = len(f["order"])
    if p["hp"] > 0:
        ctx.ret(f)
        return
    need = 1 - p["hp"]
    if ctx.cfg("rescue_mode") == "sequential":
        while f["i"] < len(f["order"]):
            u = f["order"][f["i"]]
            if ctx.alive(u) and can_rescue(ctx, u):
                opts = {u: {"cards": [o["card"] for o in peach_sources(ctx, u)], "max": need,
                            "dying": s}}
                open_ask(ctx, "rescue", [u], opts, {u: {"pass": True}},
                         {"dying": s, "hp": p["hp"], "need": need})
                return
            f["i"] += 1
    elif f["i"] == 0:
        awaited = [u for u in f["order"] if can_rescue(ctx, u)]
        if awaited:
            opts = {u: {"cards": [o["card"] for o in peach_sources(ctx, u)], "max": need,
                        "dying": s} for u in awaited}
            f["i"] = 0
            open_ask(ctx, "rescue", awaited, opts, {u: {"pass": True} for u in awaited},
                     {"dying": s, "hp": p["hp"], "need": need})
            return
    if ctx.st["pending"]:
        return  # e.g. Linked Camps after the last Peach left the hand: it comes first
    ctx.ret(f)
    ctx.push({"t": "death", "player": s, "killer": f["killer"]})


def victory(ctx: Ctx) -> list[int] | None:
    seats = ctx.st["seats"]
    alive = ctx.living()
    lords = [p["seat"] for p in seats if p["identity"] == "lord"]
    if not lords:  # only a hand-made scenario can lack a lord: nobody wins by §10
        return None
    lord = lords[0]
    if not ctx.alive(lord):
        if len(alive) == 1 and seats[alive[0]]["identity"] == "renegade":
            return alive
        return [p["seat"] for p in seats if p["identity"] == "rebel"]
    if not any(seats[s]["identity"] in ("rebel", "renegade") for s in alive):
        return [p["seat"] for p in seats if p["identity"] in ("lord", "loyalist")]
    return None


@handler("death")
def h_death(ctx: Ctx, f: JSON) -> None:
    s, killer = f["player"], f["killer"]
    p = ctx.seat(s)
    ctx.ret(f)
    p["alive"] = False
    ctx.emit("death", {"seat": s, "identity": p["identity"], "killer": killer})
    win = victory(ctx)
    if win is not None:
        ctx.end_game(win, "victory")
        return
    cards = list(p["hand"]) + ctx.equipped(s) + list(p["judg"])
    if cards:
        discard_cards(ctx, s, cards, "death")
    if killer is not None and ctx.alive(killer):
        if p["identity"] == "rebel":
            ctx.emit("reward", {"seat": killer, "count": 3})
            ctx.draw(killer, 3, "reward")
        elif p["identity"] == "loyalist" and ctx.seat(killer)["identity"] == "lord":
            lose = list(ctx.seat(killer)["hand"]) + ctx.equipped(killer)
            ctx.emit("penalty", {"seat": killer})
            discard_cards(ctx, killer, lose, "penalty")
