"""What a seat may do right now: card sources for demands and the Play ask's options (§6, §12.4).

The same lists feed ``player_view`` (the ``legal`` section) and order validation, so the
page shows exactly what the engine accepts.
"""

from __future__ import annotations

from typing import Any

from sanguosha.engine.data import AREA_TRICKS, CARDS, EQUIP_SLOTS, is_equipment
from sanguosha.engine.skills import ACTIVES, CONVERSIONS
from sanguosha.engine.state import Ctx

JSON = dict[str, Any]


def desc(cards: list[int], name: str, user: int | None, skill: str | None = None) -> JSON:
    """A used/played card, real or virtual (§6.4)."""
    if len(cards) == 1:
        c = CARDS[cards[0]]
        suit, color, rank = c.suit, c.color, c.rank
    elif not cards:
        suit, color, rank = None, None, None
    else:
        colors = {CARDS[c].color for c in cards}
        suit, rank = None, None
        color = colors.pop() if len(colors) == 1 else None
    return {"name": name, "cards": list(cards), "suit": suit, "color": color, "rank": rank,
            "user": user, "skill": skill}


def own_turn(ctx: Ctx, s: int) -> bool:
    return bool(ctx.st["current"] == s)


def sources(ctx: Ctx, s: int, name: str) -> list[JSON]:
    """Every single card that ``s`` can give as ``name`` (real or by a conversion)."""
    p = ctx.seat(s)
    out: list[JSON] = []
    for c in p["hand"]:
        if CARDS[c].id == name:
            out.append({"card": c, "as": name})
    for conv in CONVERSIONS:
        if conv.to != name or not ctx.has(s, conv.skill):
            continue
        if conv.outside_own_turn and own_turn(ctx, s):
            continue
        pool: list[int] = []
        if "hand" in conv.zones:
            pool += p["hand"]
        if "equip" in conv.zones:
            pool += ctx.equipped(s)
        for c in pool:
            if CARDS[c].id == name or not conv.accepts(c):
                continue
            if conv.from_names and CARDS[c].id not in conv.from_names:
                continue
            if any(o["card"] == c and o["as"] == name for o in out):
                continue
            out.append({"card": c, "as": name, "skill": conv.skill})
    return out


def spear_pair(ctx: Ctx, s: int) -> list[int] | None:
    """Hand cards usable in pairs as a Kill through an equipped Serpent Spear."""
    hand = ctx.seat(s)["hand"]
    if ctx.weapon_active(s, "spear") and len(hand) >= 2:
        return list(hand)
    return None


def can_public_kill(ctx: Ctx, s: int) -> bool:
    """False iff public information proves ``s`` cannot give a Kill (§6.3, no Rouse)."""
    if ctx.seat(s)["hand"]:
        return True
    return ctx.has(s, "wusheng") and any(CARDS[c].color == "red" for c in ctx.equipped(s))


def empty_city(ctx: Ctx, t: int) -> bool:
    return ctx.has(t, "kongcheng") and not ctx.seat(t)["hand"]


def can_kill_more(ctx: Ctx, s: int, cards: list[int]) -> bool:
    """The Kill limit (§6.5)."""
    if ctx.st["tc"]["kills"] < 1 or ctx.has(s, "paoxiao"):
        return True
    cb = ctx.equip(s, "weapon")
    return ctx.weapon_active(s, "crossbow") and cb not in cards


def kill_targets(ctx: Ctx, s: int, gone: frozenset[int] = frozenset()) -> list[int]:
    return [t for t in ctx.living() if t != s and ctx.in_range(s, t, gone) and not empty_city(ctx, t)]


def use_targets(ctx: Ctx, s: int, name: str, cards: list[int], *, rouse: bool = False) -> JSON | None:
    """Legal targets of using ``name`` made of ``cards`` in ``s``'s Play phase, or None."""
    gone = frozenset(c for c in cards if c in ctx.equipped(s))
    others = [t for t in ctx.living() if t != s]
    p = ctx.seat(s)
    if name == "slash":
        if not can_kill_more(ctx, s, cards):
            return None
        ts = kill_targets(ctx, s, gone)
        whole = (not rouse and bool(p["hand"]) and set(cards) == set(p["hand"])
                 and len(cards) == len(p["hand"]))
        mx = 3 if whole and ctx.weapon_active(s, "halberd") and ctx.equip(s, "weapon") not in gone else 1
        return {"targets": ts, "min": 1, "max": mx} if ts else None
    if name == "peach":
        return {"targets": [], "min": 0, "max": 0} if p["hp"] < p["max_hp"] else None
    if name == "dismantlement":
        ts = [t for t in others if ctx.all_cards(t) > 0]
    elif name == "snatch":
        ts = [t for t in others if ctx.all_cards(t) > 0 and not ctx.has(t, "qianxun")
              and (ctx.has(s, "qicai") or ctx.distance(s, t, gone) <= 1)]
    elif name == "duel":
        ts = [t for t in others if not empty_city(ctx, t)]
    elif name == "collateral":
        sub: dict[str, list[int]] = {}
        for a in others:
            if ctx.equip(a, "weapon") is None:
                continue
            bs = [b for b in ctx.living() if b != a and ctx.in_range(a, b) and not empty_city(ctx, b)]
            if bs:
                sub[str(a)] = bs
        if not sub:
            return None
        return {"targets": [int(a) for a in sub], "min": 1, "max": 1, "sub": sub}
    elif name == "indulgence":
        ts = [t for t in others if not ctx.has(t, "qianxun")
              and not any(ctx.judg_name(c) == "indulgence" for c in ctx.seat(t)["judg"])]
    elif name == "lightning":
        if any(ctx.judg_name(c) == "lightning" for c in p["judg"]):
            return None
        return {"targets": [], "min": 0, "max": 0}
    elif name in ("ex_nihilo",) or name in AREA_TRICKS or is_equipment(name):
        return {"targets": [], "min": 0, "max": 0}
    else:
        return None  # jink, nullification: never used on their own
    return {"targets": ts, "min": 1, "max": 1} if ts else None


def play_options(ctx: Ctx, s: int) -> list[JSON]:
    """Every legal Play-ask option of ``s`` (§12.4)."""
    p = ctx.seat(s)
    out: list[JSON] = []
    cands: list[tuple[int, str, str | None]] = [(c, CARDS[c].id, None) for c in p["hand"]]
    for conv in CONVERSIONS:
        if not ctx.has(s, conv.skill) or conv.to in ("jink",):
            continue
        if conv.outside_own_turn:
            continue
        pool = (list(p["hand"]) if "hand" in conv.zones else []) + \
            (ctx.equipped(s) if "equip" in conv.zones else [])
        for c in pool:
            if CARDS[c].id != conv.to and conv.accepts(c) and \
                    (not conv.from_names or CARDS[c].id in conv.from_names):
                cands.append((c, conv.to, conv.skill))
    seen: set[tuple[int, str]] = set()
    for c, name, skill in cands:
        if (c, name) in seen:
            continue
        seen.add((c, name))
        tg = use_targets(ctx, s, name, [c])
        if tg is None:
            continue
        opt: JSON = {"use": c, "as": name, **tg}
        if skill:
            opt["skill"] = skill
        out.append(opt)
    pair = spear_pair(ctx, s)
    if pair:
        tg = use_targets(ctx, s, "slash", pair[:2])
        if tg is not None:
            whole_max = use_targets(ctx, s, "slash", list(pair))
            opt = {"use_pair": pair, "as": "slash", "skill": "spear", **tg}
            if len(pair) == 2 and whole_max:
                opt["max"] = whole_max["max"]
            out.append(opt)
    for act in ACTIVES.values():
        if ctx.has(s, act.skill) or (act.skill == "jijiang" and ctx.has(s, "jijiang")):
            o = act.option(ctx, s)
            if o is not None:
                out.append({"skill": act.skill, **o})
    out.append({"end": True})
    return out


def slot_cards(ctx: Ctx, owner: int, areas: tuple[str, ...]) -> list[tuple[str, int]]:
    """(slot name, card) pairs in §12.7 order, hands unshuffled (callers shuffle)."""
    p = ctx.seat(owner)
    out: list[tuple[str, int]] = []
    if "hand" in areas:
        out += [(f"hand-{i + 1}", c) for i, c in enumerate(p["hand"])]
    if "equip" in areas:
        out += [(k, p["equip"][k]) for k in EQUIP_SLOTS if p["equip"][k] is not None]
    if "judg" in areas:
        out += [(f"judgment-{i + 1}", c) for i, c in enumerate(p["judg"])]
    return out
