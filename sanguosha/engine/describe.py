"""One plain sentence per event, in English (``en``) or simplified Chinese (``zh``).

The English sentences are ``games.rules.Msg``: their message ids and parameters let the
app layer say them in the reader's language (Italian, Japanese, Spanish) from Django's
catalogues. A sentence whose subject may be the reader has two ids ("You draw…" and
"%(who)s draws…"), so every language conjugates its own verb; counts use plural forms.

The caller passes only events the viewer may read (``Event.visible_for``) and, where a
person reads the line, ``names`` (seat → player name): sentences name players, say "you"
to the viewer (with the verb agreeing), and put an ask into words ("demo2's Kill on you:
Dodge?"), never a seat or ask number. Without ``names`` (scenario tools) a seat reads
"seat N".
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from games.rules import Event, Msg, T, Tc, Tn

from sanguosha.engine.data import (CARD_TYPES, CARDS, CHARACTERS, IDENTITY_NAMES, SKILL_NAMES,
                                   SUIT_SYMBOL, card_label)

SUIT_ZH = {"spade": "黑桃", "heart": "红桃", "club": "梅花", "diamond": "方块"}
PHASES = {"play": (Tc("sanguosha phase", "Play"), "出牌阶段"),
          "discard": (Tc("sanguosha phase", "Discard"), "弃牌阶段")}
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
            return "无人" if self.zh else T("nobody")
        if s == self.viewer:
            return "你" if self.zh else Tc("sanguosha object", "you")
        name = self.names.get(s)
        if name:
            return name
        return f"{s}号位" if self.zh else T("seat %(number)s", number=s)

    def pick(self, s: Any, you: Msg, other: Msg) -> Msg:
        """The sentence whose subject is ``s``: ``you`` for the reader, else ``other``."""
        return you if s is not None and s == self.viewer else other

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

    def cards(self, cs: list[int] | None) -> Any:
        if self.zh:
            return "、".join(card_label(c, "zh") for c in cs or [])
        return [card_label(c, "en") for c in cs or []]  # a list: joined the reader's way

    def name(self, cid: str | None) -> Any:
        if cid is None:
            return ""
        i = 1 if self.zh else 0
        if cid in CARD_TYPES:  # a Msg in English: said in the reader's language
            return CARD_TYPES[cid][i]
        if cid in SKILL_NAMES:
            return SKILL_NAMES[cid][i]
        if cid in CHARACTERS:
            return CHARACTERS[cid].zh if self.zh else CHARACTERS[cid].name
        return cid

    def ident(self, i: str) -> Any:
        return IDENTITY_NAMES[i][1 if self.zh else 0]


def describe(event: Event, viewer: int | None, lang: str = "en",
             names: Mapping[int, str] | None = None) -> str:
    """One sentence for a diary line, from ``viewer``'s point of view.

    >>> describe(Event("draw", {"seat": 1, "count": 2}, None), 1, names={1: "demo2"})
    'You draw 2 cards.'
    >>> describe(Event("draw", {"seat": 1, "count": 2}, None), 0, names={1: "demo2"})
    'demo2 draws 2 cards.'
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
    return fn(y, dict(info or {})) if fn else ("询问" if y.zh else T("A question"))


def _ask_respond_en(y: _Say, i: dict[str, Any]) -> Msg:
    want = y.name(i.get("name")) or T("a card")
    src, reason, seat = i.get("src"), i.get("reason"), i.get("seat")
    if reason == "lord_help" and src is not None:
        return y.pick(src, T("You ask %(target)s for help: %(card)s?", target=y.seat(seat), card=want),
                      T("%(who)s asks %(target)s for help: %(card)s?", who=y.seat(src),
                        target=y.seat(seat), card=want))
    if src is not None and reason:
        return y.pick(src, T("Your %(reason)s on %(target)s: %(card)s?", reason=y.name(reason),
                             target=y.seat(seat), card=want),
                      T("%(who)s's %(reason)s on %(target)s: %(card)s?", who=y.seat(src),
                        reason=y.name(reason), target=y.seat(seat), card=want))
    return y.pick(seat, T("You: %(card)s?", card=want),
                  T("%(who)s: %(card)s?", who=y.seat(seat), card=want))


def _ask_negate_en(y: _Say, i: dict[str, Any]) -> Msg:
    about = y.name(i.get("about")) or T("the trick")
    if i.get("against_negate") is not None:
        return T("Negate the Negate on %(trick)s?", trick=about)
    target = i.get("target")
    if target is None:
        return T("%(trick)s: Negate?", trick=about)
    return T("%(trick)s on %(target)s: Negate?", trick=about, target=y.seat(target))


def _who(y: _Say, s: Any) -> dict[str, Any]:
    return {"who": y.seat(s)}


_ASK_EN: dict[str, Say] = {
    "choose_character": lambda y, i: (T("The lord chooses a character.") if i.get("seat") == 0
                                      else T("Everyone else chooses a character.")),
    "play": lambda y, i: y.pick(i.get("seat"), T("Your Play phase: use a card or end it?"),
                                T("%(who)s's Play phase: use a card or end it?",
                                  **_who(y, i.get("seat")))),
    "respond": _ask_respond_en,
    "borrowed_sword": lambda y, i: T("Borrowed Sword: %(who)s must Kill %(target)s or hand over "
                                     "the weapon.", who=y.seat(i.get("seat")),
                                     target=y.seat(i.get("target"))),
    "negate_window": _ask_negate_en,
    "rescue": lambda y, i: y.pick(i.get("dying"), T("You are dying: Peach?"),
                                  T("%(who)s is dying: Peach?", **_who(y, i.get("dying")))),
    "discard": lambda y, i: y.pick(
        i.get("seat"),
        Tn("You discard %(count)s card down to the hand limit.",
           "You discard %(count)s cards down to the hand limit.", i.get("count") or 0,
           count=i.get("count")),
        Tn("%(who)s discards %(count)s card down to the hand limit.",
           "%(who)s discards %(count)s cards down to the hand limit.", i.get("count") or 0,
           count=i.get("count"), **_who(y, i.get("seat")))),
    "invoke": lambda y, i: y.pick(i.get("seat"), T("You: use %(skill)s?", skill=y.name(i.get("skill"))),
                                  T("%(who)s: use %(skill)s?", skill=y.name(i.get("skill")),
                                    **_who(y, i.get("seat")))),
    "choose_card": lambda y, i: y.pick(
        i.get("seat"), T("You choose a card of %(owner)s.", owner=y.seat(i.get("owner"))),
        T("%(who)s chooses a card of %(owner)s.", owner=y.seat(i.get("owner")),
          **_who(y, i.get("seat")))),
    "choose_option": lambda y, i: y.pick(i.get("seat"), T("You: name a suit."),
                                         T("%(who)s: name a suit.", **_who(y, i.get("seat")))),
    "pick_revealed": lambda y, i: y.pick(i.get("seat"), T("Bumper Harvest: you take a card."),
                                         T("Bumper Harvest: %(who)s takes a card.",
                                           **_who(y, i.get("seat")))),
    "arrange": lambda y, i: y.pick(i.get("seat"), T("Stargazing: you arrange the top cards."),
                                   T("Stargazing: %(who)s arranges the top cards.",
                                     **_who(y, i.get("seat")))),
    "distribute": lambda y, i: y.pick(
        i.get("seat"), T("Bequeathed Strategy: you give the cards away or keep them."),
        T("Bequeathed Strategy: %(who)s gives the cards away or keeps them.",
          **_who(y, i.get("seat")))),
    "optional_cost": lambda y, i: _ask_cost_en(y, i),
}


def _ask_cost_en(y: _Say, i: dict[str, Any]) -> Msg:
    n, s = i.get("count") or 0, i.get("seat")
    if i.get("why"):
        return y.pick(s, Tn("You: pay %(count)s card for %(skill)s?",
                            "You: pay %(count)s cards for %(skill)s?", n, count=n,
                            skill=y.name(i["why"])),
                      Tn("%(who)s: pay %(count)s card for %(skill)s?",
                         "%(who)s: pay %(count)s cards for %(skill)s?", n, count=n,
                         skill=y.name(i["why"]), **_who(y, s)))
    return y.pick(s, Tn("You: pay %(count)s card?", "You: pay %(count)s cards?", n, count=n),
                  Tn("%(who)s: pay %(count)s card?", "%(who)s: pay %(count)s cards?", n,
                     count=n, **_who(y, s)))


def _ask_respond_zh(y: _Say, i: dict[str, Any]) -> str:
    want = y.name(i.get("name")) or "牌"
    src, reason = i.get("src"), i.get("reason")
    if reason == "lord_help" and src is not None:
        return f"{y.seat(src)}请{y.seat(i.get('seat'))}代为出{want}吗？"
    if src is not None and reason:
        return f"{y.of(src)}{y.name(reason)}指向{y.seat(i.get('seat'))}：出{want}吗？"
    return f"{y.seat(i.get('seat'))}：出{want}吗？"


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


def _ask_closed_en(y: _Say, d: dict[str, Any]) -> Msg:
    if "info" not in d:  # rows written before asks carried their info
        return T("A question was answered.")
    return T("%(question)s — answered.",
             question=ask_question(d['kind'], d['info'], y.viewer, 'en', y.names))


def _ask_closed_zh(y: _Say, d: dict[str, Any]) -> str:
    if "info" not in d:
        return "询问结束"
    return f"已回应：{ask_question(d['kind'], d['info'], y.viewer, 'zh', y.names)}"


def _real(d: dict[str, Any]) -> bool:
    cards = d.get("cards") or []
    return len(cards) == 1 and not d.get("skill") and CARDS[cards[0]].id == d["card"]


def _use_en(y: _Say, d: dict[str, Any], verb: str) -> Msg:
    if _real(d):
        what: Any = y.cards(d["cards"])
    elif d.get("cards") and d.get("skill"):
        what = T("%(card)s (%(cards)s) with %(skill)s", card=y.name(d["card"]),
                 cards=y.cards(d["cards"]), skill=y.name(d["skill"]))
    elif d.get("cards"):
        what = T("%(card)s (%(cards)s)", card=y.name(d["card"]), cards=y.cards(d["cards"]))
    elif d.get("skill"):
        what = T("%(card)s with %(skill)s", card=y.name(d["card"]), skill=y.name(d["skill"]))
    else:
        what = y.name(d["card"])
    tg = [y.seat(t) for t in d.get("targets") or [] if t != d["seat"]]
    s = d["seat"]
    if verb == "uses":
        if tg:
            return y.pick(s, T("You use %(what)s on %(targets)s.", what=what, targets=tg),
                          T("%(who)s uses %(what)s on %(targets)s.", what=what, targets=tg,
                            **_who(y, s)))
        return y.pick(s, T("You use %(what)s.", what=what),
                      T("%(who)s uses %(what)s.", what=what, **_who(y, s)))
    if tg:
        return y.pick(s, T("You play %(what)s on %(targets)s.", what=what, targets=tg),
                      T("%(who)s plays %(what)s on %(targets)s.", what=what, targets=tg,
                        **_who(y, s)))
    return y.pick(s, T("You play %(what)s.", what=what),
                  T("%(who)s plays %(what)s.", what=what, **_who(y, s)))


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


def _y(y: _Say, d: dict[str, Any], you: Msg, other: Msg, key: str = "seat") -> Msg:
    return y.pick(d.get(key), you, other)


def _n(d: dict[str, Any], key: str = "count") -> int:
    return int(d.get(key) or 0)


def _damage_en(y: _Say, d: dict[str, Any]) -> Msg:
    w, a, hp = _who(y, d["seat"]), d["amount"], d["hp"]
    if d.get("source") is not None:
        src = y.seat(d["source"])
        return _y(y, d, T("You take %(amount)s damage from %(source)s; HP %(hp)s.", amount=a,
                          source=src, hp=hp),
                  T("%(who)s takes %(amount)s damage from %(source)s; HP %(hp)s.", amount=a,
                    source=src, hp=hp, **w))
    return _y(y, d, T("You take %(amount)s damage; HP %(hp)s.", amount=a, hp=hp),
              T("%(who)s takes %(amount)s damage; HP %(hp)s.", amount=a, hp=hp, **w))


def _take_en(y: _Say, d: dict[str, Any]) -> Msg:
    w = _who(y, d["to"])
    what = y.cards(d["cards"]) if d.get("cards") else Tn("%(count)s card", "%(count)s cards",
                                                          _n(d), count=_n(d))
    if d.get("from") is not None:
        return _y(y, d, T("You take %(what)s from %(owner)s.", what=what, owner=y.seat(d["from"])),
                  T("%(who)s takes %(what)s from %(owner)s.", what=what,
                    owner=y.seat(d["from"]), **w), "to")
    return _y(y, d, T("You take %(what)s.", what=what),
              T("%(who)s takes %(what)s.", what=what, **w), "to")


_EN: dict[str, Say] = {
    "identity": lambda y, d: T("%(who)s: %(identity)s.", who=y.Seat(d["seat"]),
                               identity=y.ident(d["identity"])),
    "character": lambda y, d: _y(y, d, T("You play %(character)s.", character=y.name(d["character"])),
                                 T("%(who)s plays %(character)s.", character=y.name(d["character"]),
                                   **_who(y, d["seat"]))),
    "characters": lambda y, d: T("Characters: %(list)s.", list=[
        T("%(who)s %(character)s", who=y.seat(i), character=y.name(c))
        for i, c in enumerate(d["characters"])]),
    "turn_start": lambda y, d: _y(y, d, T("Turn %(turn)s: you begin.", turn=d["turn"]),
                                  T("Turn %(turn)s: %(who)s begins.", turn=d["turn"],
                                    **_who(y, d["seat"]))),
    "skip_phase": lambda y, d: _y(y, d, T("You skip the %(phase)s phase.",
                                          phase=PHASES[d["turn_phase"]][0]),
                                  T("%(who)s skips the %(phase)s phase.",
                                    phase=PHASES[d["turn_phase"]][0], **_who(y, d["seat"]))),
    "draw": lambda y, d: _y(y, d, Tn("You draw %(count)s card.", "You draw %(count)s cards.",
                                     _n(d), count=_n(d)),
                            Tn("%(who)s draws %(count)s card.", "%(who)s draws %(count)s cards.",
                               _n(d), count=_n(d), **_who(y, d["seat"]))),
    "draw_cards": lambda y, d: _y(y, d, T("You drew %(cards)s.", cards=y.cards(d["cards"])),
                                  T("%(who)s drew %(cards)s.", cards=y.cards(d["cards"]),
                                    **_who(y, d["seat"]))),
    "use": lambda y, d: _use_en(y, d, "uses"),
    "respond": lambda y, d: _use_en(y, d, "plays"),
    "decline": lambda y, d: _y(y, d, T("You give no %(card)s.", card=y.name(d["name"])),
                               T("%(who)s gives no %(card)s.", card=y.name(d["name"]),
                                 **_who(y, d["seat"]))),
    "negate": lambda y, d: _y(y, d, T("You use %(cards)s against %(trick)s.",
                                      cards=y.cards([d["card"]]), trick=y.name(d["about"])),
                              T("%(who)s uses %(cards)s against %(trick)s.",
                                cards=y.cards([d["card"]]), trick=y.name(d["about"]),
                                **_who(y, d["seat"]))),
    "negate_result": lambda y, d: (
        T("%(trick)s on %(target)s is cancelled.", trick=y.name(d["about"]),
          target=y.seat(d["target"])) if d["negated"] else
        T("%(trick)s on %(target)s is not cancelled.", trick=y.name(d["about"]),
          target=y.seat(d["target"]))),
    "delayed_resolve": lambda y, d: _y(
        y, d, T("Your %(trick)s (%(cards)s) is resolved.", trick=y.name(d.get("name")),
                cards=y.cards([d["card"]])),
        T("%(who)s's %(trick)s (%(cards)s) is resolved.", trick=y.name(d.get("name")),
          cards=y.cards([d["card"]]), **_who(y, d["seat"]))),
    "judge": lambda y, d: T("Judgment for %(who)s (%(reason)s): %(cards)s.", who=y.seat(d["seat"]),
                            reason=y.name(d["reason"]), cards=y.cards([d["card"]])),
    "judge_replace": lambda y, d: _y(y, d, T("You replace the judgment card with %(cards)s.",
                                             cards=y.cards([d["card"]])),
                                     T("%(who)s replaces the judgment card with %(cards)s.",
                                       cards=y.cards([d["card"]]), **_who(y, d["seat"]))),
    "judge_result": lambda y, d: T("The judgment result is %(cards)s.", cards=y.cards([d["card"]])),
    "damage": _damage_en,
    "heal": lambda y, d: _y(y, d, T("You heal %(amount)s; HP %(hp)s.", amount=d["amount"], hp=d["hp"]),
                            T("%(who)s heals %(amount)s; HP %(hp)s.", amount=d["amount"],
                              hp=d["hp"], **_who(y, d["seat"]))),
    "lose_hp": lambda y, d: _y(y, d, T("You lose %(amount)s HP; HP %(hp)s.", amount=d["amount"],
                                       hp=d["hp"]),
                               T("%(who)s loses %(amount)s HP; HP %(hp)s.", amount=d["amount"],
                                 hp=d["hp"], **_who(y, d["seat"]))),
    "dying": lambda y, d: _y(y, d, T("You are dying (HP %(hp)s).", hp=d["hp"]),
                             T("%(who)s is dying (HP %(hp)s).", hp=d["hp"], **_who(y, d["seat"]))),
    "death": lambda y, d: _y(y, d, T("You die; the %(identity)s.", identity=y.ident(d["identity"])),
                             T("%(who)s dies; the %(identity)s.", identity=y.ident(d["identity"]),
                               **_who(y, d["seat"]))),
    "reward": lambda y, d: _y(y, d, Tn("You draw %(count)s card for killing a Rebel.",
                                       "You draw %(count)s cards for killing a Rebel.", _n(d),
                                       count=_n(d)),
                              Tn("%(who)s draws %(count)s card for killing a Rebel.",
                                 "%(who)s draws %(count)s cards for killing a Rebel.", _n(d),
                                 count=_n(d), **_who(y, d["seat"]))),
    "penalty": lambda y, d: _y(y, d, T("You killed a Loyalist and discard hand and equipment."),
                               T("%(who)s killed a Loyalist and discards hand and equipment.",
                                 **_who(y, d["seat"]))),
    "discard": lambda y, d: (
        T("%(cards)s discarded by %(who)s.", cards=y.cards(d["cards"]), who=y.seat(d["seat"]))
        if d.get("seat") is not None else T("%(cards)s discarded.", cards=y.cards(d["cards"]))),
    "equip": lambda y, d: _y(y, d, T("You equip %(cards)s.", cards=y.cards([d["card"]])),
                             T("%(who)s equips %(cards)s.", cards=y.cards([d["card"]]),
                               **_who(y, d["seat"]))),
    "place_delayed": lambda y, d: _y(y, d, T("%(cards)s goes to your judgment area.",
                                             cards=y.cards([d["card"]])),
                                     T("%(cards)s goes to %(who)s's judgment area.",
                                       cards=y.cards([d["card"]]), **_who(y, d["seat"]))),
    "move_delayed": lambda y, d: T("%(cards)s moves to %(who)s.", cards=y.cards([d["card"]]),
                                   who=y.seat(d["to"])),
    "take": _take_en,
    "take_cards": lambda y, d: _y(y, d, T("You took %(cards)s from %(owner)s.",
                                          cards=y.cards(d["cards"]), owner=y.seat(d["from"])),
                                  T("%(who)s took %(cards)s from %(owner)s.",
                                    cards=y.cards(d["cards"]), owner=y.seat(d["from"]),
                                    **_who(y, d["to"])), "to"),
    "give": lambda y, d: _y(y, d, Tn("You give %(count)s card to %(target)s.",
                                     "You give %(count)s cards to %(target)s.", _n(d),
                                     count=_n(d), target=y.seat(d["to"])),
                            Tn("%(who)s gives %(count)s card to %(target)s.",
                               "%(who)s gives %(count)s cards to %(target)s.", _n(d),
                               count=_n(d), target=y.seat(d["to"]), **_who(y, d["from"])), "from"),
    "give_cards": lambda y, d: _y(y, d, T("You gave %(cards)s to %(target)s.",
                                          cards=y.cards(d["cards"]), target=y.seat(d["to"])),
                                  T("%(who)s gave %(cards)s to %(target)s.",
                                    cards=y.cards(d["cards"]), target=y.seat(d["to"]),
                                    **_who(y, d["from"])), "from"),
    "reveal": lambda y, d: T("Revealed: %(cards)s.", cards=y.cards(d["cards"])),
    "pick": lambda y, d: _y(y, d, T("You take %(what)s.", what=y.cards([d["card"]])),
                            T("%(who)s takes %(what)s.", what=y.cards([d["card"]]),
                              **_who(y, d["seat"]))),
    "dodged": lambda y, d: _y(y, d, T("You dodge the Kill."),
                              T("%(who)s dodges the Kill.", **_who(y, d["seat"]))),
    "no_effect": lambda y, d: T("The %(card)s has no effect on %(who)s.", card=y.name(d["card"]),
                                who=y.seat(d["seat"])),
    "unanswerable": lambda y, d: _y(y, d, T("You cannot dodge this Kill."),
                                    T("%(who)s cannot dodge this Kill.", **_who(y, d["seat"]))),
    "prevent": lambda y, d: T("The damage to %(who)s is prevented.", who=y.seat(d["seat"])),
    "skill": lambda y, d: _y(y, d, T("You use %(what)s.", what=y.name(d["skill"])),
                             T("%(who)s uses %(what)s.", what=y.name(d["skill"]),
                               **_who(y, d["seat"]))),
    "name_suit": lambda y, d: _y(y, d, T("You name %(suit)s.", suit=SUIT_SYMBOL[d["suit"]]),
                                 T("%(who)s names %(suit)s.", suit=SUIT_SYMBOL[d["suit"]],
                                   **_who(y, d["seat"]))),
    "stargazing": lambda y, d: _y(
        y, d, T("You put %(top)s on top and %(bottom)s at the bottom.",
                top=Tn("%(count)s card", "%(count)s cards", d["top"], count=d["top"]),
                bottom=d["bottom"]),
        T("%(who)s puts %(top)s on top and %(bottom)s at the bottom.",
          top=Tn("%(count)s card", "%(count)s cards", d["top"], count=d["top"]),
          bottom=d["bottom"], **_who(y, d["seat"]))),
    "stargazing_cards": lambda y, d: T("Top: %(top)s; bottom: %(bottom)s.", top=y.cards(d["top"]),
                                       bottom=y.cards(d["bottom"])),
    "reshuffle": lambda y, d: Tn("The discard pile (%(count)s card) is shuffled into the draw pile.",
                                 "The discard pile (%(count)s cards) is shuffled into the draw pile.",
                                 _n(d), count=_n(d)),
    "ask_closed": _ask_closed_en,
    "game_over": lambda y, d: (T("Game over: a draw.") if d["reason"] == "draw" else
                               T("Game over; winners: %(winners)s.",
                                 winners=[y.seat(s) for s in d["winners"]])),
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
