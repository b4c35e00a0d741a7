"""The resolution stack (§12.1): frames of plain JSON data and the handlers that run them.

``run(ctx)`` repeatedly calls the handler of the top frame until an ask is open, the game
is over or the stack is empty. A handler either makes progress (pops itself, pushes
children, moves cards) or opens an ask and returns; the answers come back as
``frame["ans"] = {seat: order}`` and the same handler is called again. A child hands its
result to the frame below through ``frame["ret"]`` (the key it writes).

Frames: ``turn``, ``judg_phase``, ``delayed``, ``draw_phase``, ``play``, ``discard_phase``,
``use``, ``after_target``, ``kill_eff``, ``trick_eff``, ``duel``, ``negate``, ``demand``,
``lord_help``, ``choose_card``, ``damage``, ``dying``, ``death``, ``judge``, ``trigger``,
plus the skill frames registered by ``characters/``.
"""

from __future__ import annotations

from typing import Any, Callable

from sanguosha.engine.data import AREA_TRICKS, CARDS, is_equipment, kind_of
from sanguosha.engine.options import (can_public_kill, desc, empty_city, play_options, slot_cards,
                                      sources, spear_pair)
from sanguosha.engine.skills import FRAME_HANDLERS, TRIGGER_BY_SKILL, TRIGGERS
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]
HANDLERS: dict[str, Callable[[Ctx, JSON], None]] = FRAME_HANDLERS
TIMING = {"choose_character": "setup", "play": "play", "negate_window": "window", "rescue": "window"}
DEFAULT_TEXT = {
    "choose_character": "The first offered character is taken.",
    "play": "The Play phase ends.",
    "respond": "The demand is declined.",
    "negate_window": "Pass: no Negate.",
    "rescue": "Pass: no Peach.",
    "discard": "The rightmost hand cards are discarded.",
    "invoke": "The skill's stated timeout choice applies.",
    "choose_card": "The first offered slot is taken.",
    "choose_option": "Spade is named.",
    "pick_revealed": "The leftmost remaining card is taken.",
    "arrange": "All cards go back on top in their original order.",
    "distribute": "Both cards go to their owner.",
    "borrowed_sword": "Decline: the weapon goes to the card's user.",
    "optional_cost": "Decline: nothing is paid.",
}


def handler(name: str) -> Callable[[Callable[[Ctx, JSON], None]], Callable[[Ctx, JSON], None]]:
    def deco(fn: Callable[[Ctx, JSON], None]) -> Callable[[Ctx, JSON], None]:
        HANDLERS[name] = fn
        return fn
    return deco


def run(ctx: Ctx) -> None:
    """Run the stack until the next ask that needs a choice, or the end."""
    st = ctx.st
    for _ in range(200000):
        if st["over"] or st["ask"] is not None:
            return
        if st["pending"]:
            pend = st["pending"]
            st["pending"] = []
            for p in reversed(pend):
                ctx.push({"t": "trigger", "skill": p["skill"], "seat": p["seat"], "data": {}})
            continue
        if not st["stack"]:
            return
        f = st["stack"][-1]
        HANDLERS[f["t"]](ctx, f)
    raise RuntimeError("the resolution stack does not make progress")


# -- asks ------------------------------------------------------------------------------

def open_ask(ctx: Ctx, kind: str, awaited: list[int], options: dict[int, JSON],
             defaults: dict[int, JSON], info: JSON | None = None, *, first_wins: bool = False) -> None:
    st = ctx.st
    st["ask_no"] += 1
    st["ask"] = {
        "no": st["ask_no"], "kind": kind, "awaited": sorted(awaited),
        "timing": TIMING.get(kind, "response"), "first_wins": first_wins,
        "info": info or {}, "options": {str(s): options[s] for s in awaited},
        "defaults": {str(s): defaults[s] for s in awaited},
        "text": _default_text(kind, defaults),
    }
    st["answers"] = {}


def _default_text(kind: str, defaults: dict[int, JSON]) -> str:
    if kind == "invoke" and defaults:
        d = next(iter(defaults.values()))
        return "The skill is used." if d.get("yes") else "The skill is not used."
    return DEFAULT_TEXT.get(kind, "")


def fire(ctx: Ctx, timing: str, seats: list[int], data: JSON) -> int:
    """Push a trigger frame for every owner of a ``timing`` skill (first owner on top)."""
    frames = []
    for s in seats:
        for trig in TRIGGERS.get(timing, ()):
            if ctx.has(s, trig.skill) and trig.can(ctx, s, data):
                frames.append({"t": "trigger", "skill": trig.skill, "seat": s, "data": dict(data)})
    for f in reversed(frames):
        ctx.push(f)
    return len(frames)


@handler("trigger")
def h_trigger(ctx: Ctx, f: JSON) -> None:
    trig = TRIGGER_BY_SKILL[f["skill"]]
    s = f["seat"]
    if "ans" in f:
        order = f.pop("ans")[str(s)]
        ctx.ret(f)
        if order.get("yes"):
            ctx.emit("skill", {"seat": s, "skill": trig.skill})
            trig.apply(ctx, s, f["data"], order)
        return
    if not ctx.alive(s) or not trig.can(ctx, s, f["data"]):
        ctx.ret(f)
        return
    if trig.compulsory:
        ctx.ret(f)
        trig.apply(ctx, s, f["data"], {"yes": True})
        return
    opt: JSON = {"skill": trig.skill, "yes": True, "no": True}
    if trig.choices:
        opt.update(trig.choices(ctx, s, f["data"]))
    default = {"yes": True} if trig.timeout_yes else {"no": True}
    info = {"seat": s, "skill": trig.skill}
    open_ask(ctx, "invoke", [s], {s: opt}, {s: default}, info)


# -- small effects ---------------------------------------------------------------------

def heal(ctx: Ctx, s: int, n: int, source: int | None = None) -> int:
    p = ctx.seat(s)
    new = min(p["max_hp"], p["hp"] + n)
    gained = new - p["hp"]
    if gained > 0:
        p["hp"] = new
        ctx.emit("heal", {"seat": s, "amount": gained, "hp": new, "source": source})
    return gained


def lose_hp(ctx: Ctx, s: int, n: int) -> None:
    p = ctx.seat(s)
    p["hp"] -= n
    ctx.emit("lose_hp", {"seat": s, "amount": n, "hp": p["hp"]})
    if p["hp"] <= 0:
        ctx.push({"t": "dying", "player": s, "killer": None, "step": "start"})


def discard_cards(ctx: Ctx, s: int | None, cards: list[int], why: str = "discard") -> None:
    for c in cards:
        ctx.move(c, "discard")
    if cards:
        ctx.emit("discard", {"seat": s, "cards": list(cards), "why": why})


def to_discard_if_proc(ctx: Ctx, cards: list[int]) -> None:
    moved = [c for c in cards if c in ctx.st["proc"]]
    for c in moved:
        ctx.move(c, "discard")


def push_damage(ctx: Ctx, target: int, amount: int, source: int | None, card: JSON | None) -> None:
    ctx.push({"t": "damage", "target": target, "amount": amount, "source": source,
              "card": card, "step": "start"})


def give_card(ctx: Ctx, c: int, frm: int, to: int, why: str) -> None:
    """Move a card of ``frm`` into ``to``'s hand with the §13 audience."""
    loc = ctx.move(c, "hand", to)
    if loc[0] == "hand":
        ctx.emit("take", {"from": frm, "to": to, "count": 1, "why": why})
        ctx.emit("take_cards", {"from": frm, "to": to, "cards": [c], "why": why}, to=[frm, to])
    else:
        ctx.emit("take", {"from": frm, "to": to, "count": 1, "cards": [c], "why": why})


def begin_use(ctx: Ctx, user: int, d: JSON, targets: list[int], *, sub: int | None = None,
              counted: bool = True, extra: JSON | None = None) -> JSON:
    """§6.2 steps 1–2: move the card(s) to the processing area, count the use, push ``use``."""
    for c in d["cards"]:
        if c not in ctx.st["proc"]:
            ctx.move(c, "proc")
    if d["name"] == "slash" and counted:
        ctx.st["tc"]["kills"] += 1
    if d["name"] == "slash" and user == ctx.st["current"] and ctx.st["turn_phase"] == "play":
        ctx.st["tc"]["used_kill"] = True
    ev: JSON = {"seat": user, "card": d["name"], "cards": d["cards"], "targets": list(targets),
                "skill": d.get("skill")}
    if sub is not None:
        ev["sub_target"] = sub
    ctx.emit("use", ev)
    f = {"t": "use", "card": d, "user": user, "targets": list(targets), "sub": sub,
         "step": "wisdom", "i": 0, "tinfo": {}, "counted": counted}
    if extra:
        f.update(extra)
    return ctx.push(f)


# -- turn ------------------------------------------------------------------------------

def new_turn_counters() -> JSON:
    return {"kills": 0, "used_kill": False, "skip_play": False, "luoyi": False, "used": {},
            "rende": 0, "rende_done": False, "jijiang_locked": False}


def start_turn(ctx: Ctx, s: int) -> None:
    st = ctx.st
    st["turn"] += 1
    st["current"] = s
    st["tc"] = new_turn_counters()
    st["turn_phase"] = "start"
    ctx.emit("turn_start", {"seat": s, "turn": st["turn"]})
    ctx.push({"t": "turn", "seat": s, "step": "start"})


@handler("turn")
def h_turn(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    step = f["step"]
    st = ctx.st
    if not ctx.alive(s):
        step = "next"
    if step == "start":
        st["turn_phase"] = "start"
        f["step"] = "judgment"
        fire(ctx, "start", [s], {})
    elif step == "judgment":
        st["turn_phase"] = "judgment"
        f["step"] = "draw"
        cards = list(reversed(ctx.seat(s)["judg"]))
        if cards:
            ctx.push({"t": "judg_phase", "seat": s, "cards": cards, "i": 0})
    elif step == "draw":
        st["turn_phase"] = "draw"
        f["step"] = "play"
        ctx.push({"t": "draw_phase", "seat": s, "step": "triggers", "n": 2})
    elif step == "play":
        f["step"] = "discard"
        if st["tc"]["skip_play"]:
            ctx.emit("skip_phase", {"seat": s, "turn_phase": "play"})
            return
        st["turn_phase"] = "play"
        st["tc"].update({"kills": 0, "used": {}, "rende": 0, "rende_done": False,
                         "jijiang_locked": False})
        ctx.push({"t": "play", "seat": s})
    elif step == "discard":
        st["turn_phase"] = "discard"
        f["step"] = "end"
        ctx.push({"t": "discard_phase", "seat": s, "step": "skip"})
    elif step == "end":
        st["turn_phase"] = "end"
        f["step"] = "next"
        fire(ctx, "end", [s], {})
    else:
        ctx.ret(f)
        start_turn(ctx, ctx.next_living(s))


@handler("judg_phase")
def h_judg_phase(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    while f["i"] < len(f["cards"]):
        c = f["cards"][f["i"]]
        f["i"] += 1
        if ctx.alive(s) and c in ctx.seat(s)["judg"]:
            ctx.push({"t": "delayed", "card": c, "holder": s, "step": "negate",
                      "name": ctx.judg_name(c)})
            return
    ctx.ret(f)


def pass_lightning(ctx: Ctx, c: int, holder: int) -> None:
    n = ctx.n
    for i in range(1, n):
        t = (holder + i) % n
        if ctx.alive(t) and not any(ctx.judg_name(x) == "lightning" for x in ctx.seat(t)["judg"]):
            ctx.move(c, "judg", t)
            ctx.emit("move_delayed", {"card": c, "from": holder, "to": t})
            return
    if ctx.alive(holder) and not any(ctx.judg_name(x) == "lightning" for x in ctx.seat(holder)["judg"]):
        ctx.move(c, "judg", holder)
        ctx.emit("move_delayed", {"card": c, "from": holder, "to": holder})
    else:
        discard_cards(ctx, None, [c], "lightning")


@handler("delayed")
def h_delayed(ctx: Ctx, f: JSON) -> None:
    c, s = f["card"], f["holder"]
    name = f["name"]
    if f["step"] == "negate":
        ctx.move(c, "proc")
        f["step"] = "judge"
        ctx.emit("delayed_resolve", {"seat": s, "card": c, "name": name})
        ctx.push({"t": "negate", "about": desc([c], name, None), "target": s, "chain": [],
                  "ret": "negated"})
    elif f["step"] == "judge":
        if f.get("negated"):
            ctx.ret(f)
            if name == "lightning":
                pass_lightning(ctx, c, s)
            else:
                to_discard_if_proc(ctx, [c])
            return
        f["step"] = "after"
        ctx.push({"t": "judge", "player": s, "reason": name, "step": "reveal",
                  "trick": c, "ret": "result"})
    else:
        res = f.get("result")
        ctx.ret(f)
        if name == "lightning" and res is not None and not res.get("hit") and c in ctx.st["proc"]:
            pass_lightning(ctx, c, s)
        else:
            to_discard_if_proc(ctx, [c])


@handler("draw_phase")
def h_draw_phase(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    if f["step"] == "triggers":
        f["step"] = "draw"
        fire(ctx, "draw", [s], {"frame": len(ctx.stack) - 1})
        return
    ctx.ret(f)
    if ctx.alive(s) and not f.get("skip"):
        ctx.draw(s, f["n"])


@handler("play")
def h_play(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    if not ctx.alive(s):
        ctx.ret(f)
        return
    if "ans" not in f:
        open_ask(ctx, "play", [s], {s: {"actions": play_options(ctx, s)}}, {s: {"end": True}},
                 {"seat": s})
        return
    order = f.pop("ans")[str(s)]
    if order.get("end"):
        ctx.ret(f)
        return
    if "skill" in order and order["skill"] not in ("spear",):
        from sanguosha.engine.skills import ACTIVES
        ctx.st["tc"]["used"][order["skill"]] = ctx.st["tc"]["used"].get(order["skill"], 0) + 1
        ACTIVES[order["skill"]].start(ctx, s, order)
        return
    cards = order["use"] if isinstance(order["use"], list) else [order["use"]]
    name = order.get("as") or CARDS[cards[0]].id
    skill = order.get("skill") or ("spear" if len(cards) == 2 else None)
    if skill is None and name != CARDS[cards[0]].id:
        skill = _conversion_skill(ctx, s, cards[0], name)
    d = desc(cards, name, s, skill)
    targets = list(order.get("targets") or [])
    if name in AREA_TRICKS:
        targets = ctx.action_order(s)
        if name in ("savage_assault", "archery_attack"):
            targets = targets[1:]
    elif not targets:
        targets = [s]
    elif len(targets) > 1:
        rank = {t: i for i, t in enumerate(ctx.action_order(s))}
        targets.sort(key=lambda t: rank.get(t, 99))
    begin_use(ctx, s, d, targets, sub=order.get("sub_target"))


def _conversion_skill(ctx: Ctx, s: int, c: int, name: str) -> str | None:
    from sanguosha.engine.skills import CONVERSIONS
    for conv in CONVERSIONS:
        if conv.to == name and ctx.has(s, conv.skill) and conv.accepts(c):
            return conv.skill
    return None


@handler("discard_phase")
def h_discard_phase(ctx: Ctx, f: JSON) -> None:
    s = f["seat"]
    p = ctx.seat(s)
    excess = len(p["hand"]) - max(0, p["hp"])
    if f["step"] == "skip":
        f["step"] = "discard"
        if excess > 0:
            fire(ctx, "discard_skip", [s], {"frame": len(ctx.stack) - 1})
        return
    if f.get("skipped") or excess <= 0 or not ctx.alive(s):
        if f.get("skipped"):
            ctx.emit("skip_phase", {"seat": s, "turn_phase": "discard"})
        ctx.ret(f)
        return
    if "ans" in f:
        cards = f.pop("ans")[str(s)]["cards"]
        ctx.ret(f)
        discard_cards(ctx, s, cards, "discard_phase")
        return
    if excess >= len(p["hand"]):
        ctx.ret(f)
        discard_cards(ctx, s, list(p["hand"]), "discard_phase")
        return
    open_ask(ctx, "discard", [s], {s: {"count": excess, "cards": list(p["hand"])}},
             {s: {"cards": p["hand"][-excess:]}}, {"seat": s, "count": excess})


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


def hold_until_cleanup(ctx: Ctx, cards: list[int]) -> None:
    """Played cards wait in the processing area until the card they answer is cleaned up."""
    for fr in reversed(ctx.stack):
        if fr["t"] == "use":
            fr.setdefault("extra", []).extend(cards)
            return
    to_discard_if_proc(ctx, cards)


def CARDS_KIND(name: str) -> str:
    return kind_of(name)


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
            skill = _conversion_skill(ctx, s, cards[0], name)
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
    ctx.ret(f)
    ctx.push({"t": "death", "player": s, "killer": f["killer"]})


def victory(ctx: Ctx) -> list[int] | None:
    seats = ctx.st["seats"]
    alive = ctx.living()
    lord = next(p["seat"] for p in seats if p["identity"] == "lord")
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


# -- judgments (§8) ---------------------------------------------------------------------

JUDGE_EFFECTS: dict[str, Callable[[Ctx, JSON, JSON], None]] = {}


def judge_result(c: int) -> JSON:
    k = CARDS[c]
    return {"card": c, "suit": k.suit, "rank": k.rank, "color": k.color}


@handler("judge")
def h_judge(ctx: Ctx, f: JSON) -> None:
    s = f["player"]
    step = f["step"]
    if step == "reveal":
        if not ctx.ensure_draw(1):
            return
        c = ctx.st["draw"][0]
        ctx.move(c, "proc")
        f["card"] = c
        ctx.emit("judge", {"seat": s, "reason": f["reason"], "card": c})
        f["step"] = "retrial"
        f["order"] = [x for x in ctx.action_order(ctx.st["current"]) if ctx.has(x, "guicai")]
        f["ri"] = 0
        return
    if step == "retrial":
        if "ans" in f:
            who = f["order"][f["ri"] - 1]
            o = f.pop("ans")[str(who)]
            if o.get("yes") and o.get("card") is not None:
                old = f["card"]
                new = o["card"]
                ctx.move(new, "proc")
                ctx.emit("skill", {"seat": who, "skill": "guicai"})
                ctx.emit("judge_replace", {"seat": who, "old": old, "card": new, "player": s})
                discard_cards(ctx, None, [old], "guicai")
                f["card"] = new
        while f["ri"] < len(f["order"]):
            who = f["order"][f["ri"]]
            f["ri"] += 1
            if ctx.alive(who) and ctx.seat(who)["hand"]:
                opt = {"skill": "guicai", "yes": True, "no": True, "cards": list(ctx.seat(who)["hand"]),
                       "judged": s, "card": f["card"], "reason": f["reason"]}
                open_ask(ctx, "invoke", [who], {who: opt}, {who: {"no": True}},
                         {"seat": who, "skill": "guicai", "judged": s, "card": f["card"]})
                return
        f["step"] = "effect"
        return
    if step == "effect":
        f["result"] = judge_result(f["card"])
        ctx.emit("judge_result", {"seat": s, "reason": f["reason"], **f["result"]})
        f["step"] = "after"
        eff = JUDGE_EFFECTS.get(f["reason"])
        if eff:
            eff(ctx, f, f["result"])
        return
    if step == "after":
        f["step"] = "cleanup"
        if f["card"] in ctx.st["proc"]:
            fire(ctx, "after_judge", [s], {"card": f["card"]})
        return
    res = dict(f["result"])
    if f.get("hit"):
        res["hit"] = True
    ctx.ret(f, res)
    to_discard_if_proc(ctx, [f["card"]])


def _lightning(ctx: Ctx, f: JSON, r: JSON) -> None:
    if r["suit"] == "spade" and 2 <= r["rank"] <= 9:
        f["hit"] = True
        push_damage(ctx, f["player"], 3, None, desc([f["trick"]], "lightning", None))


def _indulgence(ctx: Ctx, f: JSON, r: JSON) -> None:
    if r["suit"] != "heart":
        ctx.st["tc"]["skip_play"] = True


JUDGE_EFFECTS["lightning"] = _lightning
JUDGE_EFFECTS["indulgence"] = _indulgence


__all__ = ["run", "open_ask", "fire", "begin_use", "push_damage", "heal", "lose_hp",
           "discard_cards", "give_card", "start_turn", "empty_city"]
