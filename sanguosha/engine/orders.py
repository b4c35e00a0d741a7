"""Validation of answers to the open ask (§12.3), one checker per ask kind.

Every checker reads the options stored in the ask for that seat (the same ``legal``
section the player view shows) and raises :class:`InvalidOrder` (malformed) or
:class:`IllegalOrder` (not allowed now) with a message a player understands.
"""

from __future__ import annotations

from typing import Any, Mapping

from games.rules import Msg, T, Tn

from sanguosha.engine import errors as E
from sanguosha.engine.data import CARDS, CARD_TYPES, SKILL_NAMES, SUITS
from sanguosha.engine.options import can_kill_more, empty_city
from sanguosha.engine.skills import ACTIVES
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def _int(order: Mapping[str, Any], key: str) -> int:
    v = order.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise E.InvalidOrder(T("'%(key)s' must be a whole number.", key=key), field=key)
    return v


def _ints(order: Mapping[str, Any], key: str, *, required: bool = True) -> list[int]:
    v = order.get(key)
    if v is None and not required:
        return []
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise E.InvalidOrder(T("'%(key)s' must be a list of whole numbers.", key=key), field=key)
    if len(set(v)) != len(v):
        raise E.IllegalOrder(T("'%(key)s' lists the same entry twice.", key=key), field=key)
    return list(v)


def _targets(order: Mapping[str, Any], opt: JSON, what: str = "targets") -> list[int]:
    ts = _ints(order, "targets", required=False)
    lo: int = opt["min"] if "min" in opt else opt.get("min_targets", 0)
    hi: int = opt["max"] if "max" in opt else opt.get("max_targets", 0)
    bad = [t for t in ts if t not in opt.get("targets", [])]
    if bad:
        raise E.IllegalOrder(T("Seat %(number)s is not a legal target here.", number=bad[0]),
                             field="targets")
    if not lo <= len(ts) <= hi:
        if lo == hi:
            raise E.IllegalOrder(Tn("Choose exactly %(count)s target.", "Choose exactly %(count)s targets.",
                                    lo, count=lo), field="targets")
        raise E.IllegalOrder(T("Choose %(lo)s to %(hi)s targets.", lo=lo, hi=hi), field="targets")
    return ts


def check(ctx: Ctx, seat: int, order: Mapping[str, Any]) -> None:
    """Raise unless ``order`` answers the open ask legally for ``seat``."""
    st = ctx.st
    if not isinstance(order, Mapping):
        raise E.InvalidOrder(T("An order must be a JSON object."))
    if st["over"]:
        raise E.IllegalOrder(E.GAME_OVER)
    ask = st["ask"]
    if "ask" in order and (ask is None or order["ask"] != ask["no"]):
        raise E.IllegalOrder(E.STALE, code="STALE")
    if ask is None or seat not in ask["awaited"]:
        raise E.IllegalOrder(E.NOT_AWAITED)
    if ask["first_wins"] and any(a.get("negate") is not None for a in st["answers"].values()):
        raise E.IllegalOrder(T("This Negate window has already closed."), code="STALE")
    opt = ask["options"][str(seat)]
    _refuse_mixed_refusal(order)
    CHECKERS[ask["kind"]](ctx, seat, order, opt)


#: answers that choose nothing; such an answer may carry nothing else (the stored answer
#: is acted on as it is, so a stray ``"negate": …`` beside ``"pass"`` must not slip through)
REFUSALS = ("pass", "decline", "no")


def _refuse_mixed_refusal(order: Mapping[str, Any]) -> None:
    refusal = [k for k in REFUSALS if order.get(k)]
    if not refusal:
        return
    extra = sorted(k for k, v in order.items() if k not in (*REFUSALS, "ask") and v is not None)
    if len(refusal) > 1 or extra:
        raise E.InvalidOrder(T("%(answer)s answers with nothing else; remove %(extra)s.",
                               answer=repr(refusal[0]),
                               extra=[repr(x) for x in extra or refusal[1:]]))


def _why_not(ctx: Ctx, s: int, cards: list[int], name: str, targets: list[int]) -> Msg:
    p = ctx.seat(s)
    for c in cards:
        if c not in p["hand"] and c not in ctx.equipped(s):
            return E.NOT_YOURS
    if name in ("jink", "nullification"):
        return T("%(card)s cannot be used on its own.", card=CARD_TYPES[name][0])
    if name == "slash" and not can_kill_more(ctx, s, cards):
        return E.ONE_KILL
    if name == "peach" and p["hp"] >= p["max_hp"]:
        return T("Peach: you are not wounded.")
    for t in targets:
        if not isinstance(t, int) or not 0 <= t < ctx.n or not ctx.alive(t):
            return T("That target is not a living player.")
        if t == s and name not in ("peach",):
            return T("You cannot target yourself with that card.")
        if name in ("slash", "duel") and empty_city(ctx, t):
            return E.EMPTY_CITY
        if name in ("snatch", "indulgence") and ctx.has(t, "qianxun"):
            return E.HUMILITY
        if name in ("slash", "snatch"):
            return E.OUT_OF_RANGE
    return T("You cannot use %(card)s like that now.", card=CARD_TYPES[name][0])


def _check_play(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    actions = opt["actions"]
    if order.get("end"):
        return
    if "skill" in order and "use" not in order:
        sk = order["skill"]
        if not isinstance(sk, str):
            raise E.InvalidOrder(T("'skill' must be a skill id."), field="skill")
        match = [a for a in actions if a.get("skill") == sk and "use" not in a and "use_pair" not in a]
        if not match:
            if sk == "jijiang":
                raise E.IllegalOrder(T("Rouse cannot be used now."))
            raise E.IllegalOrder(T("The skill %(skill)s cannot be used now.",
                                   skill=SKILL_NAMES[sk][0] if sk in SKILL_NAMES else repr(sk)))
        a = match[0]
        cards = _ints(order, "cards", required=False)
        bad = [c for c in cards if c not in a.get("cards", [])]
        if bad:
            raise E.IllegalOrder(E.NOT_YOURS, field="cards")
        lo, hi = a.get("min_cards", 0), a.get("max_cards", 0)
        if not lo <= len(cards) <= hi:
            raise E.IllegalOrder(Tn("Give %(count)s card.", "Give %(count)s cards.", hi,
                                    count=f"{lo}–{hi}" if hi != lo else lo), field="cards")
        _targets(order, a)
        msg = ACTIVES[sk].check(ctx, s, dict(order))
        if msg:
            raise E.IllegalOrder(msg)
        return
    if "use" not in order:
        raise E.InvalidOrder(T("A play order is 'use', 'skill' or 'end'."))
    use = order["use"]
    targets = order.get("targets") or []
    if not isinstance(targets, list):
        raise E.InvalidOrder(T("'targets' must be a list."), field="targets")
    if isinstance(use, list):
        cards = _ints(order, "use")
        pair = [a for a in actions if "use_pair" in a]
        if len(cards) != 2 or not pair or any(c not in pair[0]["use_pair"] for c in cards):
            raise E.IllegalOrder(T("Two hand cards can be a Kill only with a Serpent Spear."))
        a = dict(pair[0])
        if len(ctx.seat(s)["hand"]) != 2:
            a["max"] = 1
        _targets(order, a)
        return
    c = _int(order, "use")
    if c not in CARDS:
        raise E.InvalidOrder(T("There is no card %(number)s.", number=c), field="use")
    name = order.get("as") or CARDS[c].id
    if name not in CARD_TYPES:
        raise E.InvalidOrder(T("Unknown card name %(name)s.", name=repr(name)), field="as")
    match = [a for a in actions if a.get("use") == c and a.get("as") == name]
    if not match:
        raise E.IllegalOrder(_why_not(ctx, s, [c], name, [t for t in targets]))
    a = match[0]
    try:
        _targets(order, a)
    except E.IllegalOrder as err:
        bad = [t for t in targets if t not in a.get("targets", [])]
        if bad:
            raise E.IllegalOrder(_why_not(ctx, s, [c], name, bad), field="targets") from None
        raise err
    if name == "collateral":
        sub = order.get("sub_target")
        if not isinstance(sub, int) or sub not in a["sub"].get(str(targets[0]), []):
            raise E.IllegalOrder(T("Borrowed Sword: the sub-target must be a legal Kill target "
                                   "within the weapon holder's range."), field="sub_target")


def _card_choice(order: Mapping[str, Any], opt: JSON, name: str) -> None:
    if order.get("cards") is not None:
        cards = _ints(order, "cards")
        if len(cards) != 2 or not opt.get("pair") or any(c not in opt["pair"] for c in cards):
            raise E.IllegalOrder(T("Two hand cards can be a Kill only with a Serpent Spear."))
        return
    c = _int(order, "card")
    want = order.get("as") or (CARDS[c].id if c in CARDS else None)
    if not any(o["card"] == c and o["as"] == want for o in opt["cards"]):
        if want != name:
            raise E.IllegalOrder(T("That card cannot be given as %(card)s.",
                                   card=CARD_TYPES[name][0]))
        raise E.IllegalOrder(E.NOT_YOURS)


def _check_respond(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("decline"):
        return
    if order.get("armor"):
        if not opt["armor"]:
            raise E.IllegalOrder(T("You cannot try Eight Trigrams now."))
        return
    if order.get("lord_skill"):
        if not opt["lord_skill"]:
            raise E.IllegalOrder(T("No lord skill can help now."))
        return
    _card_choice(order, opt, opt["name"])


def _check_negate(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("pass"):
        return
    c = _int(order, "negate")
    if c not in opt["negates"]:
        raise E.IllegalOrder(T("You hold no such Negate."))


def _check_rescue(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("pass"):
        return
    cards = _ints(order, "peaches")
    if not cards:
        raise E.InvalidOrder(T("List at least one Peach, or pass."))
    if any(c not in opt["cards"] for c in cards):
        raise E.IllegalOrder(T("That card cannot be used as a Peach now."))
    if len(cards) > opt["max"]:
        raise E.IllegalOrder(Tn("At most %(count)s Peach is needed.",
                                "At most %(count)s Peaches are needed.", opt["max"],
                                count=opt["max"]))


def _check_discard(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    cards = _ints(order, "cards")
    if any(c not in opt["cards"] for c in cards):
        raise E.IllegalOrder(E.NOT_YOURS)
    if len(cards) != opt["count"]:
        raise E.IllegalOrder(Tn("Discard exactly %(count)s card.", "Discard exactly %(count)s cards.",
                                opt["count"], count=opt["count"]))


def _check_invoke(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("no"):
        return
    if not order.get("yes"):
        raise E.InvalidOrder(T("Answer 'yes' or 'no'."))
    if opt.get("skill") == "guicai":
        c = _int(order, "card")
        if c not in opt["cards"]:
            raise E.IllegalOrder(E.NOT_YOURS)
        return
    if "targets" in opt:
        _targets(order, opt)


def _check_choose_card(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    slot = order.get("slot")
    if not isinstance(slot, str):
        raise E.InvalidOrder(T("'slot' must be a slot name."), field="slot")
    if slot not in [x["slot"] for x in opt["slots"]]:
        raise E.IllegalOrder(T("There is no slot %(slot)s on offer.", slot=repr(slot)))


def _check_option(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("suit") not in opt.get("suits", SUITS):
        raise E.IllegalOrder(T("Name one of: spade, heart, club, diamond."))


def _check_pick(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if _int(order, "card") not in opt["cards"]:
        raise E.IllegalOrder(T("That card is not among the revealed cards left."))


def _check_arrange(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    top, bottom = _ints(order, "top", required=False), _ints(order, "bottom", required=False)
    if sorted(top + bottom) != sorted(opt["cards"]):
        raise E.IllegalOrder(T("Put every looked-at card either on top or at the bottom, once."))


def _check_distribute(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("keep") or order.get("no"):
        return
    give = order.get("give")
    if not isinstance(give, Mapping):
        raise E.InvalidOrder(T("'give' maps each card to a seat."))
    if not all(isinstance(k, str) and k.isdigit() for k in give) or \
            sorted(int(k) for k in give) != sorted(opt["cards"]):
        raise E.IllegalOrder(T("Say who gets each of the two cards."))
    for v in give.values():
        if v not in opt["targets"]:
            raise E.IllegalOrder(T("Cards can go only to living players."))
    if len(set(give.values())) > 2:
        raise E.IllegalOrder(T("At most two receivers."))


def _check_borrowed(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("decline"):
        return
    if order.get("lord_skill"):
        if not opt.get("lord_skill"):
            raise E.IllegalOrder(T("Rouse cannot help now."))
        return
    _card_choice(order, opt, "slash")


def _check_cost(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("decline"):
        return
    cards = _ints(order, "cards")
    if len(cards) != opt["count"] or any(c not in opt["cards"] for c in cards):
        raise E.IllegalOrder(T("Pay exactly %(count)s of the offered cards.", count=opt["count"]))
    if "targets" in opt:
        t = order.get("target")
        allowed = opt.get("targets_by_card", {}).get(str(cards[0]), opt["targets"])
        if t not in allowed:
            raise E.IllegalOrder(T("That player cannot become the target."), field="target")


def _check_character(ctx: Ctx, s: int, order: Mapping[str, Any], opt: JSON) -> None:
    if order.get("character") not in opt["offered"]:
        raise E.IllegalOrder(T("Pick one of the characters you were offered."))


CHECKERS = {
    "play": _check_play, "respond": _check_respond, "negate_window": _check_negate,
    "rescue": _check_rescue, "discard": _check_discard, "invoke": _check_invoke,
    "choose_card": _check_choose_card, "choose_option": _check_option,
    "pick_revealed": _check_pick, "arrange": _check_arrange, "distribute": _check_distribute,
    "borrowed_sword": _check_borrowed, "optional_cost": _check_cost,
    "choose_character": _check_character,
}
