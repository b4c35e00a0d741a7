"""One plain sentence per event, in English (``en``) or simplified Chinese (``zh``).

The caller passes only events the viewer may read (``Event.visible_for``) and, where a
person reads the line, ``names`` (seat → player name): sentences name players, say "you"
to the viewer (with the verb agreeing), and put an ask into words ("demo2's Kill on you:
Dodge?"), never a seat or ask number. Without ``names`` (scenario tools) a seat reads
"seat N".
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from games.rules import Event

from sanguosha.engine.data import (CARD_TYPES, CARDS, CHARACTERS, IDENTITY_NAMES, SKILL_NAMES,
                                   SUIT_SYMBOL, card_label)

SUIT_ZH = {"spade": "黑桃", "heart": "红桃", "club": "梅花", "diamond": "方块"}
PHASES = {"play": ("Play", "出牌阶段"), "discard": ("Discard", "弃牌阶段")}
IRREGULAR = {"is": "are", "has": "have", "was": "were"}
Say = Callable[["_Say", dict[str, Any]], str]


class _Say:
    def __init__(self, viewer: int | None, lang: str,
                 names: Mapping[int, str] | None = None) -> None:
        self.viewer = viewer
        self.zh = lang == "zh"
        self.names = names or {}

    def seat(self, s: Any) -> str:
        if s is None:
            return "无人" if self.zh else "nobody"
        if s == self.viewer:
            return "你" if self.zh else "you"
        name = self.names.get(s)
        if name:
            return name
        return f"{s}号位" if self.zh else f"seat {s}"

    def Seat(self, s: Any) -> str:  # noqa: N802 - capitalised sentence start
        t = self.seat(s)
        # a player's name is written as it is (usernames keep their case)
        return t if s in self.names and s != self.viewer else t[:1].upper() + t[1:]

    def of(self, s: Any) -> str:
        """Possessive: "your", "demo2's"."""
        return ("你的" if self.zh else "your") if s == self.viewer and s is not None else (
            f"{self.seat(s)}的" if self.zh else f"{self.seat(s)}'s")

    def Of(self, s: Any) -> str:  # noqa: N802
        t = self.of(s)
        return t if s in self.names and s != self.viewer else t[:1].upper() + t[1:]

    def v(self, s: Any, verb: str) -> str:
        """``verb`` (third person, "draws") agreeing with ``s``: "you draw", "demo2 draws"."""
        if s is None or s != self.viewer:
            return verb
        if verb in IRREGULAR:
            return IRREGULAR[verb]
        return verb[:-1] if verb.endswith("s") else verb

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


def describe(event: Event, viewer: int | None, lang: str = "en",
             names: Mapping[int, str] | None = None) -> str:
    """One sentence for a diary line, from ``viewer``'s point of view.

    >>> describe(Event("draw", {"seat": 1, "count": 2}, None), 1, names={1: "demo2"})
    'You draw 2 card(s).'
    >>> describe(Event("draw", {"seat": 1, "count": 2}, None), 0, names={1: "demo2"})
    'demo2 draws 2 card(s).'
    """
    y = _Say(viewer, lang, names)
    d = dict(event.data)
    fn = _EN.get(event.kind) if not y.zh else _ZH.get(event.kind)
    if fn is None:
        return f"{event.kind}: " + ", ".join(f"{k}={v}" for k, v in sorted(d.items()))
    return fn(y, d)


def ask_question(kind: str, info: Mapping[str, Any], viewer: int | None, lang: str = "en",
                 names: Mapping[int, str] | None = None) -> str:
    """An ask in words, from ``viewer``'s point of view: "demo1's Kill on you: Dodge?".

    ``info`` is the ask's public ``info`` (never who is awaited in a Negate window).
    """
    y = _Say(viewer, lang, names)
    fn = (_ASK_ZH if y.zh else _ASK_EN).get(kind)
    return fn(y, dict(info or {})) if fn else ("询问" if y.zh else "A question")


def _ask_respond_en(y: _Say, i: dict[str, Any]) -> str:
    want = y.name(i.get("name")) or "a card"
    src, reason = i.get("src"), i.get("reason")
    if reason == "lord_help" and src is not None:
        return f"{y.Seat(src)} {y.v(src, 'asks')} {y.seat(i.get('seat'))} for help: {want}?"
    if src is not None and reason:
        return f"{y.Of(src)} {y.name(reason)} on {y.seat(i.get('seat'))}: {want}?"
    return f"{y.Seat(i.get('seat'))}: {want}?"


def _ask_respond_zh(y: _Say, i: dict[str, Any]) -> str:
    want = y.name(i.get("name")) or "牌"
    src, reason = i.get("src"), i.get("reason")
    if reason == "lord_help" and src is not None:
        return f"{y.seat(src)}请{y.seat(i.get('seat'))}代为出{want}吗？"
    if src is not None and reason:
        return f"{y.of(src)}{y.name(reason)}指向{y.seat(i.get('seat'))}：出{want}吗？"
    return f"{y.seat(i.get('seat'))}：出{want}吗？"


def _ask_negate_en(y: _Say, i: dict[str, Any]) -> str:
    about = y.name(i.get("about")) or "the trick"
    if i.get("against_negate") is not None:
        return f"Negate the Negate on {about}?"
    target = i.get("target")
    return f"{about}" + (f" on {y.seat(target)}" if target is not None else "") + ": Negate?"


_ASK_EN: dict[str, Say] = {
    "choose_character": lambda y, i: ("The lord chooses a character." if i.get("seat") == 0
                                      else "Everyone else chooses a character."),
    "play": lambda y, i: f"{y.Of(i.get('seat'))} Play phase: use a card or end it?",
    "respond": _ask_respond_en,
    "borrowed_sword": lambda y, i: f"Borrowed Sword: {y.seat(i.get('seat'))} must Kill "
                                   f"{y.seat(i.get('target'))} or hand over the weapon.",
    "negate_window": _ask_negate_en,
    "rescue": lambda y, i: f"{y.Seat(i.get('dying'))} {y.v(i.get('dying'), 'is')} dying: "
                           f"Peach?",
    "discard": lambda y, i: f"{y.Seat(i.get('seat'))} {y.v(i.get('seat'), 'discards')} "
                            f"{i.get('count')} card(s) down to the hand limit.",
    "invoke": lambda y, i: f"{y.Seat(i.get('seat'))}: use {y.name(i.get('skill'))}?",
    "choose_card": lambda y, i: f"{y.Seat(i.get('seat'))} {y.v(i.get('seat'), 'chooses')} a card "
                                f"of {y.seat(i.get('owner'))}.",
    "choose_option": lambda y, i: f"{y.Seat(i.get('seat'))}: name a suit.",
    "pick_revealed": lambda y, i: f"Bumper Harvest: {y.seat(i.get('seat'))} "
                                  f"{y.v(i.get('seat'), 'takes')} a card.",
    "arrange": lambda y, i: f"Stargazing: {y.seat(i.get('seat'))} "
                            f"{y.v(i.get('seat'), 'arranges')} the top cards.",
    "distribute": lambda y, i: f"Bequeathed Strategy: {y.seat(i.get('seat'))} "
                               f"{y.v(i.get('seat'), 'gives')} the cards away or keeps them.",
    "optional_cost": lambda y, i: f"{y.Seat(i.get('seat'))}: pay {i.get('count')} card(s)"
                                  + (f" for {y.name(i['why'])}" if i.get("why") else "") + "?",
}

_ASK_ZH: dict[str, Say] = {
    "choose_character": lambda y, i: "主公选择武将" if i.get("seat") == 0 else "其他角色选择武将",
    "play": lambda y, i: f"{y.of(i.get('seat'))}出牌阶段",
    "respond": _ask_respond_zh,
    "borrowed_sword": lambda y, i: f"借刀杀人：{y.seat(i.get('seat'))}须对{y.seat(i.get('target'))}出杀",
    "negate_window": lambda y, i: f"{y.name(i.get('about'))}：使用无懈可击吗？",
    "rescue": lambda y, i: f"{y.seat(i.get('dying'))}濒死：使用桃吗？",
    "discard": lambda y, i: f"{y.seat(i.get('seat'))}弃置{i.get('count')}张牌",
    "invoke": lambda y, i: f"{y.seat(i.get('seat'))}：发动{y.name(i.get('skill'))}吗？",
    "choose_card": lambda y, i: f"{y.seat(i.get('seat'))}选择{y.seat(i.get('owner'))}的一张牌",
    "choose_option": lambda y, i: f"{y.seat(i.get('seat'))}：声明一种花色",
    "pick_revealed": lambda y, i: f"五谷丰登：{y.seat(i.get('seat'))}选择一张牌",
    "arrange": lambda y, i: f"观星：{y.seat(i.get('seat'))}排列牌堆顶",
    "distribute": lambda y, i: f"遗计：{y.seat(i.get('seat'))}分配牌",
    "optional_cost": lambda y, i: f"{y.seat(i.get('seat'))}：弃置{i.get('count')}张牌吗？",
}


def _ask_closed_en(y: _Say, d: dict[str, Any]) -> str:
    if "info" not in d:  # rows written before asks carried their info
        return "A question was answered."
    return f"{ask_question(d['kind'], d['info'], y.viewer, 'en', y.names)} — answered."


def _ask_closed_zh(y: _Say, d: dict[str, Any]) -> str:
    if "info" not in d:
        return "询问结束"
    return f"已回应：{ask_question(d['kind'], d['info'], y.viewer, 'zh', y.names)}"


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
    return f"{y.Seat(d['seat'])} {y.v(d['seat'], verb)} {what}{on}."


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


def _S(y: _Say, d: dict[str, Any], verb: str, key: str = "seat") -> str:  # noqa: N802
    """Sentence start: subject and its verb, "You draw" / "demo2 draws"."""
    return f"{y.Seat(d[key])} {y.v(d[key], verb)}"


_EN: dict[str, Say] = {
    "identity": lambda y, d: f"{y.Seat(d['seat'])}: {y.ident(d['identity'])}.",
    "character": lambda y, d: f"{_S(y, d, 'plays')} {y.name(d['character'])}.",
    "characters": lambda y, d: "Characters: " + ", ".join(
        f"{y.seat(i)} {y.name(c)}" for i, c in enumerate(d["characters"])) + ".",
    "turn_start": lambda y, d: f"Turn {d['turn']}: {y.seat(d['seat'])} {y.v(d['seat'], 'begins')}.",
    "skip_phase": lambda y, d: f"{_S(y, d, 'skips')} the {PHASES[d['turn_phase']][0]} phase.",
    "draw": lambda y, d: f"{_S(y, d, 'draws')} {d['count']} card(s).",
    "draw_cards": lambda y, d: f"{y.Seat(d['seat'])} drew {y.cards(d['cards'])}.",
    "use": lambda y, d: _use_en(y, d, "uses"),
    "respond": lambda y, d: _use_en(y, d, "plays"),
    "decline": lambda y, d: f"{_S(y, d, 'gives')} no {y.name(d['name'])}.",
    "negate": lambda y, d: f"{_S(y, d, 'uses')} {y.cards([d['card']])} against "
                           f"{y.name(d['about'])}.",
    "negate_result": lambda y, d: f"{y.name(d['about'])} on {y.seat(d['target'])} is "
                                  f"{'cancelled' if d['negated'] else 'not cancelled'}.",
    "delayed_resolve": lambda y, d: f"{y.Of(d['seat'])} {y.name(d.get('name'))} "
                                    f"({y.cards([d['card']])}) is resolved.",
    "judge": lambda y, d: f"Judgment for {y.seat(d['seat'])} ({y.name(d['reason'])}): "
                          f"{y.cards([d['card']])}.",
    "judge_replace": lambda y, d: f"{_S(y, d, 'replaces')} the judgment card with "
                                  f"{y.cards([d['card']])}.",
    "judge_result": lambda y, d: f"The judgment result is {y.cards([d['card']])}.",
    "damage": lambda y, d: f"{_S(y, d, 'takes')} {d['amount']} damage"
                           + (f" from {y.seat(d['source'])}" if d.get("source") is not None else "")
                           + f"; HP {d['hp']}.",
    "heal": lambda y, d: f"{_S(y, d, 'heals')} {d['amount']}; HP {d['hp']}.",
    "lose_hp": lambda y, d: f"{_S(y, d, 'loses')} {d['amount']} HP; HP {d['hp']}.",
    "dying": lambda y, d: f"{_S(y, d, 'is')} dying (HP {d['hp']}).",
    "death": lambda y, d: f"{_S(y, d, 'dies')}; the {y.ident(d['identity'])}.",
    "reward": lambda y, d: f"{_S(y, d, 'draws')} {d['count']} for killing a Rebel.",
    "penalty": lambda y, d: f"{y.Seat(d['seat'])} killed a Loyalist and "
                            f"{y.v(d['seat'], 'discards')} hand and equipment.",
    "discard": lambda y, d: f"{y.cards(d['cards'])} discarded"
                            + (f" by {y.seat(d['seat'])}" if d.get("seat") is not None else "") + ".",
    "equip": lambda y, d: f"{_S(y, d, 'equips')} {y.cards([d['card']])}.",
    "place_delayed": lambda y, d: f"{y.cards([d['card']])} goes to {y.of(d['seat'])} judgment area.",
    "move_delayed": lambda y, d: f"{y.cards([d['card']])} moves to {y.seat(d['to'])}.",
    "take": lambda y, d: f"{_S(y, d, 'takes', 'to')} "
                         + (y.cards(d["cards"]) if d.get("cards") else f"{d['count']} card(s)")
                         + (f" from {y.seat(d['from'])}" if d.get("from") is not None else "") + ".",
    "take_cards": lambda y, d: f"{y.Seat(d['to'])} took {y.cards(d['cards'])} from {y.seat(d['from'])}.",
    "give": lambda y, d: f"{_S(y, d, 'gives', 'from')} {d['count']} card(s) to {y.seat(d['to'])}.",
    "give_cards": lambda y, d: f"{y.Seat(d['from'])} gave {y.cards(d['cards'])} to {y.seat(d['to'])}.",
    "reveal": lambda y, d: f"Revealed: {y.cards(d['cards'])}.",
    "pick": lambda y, d: f"{_S(y, d, 'takes')} {y.cards([d['card']])}.",
    "dodged": lambda y, d: f"{_S(y, d, 'dodges')} the Kill.",
    "no_effect": lambda y, d: f"The {y.name(d['card'])} has no effect on {y.seat(d['seat'])}.",
    "unanswerable": lambda y, d: f"{y.Seat(d['seat'])} cannot dodge this Kill.",
    "prevent": lambda y, d: f"The damage to {y.seat(d['seat'])} is prevented.",
    "skill": lambda y, d: f"{_S(y, d, 'uses')} {y.name(d['skill'])}.",
    "name_suit": lambda y, d: f"{_S(y, d, 'names')} {SUIT_SYMBOL[d['suit']]}.",
    "stargazing": lambda y, d: f"{_S(y, d, 'puts')} {d['top']} card(s) on top and "
                               f"{d['bottom']} at the bottom.",
    "stargazing_cards": lambda y, d: f"Top: {y.cards(d['top'])}; bottom: {y.cards(d['bottom'])}.",
    "reshuffle": lambda y, d: f"The discard pile ({d['count']} cards) is shuffled into the draw pile.",
    "ask_closed": _ask_closed_en,
    "game_over": lambda y, d: ("Game over: a draw." if d["reason"] == "draw" else
                               "Game over; winners: " + ", ".join(y.seat(s) for s in d["winners"]) + "."),
}

_ZH: dict[str, Say] = {
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
    "ask_closed": _ask_closed_zh,
    "game_over": lambda y, d: ("游戏结束：平局" if d["reason"] == "draw" else
                               "游戏结束，胜者：" + "、".join(y.seat(s) for s in d["winners"])),
}
