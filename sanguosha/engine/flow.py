"""The resolution stack (§12.1): frames of plain JSON data and the handlers that run them.

``run(ctx)`` repeatedly calls the handler of the top frame until an ask is open, the game
is over or the stack is empty. A handler either makes progress (pops itself, pushes
children, moves cards) or opens an ask and returns; the answers come back as
``frame["ans"] = {seat: order}`` and the same handler is called again. A child hands its
result to the frame below through ``frame["ret"]`` (the key it writes).

This module owns the loop, asks, triggers, small effects and the turn frames (``turn``,
``judg_phase``, ``delayed``, ``draw_phase``, ``play``, ``discard_phase``, ``trigger``).
``cardflow`` owns using a card (``use``, ``after_target``, ``kill_eff``, ``trick_eff``,
``negate``, ``demand``, ``lord_help``, ``choose_card``, ``opt_cost``, ``take_card``),
``effects`` the tricks' own frames, ``damage`` damage/dying/death, ``judge`` judgments, and
``characters/`` the skill frames. Those modules register their handlers here with
:func:`handler`; ``sanguosha.engine`` imports them all, so this module imports none of them.
"""

from __future__ import annotations

from typing import Any, Callable

from games.rules import T

from sanguosha.engine.data import AREA_TRICKS, CARDS, kind_of
from sanguosha.engine.options import desc, play_options
from sanguosha.engine.skills import FRAME_HANDLERS, TRIGGER_BY_SKILL, TRIGGERS
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]
HANDLERS: dict[str, Callable[[Ctx, JSON], None]] = FRAME_HANDLERS
TIMING = {"choose_character": "setup", "play": "play", "negate_window": "window", "rescue": "window"}
DEFAULT_TEXT = {
    "choose_character": T("The first offered character is taken."),
    "play": T("The Play phase ends."),
    "respond": T("The demand is declined."),
    "negate_window": T("Pass: no Negate."),
    "rescue": T("Pass: no Peach."),
    "discard": T("The rightmost hand cards are discarded."),
    "invoke": T("The skill's stated timeout choice applies."),
    "choose_card": T("The first offered slot is taken."),
    "choose_option": T("Spade is named."),
    "pick_revealed": T("The leftmost remaining card is taken."),
    "arrange": T("All cards go back on top in their original order."),
    "distribute": T("Both cards go to their owner."),
    "borrowed_sword": T("Decline: the weapon goes to the card's user."),
    "optional_cost": T("Decline: nothing is paid."),
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
        return T("The skill is used.") if d.get("yes") else T("The skill is not used.")
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
    gained: int = new - p["hp"]
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
        skill = conversion_skill(ctx, s, cards[0], name)
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


def conversion_skill(ctx: Ctx, s: int, c: int, name: str) -> str | None:
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


def hold_until_cleanup(ctx: Ctx, cards: list[int]) -> None:
    """Played cards wait in the processing area until the card they answer is cleaned up."""
    for fr in reversed(ctx.stack):
        if fr["t"] == "use":
            fr.setdefault("extra", []).extend(cards)
            return
    to_discard_if_proc(ctx, cards)


def CARDS_KIND(name: str) -> str:
    return kind_of(name)


# -- judgments (§8) ---------------------------------------------------------------------

JUDGE_EFFECTS: dict[str, Callable[[Ctx, JSON, JSON], None]] = {}


def _lightning(ctx: Ctx, f: JSON, r: JSON) -> None:
    if r["suit"] == "spade" and 2 <= r["rank"] <= 9:
        f["hit"] = True
        push_damage(ctx, f["player"], 3, None, desc([f["trick"]], "lightning", None))


def _indulgence(ctx: Ctx, f: JSON, r: JSON) -> None:
    if r["suit"] != "heart":
        ctx.st["tc"]["skip_play"] = True


JUDGE_EFFECTS["lightning"] = _lightning
JUDGE_EFFECTS["indulgence"] = _indulgence
