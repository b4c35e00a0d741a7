"""One plain sentence per event, in English (``en``) or simplified Chinese (``zh``).

The caller passes only events the viewer may read (``Event.visible_for``); sentences speak
to the viewer ("you") when the event is about their own seat.
"""

from __future__ import annotations

from typing import Any

from games.rules import Event

from sanguosha.engine.data import (CARD_TYPES, CARDS, CHARACTERS, IDENTITY_NAMES, SKILL_NAMES,
                                   SUIT_SYMBOL, card_label)

SUIT_ZH = {"spade": "黑桃", "heart": "红桃", "club": "梅花", "diamond": "方块"}
PHASES = {"play": ("Play", "出牌阶段"), "discard": ("Discard", "弃牌阶段")}


class _Say:
    def __init__(self, viewer: int | None, lang: str) -> None:
        self.viewer = viewer
        self.zh = lang == "zh"

    def seat(self, s: Any) -> str:
        if s is None:
            return "无人" if self.zh else "nobody"
        if s == self.viewer:
            return f"你（{s}号位）" if self.zh else f"seat {s} (you)"
        return f"{s}号位" if self.zh else f"seat {s}"

    def Seat(self, s: Any) -> str:  # noqa: N802 - capitalised sentence start
        t = self.seat(s)
        return t[:1].upper() + t[1:]

    def cards(self, cs: list[int] | None) -> str:
        return ("、" if self.zh else ", ").join(card_label(c, "zh" if self.zh else "en") for c in cs or [])

    def name(self, cid: str | None) -> str:
        if cid is None:
            return ""
        i = 1 if self.zh else 0
        if cid in CARD_TYPES:
            return str(CARD_TYPES[cid][i])
        if cid in SKILL_NAMES:
            return SKILL_NAMES[cid][i]
        if cid in CHARACTERS:
            return CHARACTERS[cid].zh if self.zh else CHARACTERS[cid].name
        return cid

    def ident(self, i: str) -> str:
        return IDENTITY_NAMES[i][1 if self.zh else 0]


def describe(event: Event, viewer: int | None, lang: str = "en") -> str:
    """One sentence for a diary line, from ``viewer``'s point of view."""
    y = _Say(viewer, lang)
    d = dict(event.data)
    fn = _EN.get(event.kind) if not y.zh else _ZH.get(event.kind)
    if fn is None:
        return f"{event.kind}: " + ", ".join(f"{k}={v}" for k, v in sorted(d.items()))
    return fn(y, d)


def _real(d: dict[str, Any]) -> bool:
    cards = d.get("cards") or []
    return len(cards) == 1 and not d.get("skill") and CARDS[cards[0]].id == d["card"]


def _use_en(y: _Say, d: dict[str, Any], verb: str) -> str:
    if _real(d):
        what = y.cards(d["cards"])
    else:
        how = f" ({y.cards(d.get('cards'))})" if d.get("cards") else ""
        sk = f" with {y.name(d['skill'])}" if d.get("skill") else ""
        what = f"{y.name(d['card'])}{how}{sk}"
    tg = [t for t in d.get("targets") or [] if t != d["seat"]]
    on = (" on " + ", ".join(y.seat(t) for t in tg)) if tg else ""
    return f"{y.Seat(d['seat'])} {verb} {what}{on}."


def _use_zh(y: _Say, d: dict[str, Any], verb: str) -> str:
    if _real(d):
        what = y.cards(d["cards"])
    else:
        how = f"（{y.cards(d.get('cards'))}）" if d.get("cards") else ""
        sk = f"（{y.name(d['skill'])}）" if d.get("skill") else ""
        what = f"{y.name(d['card'])}{how}{sk}"
    tg = [t for t in d.get("targets") or [] if t != d["seat"]]
    on = ("，目标：" + "、".join(y.seat(t) for t in tg)) if tg else ""
    return f"{y.seat(d['seat'])}{verb}{what}{on}"


_EN = {
    "identity": lambda y, d: f"{y.Seat(d['seat'])}: {y.ident(d['identity'])}.",
    "character": lambda y, d: f"{y.Seat(d['seat'])} plays {y.name(d['character'])}.",
    "characters": lambda y, d: "Characters: " + ", ".join(
        f"{y.seat(i)} {y.name(c)}" for i, c in enumerate(d["characters"])) + ".",
    "turn_start": lambda y, d: f"Turn {d['turn']}: {y.seat(d['seat'])} begins.",
    "skip_phase": lambda y, d: f"{y.Seat(d['seat'])} skips the {PHASES[d['turn_phase']][0]} phase.",
    "draw": lambda y, d: f"{y.Seat(d['seat'])} draws {d['count']} card(s).",
    "draw_cards": lambda y, d: f"{y.Seat(d['seat'])} drew {y.cards(d['cards'])}.",
    "use": lambda y, d: _use_en(y, d, "uses"),
    "respond": lambda y, d: _use_en(y, d, "plays"),
    "decline": lambda y, d: f"{y.Seat(d['seat'])} gives no {y.name(d['name'])}.",
    "negate": lambda y, d: f"{y.Seat(d['seat'])} uses {y.cards([d['card']])} against "
                           f"{y.name(d['about'])}.",
    "negate_result": lambda y, d: f"{y.name(d['about'])} on {y.seat(d['target'])} is "
                                  f"{'cancelled' if d['negated'] else 'not cancelled'}.",
    "delayed_resolve": lambda y, d: f"{y.Seat(d['seat'])}'s {y.name(d.get('name'))} "
                                    f"({y.cards([d['card']])}) is resolved.",
    "judge": lambda y, d: f"Judgment for {y.seat(d['seat'])} ({y.name(d['reason'])}): "
                          f"{y.cards([d['card']])}.",
    "judge_replace": lambda y, d: f"{y.Seat(d['seat'])} replaces the judgment card with "
                                  f"{y.cards([d['card']])}.",
    "judge_result": lambda y, d: f"The judgment result is {y.cards([d['card']])}.",
    "damage": lambda y, d: f"{y.Seat(d['seat'])} takes {d['amount']} damage"
                           + (f" from {y.seat(d['source'])}" if d.get("source") is not None else "")
                           + f"; HP {d['hp']}.",
    "heal": lambda y, d: f"{y.Seat(d['seat'])} heals {d['amount']}; HP {d['hp']}.",
    "lose_hp": lambda y, d: f"{y.Seat(d['seat'])} loses {d['amount']} HP; HP {d['hp']}.",
    "dying": lambda y, d: f"{y.Seat(d['seat'])} is dying (HP {d['hp']}).",
    "death": lambda y, d: f"{y.Seat(d['seat'])} dies; the {y.ident(d['identity'])}.",
    "reward": lambda y, d: f"{y.Seat(d['seat'])} draws {d['count']} for killing a Rebel.",
    "penalty": lambda y, d: f"{y.Seat(d['seat'])} killed a Loyalist and discards hand and equipment.",
    "discard": lambda y, d: f"{y.cards(d['cards'])} discarded"
                            + (f" by {y.seat(d['seat'])}" if d.get("seat") is not None else "") + ".",
    "equip": lambda y, d: f"{y.Seat(d['seat'])} equips {y.cards([d['card']])}.",
    "place_delayed": lambda y, d: f"{y.cards([d['card']])} goes to {y.seat(d['seat'])}'s judgment area.",
    "move_delayed": lambda y, d: f"{y.cards([d['card']])} moves to {y.seat(d['to'])}.",
    "take": lambda y, d: f"{y.Seat(d['to'])} takes "
                         + (y.cards(d["cards"]) if d.get("cards") else f"{d['count']} card(s)")
                         + (f" from {y.seat(d['from'])}" if d.get("from") is not None else "") + ".",
    "take_cards": lambda y, d: f"{y.Seat(d['to'])} took {y.cards(d['cards'])} from {y.seat(d['from'])}.",
    "give": lambda y, d: f"{y.Seat(d['from'])} gives {d['count']} card(s) to {y.seat(d['to'])}.",
    "give_cards": lambda y, d: f"{y.Seat(d['from'])} gave {y.cards(d['cards'])} to {y.seat(d['to'])}.",
    "reveal": lambda y, d: f"Revealed: {y.cards(d['cards'])}.",
    "pick": lambda y, d: f"{y.Seat(d['seat'])} takes {y.cards([d['card']])}.",
    "dodged": lambda y, d: f"{y.Seat(d['seat'])} dodges the Kill.",
    "no_effect": lambda y, d: f"The {y.name(d['card'])} has no effect on {y.seat(d['seat'])}.",
    "unanswerable": lambda y, d: f"{y.Seat(d['seat'])} cannot dodge this Kill.",
    "prevent": lambda y, d: f"The damage to {y.seat(d['seat'])} is prevented.",
    "skill": lambda y, d: f"{y.Seat(d['seat'])} uses {y.name(d['skill'])}.",
    "name_suit": lambda y, d: f"{y.Seat(d['seat'])} names {SUIT_SYMBOL[d['suit']]}.",
    "stargazing": lambda y, d: f"{y.Seat(d['seat'])} puts {d['top']} card(s) on top and "
                               f"{d['bottom']} at the bottom.",
    "stargazing_cards": lambda y, d: f"Top: {y.cards(d['top'])}; bottom: {y.cards(d['bottom'])}.",
    "reshuffle": lambda y, d: f"The discard pile ({d['count']} cards) is shuffled into the draw pile.",
    "ask_closed": lambda y, d: f"Ask {d['no']} ({d['kind']}) closed.",
    "game_over": lambda y, d: ("Game over: a draw." if d["reason"] == "draw" else
                               "Game over; winners: " + ", ".join(y.seat(s) for s in d["winners"]) + "."),
}

_ZH = {
    "identity": lambda y, d: f"{y.seat(d['seat'])}的身份：{y.ident(d['identity'])}",
    "character": lambda y, d: f"{y.seat(d['seat'])}选择了{y.name(d['character'])}",
    "characters": lambda y, d: "武将：" + "，".join(
        f"{y.seat(i)}{y.name(c)}" for i, c in enumerate(d["characters"])),
    "turn_start": lambda y, d: f"第{d['turn']}回合：{y.seat(d['seat'])}的回合开始",
    "skip_phase": lambda y, d: f"{y.seat(d['seat'])}跳过{PHASES[d['turn_phase']][1]}",
    "draw": lambda y, d: f"{y.seat(d['seat'])}摸了{d['count']}张牌",
    "draw_cards": lambda y, d: f"{y.seat(d['seat'])}摸到：{y.cards(d['cards'])}",
    "use": lambda y, d: _use_zh(y, d, "使用了"),
    "respond": lambda y, d: _use_zh(y, d, "打出了"),
    "decline": lambda y, d: f"{y.seat(d['seat'])}没有打出{y.name(d['name'])}",
    "negate": lambda y, d: f"{y.seat(d['seat'])}使用{y.cards([d['card']])}抵消{y.name(d['about'])}",
    "negate_result": lambda y, d: f"对{y.seat(d['target'])}的{y.name(d['about'])}"
                                  f"{'被抵消' if d['negated'] else '未被抵消'}",
    "delayed_resolve": lambda y, d: f"{y.seat(d['seat'])}的{y.name(d.get('name'))}"
                                    f"（{y.cards([d['card']])}）开始生效",
    "judge": lambda y, d: f"{y.seat(d['seat'])}进行判定（{y.name(d['reason'])}）：{y.cards([d['card']])}",
    "judge_replace": lambda y, d: f"{y.seat(d['seat'])}用{y.cards([d['card']])}替换了判定牌",
    "judge_result": lambda y, d: f"判定结果：{y.cards([d['card']])}",
    "damage": lambda y, d: (f"{y.seat(d['seat'])}受到"
                            + (f"{y.seat(d['source'])}造成的" if d.get("source") is not None else "")
                            + f"{d['amount']}点伤害，体力{d['hp']}"),
    "heal": lambda y, d: f"{y.seat(d['seat'])}回复{d['amount']}点体力，体力{d['hp']}",
    "lose_hp": lambda y, d: f"{y.seat(d['seat'])}失去{d['amount']}点体力，体力{d['hp']}",
    "dying": lambda y, d: f"{y.seat(d['seat'])}进入濒死状态（体力{d['hp']}）",
    "death": lambda y, d: f"{y.seat(d['seat'])}阵亡，身份：{y.ident(d['identity'])}",
    "reward": lambda y, d: f"{y.seat(d['seat'])}击杀反贼，摸{d['count']}张牌",
    "penalty": lambda y, d: f"{y.seat(d['seat'])}误杀忠臣，弃置所有手牌和装备",
    "discard": lambda y, d: (f"{y.seat(d['seat'])}" if d.get("seat") is not None else "")
                            + f"弃置了{y.cards(d['cards'])}",
    "equip": lambda y, d: f"{y.seat(d['seat'])}装备了{y.cards([d['card']])}",
    "place_delayed": lambda y, d: f"{y.cards([d['card']])}置入{y.seat(d['seat'])}的判定区",
    "move_delayed": lambda y, d: f"{y.cards([d['card']])}移至{y.seat(d['to'])}的判定区",
    "take": lambda y, d: f"{y.seat(d['to'])}获得了"
                         + (f"{y.seat(d['from'])}的" if d.get("from") is not None else "")
                         + (y.cards(d["cards"]) if d.get("cards") else f"{d['count']}张牌"),
    "take_cards": lambda y, d: f"{y.seat(d['to'])}获得了{y.seat(d['from'])}的{y.cards(d['cards'])}",
    "give": lambda y, d: f"{y.seat(d['from'])}交给{y.seat(d['to'])}{d['count']}张牌",
    "give_cards": lambda y, d: f"{y.seat(d['from'])}交给{y.seat(d['to'])}：{y.cards(d['cards'])}",
    "reveal": lambda y, d: f"亮出：{y.cards(d['cards'])}",
    "pick": lambda y, d: f"{y.seat(d['seat'])}获得了{y.cards([d['card']])}",
    "dodged": lambda y, d: f"{y.seat(d['seat'])}闪避了杀",
    "no_effect": lambda y, d: f"{y.name(d['card'])}对{y.seat(d['seat'])}无效",
    "unanswerable": lambda y, d: f"{y.seat(d['seat'])}不能使用闪响应此杀",
    "prevent": lambda y, d: f"防止了对{y.seat(d['seat'])}的伤害",
    "skill": lambda y, d: f"{y.seat(d['seat'])}发动了{y.name(d['skill'])}",
    "name_suit": lambda y, d: f"{y.seat(d['seat'])}声明了{SUIT_ZH[d['suit']]}",
    "stargazing": lambda y, d: f"{y.seat(d['seat'])}将{d['top']}张牌置于牌堆顶，{d['bottom']}张置于牌堆底",
    "stargazing_cards": lambda y, d: f"牌堆顶：{y.cards(d['top'])}；牌堆底：{y.cards(d['bottom'])}",
    "reshuffle": lambda y, d: f"弃牌堆（{d['count']}张）洗入摸牌堆",
    "ask_closed": lambda y, d: f"询问{d['no']}（{d['kind']}）结束",
    "game_over": lambda y, d: ("游戏结束：平局" if d["reason"] == "draw" else
                               "游戏结束，胜者：" + "、".join(y.seat(s) for s in d["winners"])),
}
