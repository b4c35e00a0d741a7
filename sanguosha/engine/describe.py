"""One plain sentence per event, in English or simplified Chinese (§13 audiences respected:
the caller only passes events the viewer may read)."""

from __future__ import annotations

from typing import Any

from games.rules import Event

from sanguosha.engine.data import CARD_TYPES, CHARACTERS, IDENTITY_NAMES, SKILL_NAMES, card_label


def _seat(s: Any, lang: str) -> str:
    if s is None:
        return "nobody" if lang == "en" else "无人"
    return f"seat {s}" if lang == "en" else f"{s}号位"


def _cards(cs: list[int], lang: str) -> str:
    return ", ".join(card_label(c, lang) for c in cs)


def _name(cid: str | None, lang: str) -> str:
    if cid is None:
        return ""
    if cid in CARD_TYPES:
        return CARD_TYPES[cid][0 if lang == "en" else 1]
    if cid in SKILL_NAMES:
        return SKILL_NAMES[cid][0 if lang == "en" else 1]
    return cid


def describe(event: Event, viewer: int | None, lang: str = "en") -> str:
    d = dict(event.data)
    zh = lang == "zh"
    S = lambda k: _seat(d.get(k), lang)  # noqa: E731
    k = event.kind
    if k == "identity":
        n = IDENTITY_NAMES[d["identity"]][1 if zh else 0]
        return f"{S('seat')}身份：{n}" if zh else f"{S('seat')} is the {n}."
    if k == "character":
        c = CHARACTERS[d["character"]]
        return f"{S('seat')}选择了{c.zh}" if zh else f"{S('seat')} plays {c.name}."
    if k == "characters":
        names = [CHARACTERS[c].zh if zh else CHARACTERS[c].name for c in d["characters"]]
        return ("武将：" if zh else "Characters: ") + ", ".join(names)
    if k == "turn_start":
        return f"第{d['turn']}回合：{S('seat')}" if zh else f"Turn {d['turn']}: {S('seat')} begins."
    if k == "draw":
        return f"{S('seat')}摸了{d['count']}张牌" if zh else f"{S('seat')} draws {d['count']} card(s)."
    if k == "draw_cards":
        return f"你摸到：{_cards(d['cards'], lang)}" if zh else f"You draw {_cards(d['cards'], lang)}."
    if k in ("use", "respond"):
        card = _name(d["card"], lang)
        how = f" ({_cards(d['cards'], lang)})" if d.get("cards") else ""
        sk = f" [{_name(d.get('skill'), lang)}]" if d.get("skill") else ""
        tg = d.get("targets") or []
        if zh:
            verb = "使用" if k == "use" else "打出"
            return f"{S('seat')}{verb}{card}{how}{sk}" + (f"，目标{tg}" if tg else "")
        verb = "uses" if k == "use" else "plays"
        return f"{S('seat')} {verb} {card}{how}{sk}" + (f" on {tg}" if tg else "") + "."
    if k == "negate":
        return f"{S('seat')}使用无懈可击" if zh else f"{S('seat')} uses Negate {card_label(d['card'])}."
    if k == "damage":
        return (f"{S('seat')}受到{d['amount']}点伤害，体力{d['hp']}" if zh else
                f"{S('seat')} takes {d['amount']} damage from {S('source')}; HP {d['hp']}.")
    if k == "heal":
        return f"{S('seat')}回复{d['amount']}点体力" if zh else f"{S('seat')} heals {d['amount']}; HP {d['hp']}."
    if k == "lose_hp":
        return f"{S('seat')}失去{d['amount']}点体力" if zh else f"{S('seat')} loses {d['amount']} HP."
    if k == "dying":
        return f"{S('seat')}濒死" if zh else f"{S('seat')} is dying."
    if k == "death":
        n = IDENTITY_NAMES[d["identity"]][1 if zh else 0]
        return f"{S('seat')}阵亡，身份{n}" if zh else f"{S('seat')} dies; they were the {n}."
    if k == "judge":
        return (f"{S('seat')}判定：{card_label(d['card'], lang)}" if zh else
                f"Judgment for {S('seat')} ({_name(d['reason'], lang)}): {card_label(d['card'])}.")
    if k == "discard":
        return f"{S('seat')}弃置{_cards(d['cards'], lang)}" if zh else \
            f"{S('seat')} discards {_cards(d['cards'], lang)}."
    if k == "equip":
        return f"{S('seat')}装备{card_label(d['card'], lang)}" if zh else \
            f"{S('seat')} equips {card_label(d['card'])}."
    if k == "skill":
        return f"{S('seat')}发动{_name(d['skill'], lang)}" if zh else \
            f"{S('seat')} uses {_name(d['skill'], lang)}."
    if k == "game_over":
        return f"游戏结束，胜者：{d['winners']}" if zh else f"Game over; winners: {d['winners']}."
    if k in ("take", "give"):
        if d.get("cards"):
            return (f"{S('to')}获得{S('from')}的{_cards(d['cards'], lang)}" if zh else
                    f"{S('to')} takes {_cards(d['cards'], lang)} from {S('from')}.")
        return (f"{S('to')}获得{S('from')}的{d['count']}张牌" if zh else
                f"{S('to')} takes {d['count']} card(s) from {S('from')}.")
    if k in ("take_cards", "give_cards"):
        return (f"{S('to')}获得{_cards(d['cards'], lang)}" if zh else
                f"{S('to')} gets {_cards(d['cards'], lang)} from {S('from')}.")
    text = ", ".join(f"{a}={b}" for a, b in sorted(d.items()))
    return f"{k}: {text}"
