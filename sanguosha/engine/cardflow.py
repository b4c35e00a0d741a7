"""Using a card (§6.2): the ``use`` frame and its children — targeting, Kill effects,
trick effects after their Negate windows (§6.6), demands (§6.3), lord-skill helpers,
blind card choices (§12.7) and optional costs."""

from __future__ import annotations

from typing import Any

from sanguosha.engine.data import CARDS, is_equipment
from sanguosha.engine.flow import (CARDS_KIND, conversion_skill, begin_use, discard_cards, fire,
                                   give_card, handler, heal, hold_until_cleanup, open_ask,
                                   push_damage, to_discard_if_proc)
from sanguosha.engine.options import can_public_kill, desc, slot_cards, sources, spear_pair
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


# -- using a card ----------------------------------------------------------------------


@handler("use")
def h_use(ctx: Ctx, f: JSON) -> None:
    d = f["card"]
    name = d["name"]
    user = f["user"]
    step = f["step"]
    if step == "wisdom":
        f["step"] = "target"
        if CARDS_KIND(name) == "trick":
            fire(ctx, "use_trick", [user], {"card": name})
        return
    if step == "target":
        if name == "slash":
            while f["i"] < len(f["targets"]):
                t = f["targets"][f["i"]]
                f["i"] += 1
                ctx.push({"t": "after_target", "use": len(ctx.stack) - 1, "target": t,
                          "step": "liuli", "idx": f["i"] - 1})
                return
        f["step"] = "place"
        return
    if step == "place":
        if is_equipment(name):
            c = d["cards"][0]
            slot = CARDS[c].kind
            old = ctx.equip(user, slot)
            ctx.ret(f)
            if old is not None:
                discard_cards(ctx, user, [old], "replaced")
            ctx.move(c, "equip", user)
            ctx.emit("equip", {"seat": user, "card": c})
            return
        if CARDS_KIND(name) == "delayed":
            t = f["targets"][0]
            ctx.ret(f)
            ctx.move(d["cards"][0], "judg", t)
            if CARDS[d["cards"][0]].id != name:
                ctx.st["virtual"][str(d["cards"][0])] = name
            ctx.emit("place_delayed", {"seat": t, "card": d["cards"][0], "name": name})
            return
        f["step"] = "effects"
        f["i"] = 0
        if name == "amazing_grace":
            k = len(ctx.living())
            if not ctx.ensure_draw(k):
                return
            rev = ctx.st["draw"][:k]
            for c in rev:
                ctx.move(c, "proc")
            f["revealed"] = rev
            ctx.emit("reveal", {"cards": rev, "why": "amazing_grace"})
        return
    if step == "effects":
        while f["i"] < len(f["targets"]):
            t = f["targets"][f["i"]]
            f["i"] += 1
            if not ctx.alive(t):
                continue
            me = len(ctx.stack) - 1
            if name == "slash":
                ti = f["tinfo"].get(str(t), {})
                ctx.push({"t": "kill_eff", "use": me, "user": user, "target": t, "card": d,
                          "step": "start", "got": 0, "unanswerable": ti.get("unanswerable", False),
                          "ignore_armor": ti.get("ignore_armor", False)})
            elif name == "peach":
                heal(ctx, t, 1, user)
                continue
            else:
                if name == "god_salvation" and ctx.seat(t)["hp"] >= ctx.seat(t)["max_hp"]:
                    continue
                ctx.push({"t": "trick_eff", "use": me, "user": user, "target": t, "card": d,
                          "step": "negate", "sub": f.get("sub"),
                          "no_negate": bool(f.get("no_negate"))})
            return
        f["step"] = "cleanup"
        return
    # cleanup (§6.2 step 7)
    ctx.ret(f)
    to_discard_if_proc(ctx, d["cards"] + f.get("revealed", []) + f.get("extra", []))


@handler("after_target")
def h_after_target(ctx: Ctx, f: JSON) -> None:
    """§6.2 step 4 for one Kill target: Deflection, then the after-targeting effects."""
    use = ctx.stack[f["use"]]
    t = f["target"]
    user = use["user"]
    step = f["step"]
    if step == "liuli":
        f["step"] = "b"
        if ctx.has(t, "liuli") and ctx.alive(t):
            fire(ctx, "targeted_kill", [t], {"frame": len(ctx.stack) - 1, "user": user})
        return
    if step == "b":
        new = f.get("moved_to")
        if new is not None:
            use["targets"][f["idx"]] = new
            t = f["target"] = new
        f["step"] = "ds"
        ti = use["tinfo"].setdefault(str(t), {})
        if ctx.alive(user) and ctx.weapon_active(user, "qinggang_sword"):
            ti["ignore_armor"] = True
        fire(ctx, "after_target_kill", [user], {"frame": len(ctx.stack) - 1, "target": t,
                                               "use": f["use"]})
        return
    if step == "ds":
        f["step"] = "ds2"
        g1, g2 = ctx.gender(user), ctx.gender(t)
        if ctx.alive(user) and ctx.alive(t) and ctx.weapon_active(user, "double_swords") \
                and g1 and g2 and g1 != g2:
            ctx.push({"t": "weapon_trigger", "skill": "double_swords", "seat": user, "target": t,
                      "ret": "ds"})
        return
    if step == "ds2":
        f["step"] = "ds3"
        if f.pop("ds", None):
            ctx.push({"t": "opt_cost", "who": t, "why": "double_swords", "count": 1,
                      "cards": list(ctx.seat(t)["hand"]), "ret": "ds_paid"})
            f["asked"] = True
        return
    if step == "ds3" and f.pop("asked", False):
        paid = f.pop("ds_paid", None)
        if paid:
            discard_cards(ctx, t, paid["cards"], "double_swords")
        elif ctx.alive(user):
            ctx.draw(user, 1, "double_swords")
    ctx.ret(f)


@handler("take_card")
def h_take_card(ctx: Ctx, f: JSON) -> None:
    """The chooser takes one card of the owner (a hand card blind) into hand."""
    if "card" not in f:
        f["card"] = None
        ctx.push({"t": "choose_card", "chooser": f["chooser"], "owner": f["owner"],
                  "areas": f.get("areas", ["hand", "equip"]), "ret": "card", "why": f["why"]})
        return
    ctx.ret(f)
    if f["card"] is not None and ctx.alive(f["chooser"]):
        give_card(ctx, f["card"], f["owner"], f["chooser"], f["why"])


@handler("kill_eff")
def h_kill_eff(ctx: Ctx, f: JSON) -> None:
    t, user, d = f["target"], f["user"], f["card"]
    step = f["step"]
    if step == "start":
        if not ctx.alive(t):
            ctx.ret(f)
            return
        if (ctx.equip_id(t, "armor") == "nioh_shield" and not f["ignore_armor"]
                and d["color"] == "black"):
            ctx.emit("no_effect", {"seat": t, "why": "nioh_shield", "card": d["name"]})
            ctx.ret(f)
            return
        f["need"] = 2 if ctx.has(user, "wushuang") else 1
        f["step"] = "hit" if f["unanswerable"] else "demand"
        return
    if step == "demand":
        f["step"] = "resp"
        ctx.push({"t": "demand", "who": t, "name": "jink", "no_armor": f["ignore_armor"],
                  "ret": "resp", "reason": "slash", "src": user})
        return
    if step == "resp":
        resp = f.pop("resp", None)
        if resp is None:
            f["step"] = "hit"
            return
        f["got"] += 1
        f["step"] = "demand" if f["got"] < f["need"] else "dodged"
        return
    if step == "dodged":
        ctx.emit("dodged", {"seat": t, "user": user})
        f["step"] = "blade"
        if ctx.alive(user) and ctx.weapon_active(user, "axe"):
            payable = [c for c in ctx.seat(user)["hand"] + ctx.equipped(user)
                       if c != ctx.equip(user, "weapon")]
            if len(payable) >= 2:
                f["step"] = "axe"
                ctx.push({"t": "opt_cost", "who": user, "why": "axe", "count": 2,
                          "cards": payable, "ret": "axe"})
        return
    if step == "axe":
        if f.get("axe"):
            discard_cards(ctx, user, f["axe"]["cards"], "axe")
            f["step"] = "hit"
        else:
            f["step"] = "blade"
        return
    if step == "blade":
        if ctx.alive(user) and ctx.alive(t) and ctx.weapon_active(user, "blade") and \
                (can_public_kill(ctx, user)):
            f["step"] = "blade_done"
            ctx.push({"t": "demand", "who": user, "name": "slash", "ret": "blade_kill",
                      "reason": "blade", "use": True, "no_lord": True, "target": t})
            return
        ctx.ret(f)
        return
    if step == "blade_done":
        got = f.get("blade_kill")
        ctx.ret(f)
        if got:
            begin_use(ctx, user, got, [t], counted=False)
        return
    # hit
    ctx.ret(f)
    if ctx.alive(t):
        push_damage(ctx, t, 1, user, d)


@handler("trick_eff")
def h_trick_eff(ctx: Ctx, f: JSON) -> None:
    from sanguosha.engine.effects import apply_trick
    if f["step"] == "negate":
        f["step"] = "apply"
        if not f["no_negate"]:
            ctx.push({"t": "negate", "about": f["card"], "target": f["target"], "chain": [],
                      "ret": "negated"})
        return
    if f.get("negated"):
        ctx.ret(f)
        return
    apply_trick(ctx, f)


# -- negate windows (§6.6, §12.6) ------------------------------------------------------


def negate_awaited(ctx: Ctx) -> list[int]:
    out = []
    for s in ctx.living():
        hand = ctx.seat(s)["hand"]
        if ctx.cfg("negate_privacy") == "everyone":
            if hand:
                out.append(s)
        elif any(CARDS[c].id == "nullification" for c in hand):
            out.append(s)
    return out


@handler("negate")
def h_negate(ctx: Ctx, f: JSON) -> None:
    if "ans" in f:
        ans = f.pop("ans")
        chosen = None
        for s in ctx.action_order(ctx.st["current"]):
            o = ans.get(str(s))
            if o and o.get("negate") is not None:
                chosen = (s, o["negate"])
                break
        if chosen is not None:
            s, c = chosen
            ctx.move(c, "proc")
            f["chain"].append(c)
            ctx.emit("negate", {"seat": s, "card": c, "about": f["about"]["name"],
                                "target": f["target"], "depth": len(f["chain"])})
            fire(ctx, "use_trick", [s], {"card": "nullification"})
            return
    else:
        awaited = negate_awaited(ctx)
        if awaited:
            opts = {s: {"negates": [c for c in ctx.seat(s)["hand"]
                                    if CARDS[c].id == "nullification"], "pass": True}
                    for s in awaited}
            about = f["chain"][-1] if f["chain"] else None
            info = {"about": f["about"]["name"], "about_cards": f["about"]["cards"],
                    "target": f["target"], "against_negate": about, "depth": len(f["chain"])}
            open_ask(ctx, "negate_window", awaited, opts, {s: {"pass": True} for s in awaited},
                     info, first_wins=True)
            return
    negated = len(f["chain"]) % 2 == 1
    ctx.ret(f, negated)
    to_discard_if_proc(ctx, f["chain"])
    if f["chain"]:
        ctx.emit("negate_result", {"negated": negated, "about": f["about"]["name"],
                                   "target": f["target"]})


# -- demands (§6.3) --------------------------------------------------------------------


def demand_options(ctx: Ctx, f: JSON) -> JSON:
    s, name = f["who"], f["name"]
    opts: JSON = {"name": name, "cards": sources(ctx, s, name), "decline": True}
    if name == "slash":
        pair = spear_pair(ctx, s)
        if pair:
            opts["pair"] = pair
    opts["armor"] = bool(name == "jink" and ctx.equip_id(s, "armor") == "eight_diagram"
                         and not f.get("no_armor") and not f.get("tried_armor"))
    lord = "hujia" if name == "jink" else "jijiang" if name == "slash" else None
    kingdom = "wei" if name == "jink" else "shu"
    opts["lord_skill"] = bool(lord and ctx.has(s, lord) and not f.get("no_lord")
                              and not f.get("tried_lord")
                              and any(ctx.kingdom(o) == kingdom for o in ctx.living() if o != s))
    return opts


@handler("demand")
def h_demand(ctx: Ctx, f: JSON) -> None:
    s, name = f["who"], f["name"]
    if not ctx.alive(s):
        ctx.ret(f, None)
        return
    if "jres" in f:
        res = f.pop("jres")
        if res and res["color"] == "red":
            d = desc([], "jink", s, "eight_diagram")
            ctx.emit("respond", {"seat": s, "card": "jink", "cards": [], "skill": "eight_diagram"})
            ctx.ret(f, d)
            return
    if "help" in f:
        got = f.pop("help")
        if got:
            got = dict(got)
            got["user"] = s
            ctx.ret(f, got)
            return
    if "ans" in f:
        order = f.pop("ans")[str(s)]
        if order.get("armor"):
            f["tried_armor"] = True
            ctx.push({"t": "judge", "player": s, "reason": "eight_diagram", "step": "reveal",
                      "ret": "jres"})
            return
        if order.get("lord_skill"):
            f["tried_lord"] = True
            kingdom = "wei" if name == "jink" else "shu"
            helpers = [o for o in ctx.action_order(ctx.st["current"])
                       if o != s and ctx.kingdom(o) == kingdom]
            ctx.emit("skill", {"seat": s, "skill": "hujia" if name == "jink" else "jijiang"})
            ctx.push({"t": "lord_help", "lord": s, "name": name, "helpers": helpers, "i": 0,
                      "ret": "help"})
            return
        if order.get("decline") or order.get("card") is None and not order.get("cards"):
            ctx.emit("decline", {"seat": s, "name": name})
            ctx.ret(f, None)
            return
        cards = order["cards"] if order.get("cards") else [order["card"]]
        skill = "spear" if len(cards) == 2 else None
        if skill is None and CARDS[cards[0]].id != name:
            skill = conversion_skill(ctx, s, cards[0], name)
        d = desc(cards, name, s, skill)
        if f.get("use"):
            ctx.ret(f, d)
            return
        for c in cards:
            ctx.move(c, "proc")
        ctx.emit("respond", {"seat": s, "card": name, "cards": cards, "skill": skill})
        if name == "slash" and s == ctx.st["current"] and ctx.st["turn_phase"] == "play":
            ctx.st["tc"]["used_kill"] = True
        hold_until_cleanup(ctx, cards)
        ctx.ret(f, d)
        return
    opts = demand_options(ctx, f)
    if not ctx.seat(s)["hand"] and not opts["cards"] and not opts["armor"] and not opts["lord_skill"]:
        ctx.ret(f, None)  # publicly unable (§6.3): no ask
        return
    info = {"seat": s, "name": name, "reason": f.get("reason"), "src": f.get("src")}
    open_ask(ctx, "respond", [s], {s: opts}, {s: {"decline": True}}, info)


@handler("lord_help")
def h_lord_help(ctx: Ctx, f: JSON) -> None:
    if "got" in f:
        got = f.pop("got")
        if got:
            ctx.ret(f, got)
            return
    while f["i"] < len(f["helpers"]):
        h = f["helpers"][f["i"]]
        f["i"] += 1
        if ctx.alive(h):
            ctx.push({"t": "demand", "who": h, "name": f["name"], "no_lord": True, "ret": "got",
                      "reason": "lord_help", "src": f["lord"], "use": f.get("use", False)})
            return
    ctx.ret(f, None)


# -- choosing another player's card (§12.7) --------------------------------------------


@handler("choose_card")
def h_choose_card(ctx: Ctx, f: JSON) -> None:
    ch, owner = f["chooser"], f["owner"]
    if "ans" in f:
        slot = f.pop("ans")[str(ch)]["slot"]
        ctx.ret(f, f["map"][slot])
        return
    pairs = slot_cards(ctx, owner, tuple(f["areas"]))
    if f.get("only"):
        pairs = [(k, c) for k, c in pairs if k in f["only"]]
    if not pairs:
        ctx.ret(f, None)
        return
    if len(pairs) == 1:
        ctx.ret(f, pairs[0][1])
        return
    hand = [c for k, c in pairs if k.startswith("hand-")]
    if not ctx.st.get("scenario"):
        ctx.rng().shuffle(hand)
    mapping: JSON = {}
    slots: list[JSON] = []
    hi = 0
    for k, c in pairs:
        if k.startswith("hand-"):
            mapping[k] = hand[hi]
            hi += 1
            slots.append({"slot": k})
        else:
            mapping[k] = c
            slots.append({"slot": k, "card": c})
    f["map"] = mapping
    open_ask(ctx, "choose_card", [ch], {ch: {"slots": slots, "owner": owner}},
             {ch: {"slot": slots[0]["slot"]}}, {"seat": ch, "owner": owner, "why": f.get("why")})


@handler("opt_cost")
def h_opt_cost(ctx: Ctx, f: JSON) -> None:
    """An ``optional_cost`` ask (§12.2): pay ``count`` of ``cards`` (and a target) or decline."""
    s = f["who"]
    if "ans" in f:
        o = f.pop("ans")[str(s)]
        ctx.ret(f, None if o.get("decline") else o)
        return
    if not ctx.alive(s) or len(f["cards"]) < f["count"]:
        ctx.ret(f, None)
        return
    opt = {"why": f["why"], "count": f["count"], "cards": f["cards"], "decline": True}
    if "targets" in f:
        opt["targets"] = f["targets"]
    open_ask(ctx, "optional_cost", [s], {s: opt}, {s: {"decline": True}},
             {"seat": s, "why": f["why"], "count": f["count"]})
