"""What the table page shows, built only from the player view and the reader's diary rows
(docs/design.md "Hidden information"): seats around the table, the reader's hand, the piles, the
open ask as buttons (exactly the engine's ``legal`` options), its deadline and default.

After the game everyone reads the omniscient view and every diary row (issue #7: "after
the game the full log with every hand"); before it, only the director (staff without a
seat) does. The number of queries does not depend on the number of seats.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from accounts.names import shown_name
from games import selectors
from games.lib import htmlcache
from games.lib import pages as game_pages
from games.lib.text import say
from games.models import CheckIn, Match, Seat
from sanguosha.engine.describe import ask_question
from sanguosha.engine.data import (CARD_TYPES, CHARACTERS, IDENTITY_NAMES, RANK_TEXT, SKILL_NAMES,
                                   SUIT_SYMBOL)

EQUIP_LABELS = {"weapon": pgettext_lazy("sanguosha slot", "Weapon"),
                "armor": pgettext_lazy("sanguosha slot", "Armor"),
                "plus_horse": pgettext_lazy("sanguosha slot", "+1 horse"),
                "minus_horse": pgettext_lazy("sanguosha slot", "−1 horse")}
KINGDOMS = {"wei": (pgettext_lazy("sanguosha kingdom", "Wei"), "魏"),
            "shu": (pgettext_lazy("sanguosha kingdom", "Shu"), "蜀"),
            "wu": (pgettext_lazy("sanguosha kingdom", "Wu"), "吴"),
            "qun": (pgettext_lazy("sanguosha kingdom", "Qun"), "群")}
SUIT_NAMES = {"spade": gettext_lazy("Spade ♠"), "heart": gettext_lazy("Heart ♥"),
              "club": gettext_lazy("Club ♣"), "diamond": gettext_lazy("Diamond ♦")}
ASK_TITLES = {
    "choose_character": gettext_lazy("Choose your character"),
    "play": gettext_lazy("Your Play phase"),
    "respond": gettext_lazy("A card is demanded from you"), "negate_window": gettext_lazy("Negate?"),
    "rescue": gettext_lazy("A player is dying: save them?"),
    "discard": gettext_lazy("Discard down to your hand limit"),
    "invoke": gettext_lazy("Use a skill?"), "choose_card": gettext_lazy("Choose a card"),
    "choose_option": gettext_lazy("Name a suit"),
    "pick_revealed": gettext_lazy("Bumper Harvest: take a card"),
    "arrange": gettext_lazy("Stargazing: arrange the cards"),
    "distribute": gettext_lazy("Bequeathed Strategy: give the cards"),
    "borrowed_sword": gettext_lazy("Borrowed Sword"),
    "optional_cost": gettext_lazy("Pay a cost?"),
}
TURN_PHASES = {"setup": pgettext_lazy("sanguosha phase", "Setup"),
               "start": pgettext_lazy("sanguosha phase", "Start"),
               "judge": pgettext_lazy("sanguosha phase", "Judge"),
               "draw": pgettext_lazy("sanguosha phase", "Draw"),
               "play": pgettext_lazy("sanguosha phase", "Play"),
               "discard": pgettext_lazy("sanguosha phase", "Discard"),
               "end": pgettext_lazy("sanguosha phase", "End"),
               "finish": pgettext_lazy("sanguosha phase", "Finish")}


def character_name(cid: str) -> str:
    """A character's name in the reader's language (Japanese: the kanji its edition prints)."""
    ch = CHARACTERS.get(cid)
    return str(say(ch.name)) if ch else cid


def identity_name(identity: str) -> str:
    return str(say(IDENTITY_NAMES[identity][0])) if identity in IDENTITY_NAMES else identity


def card_name(card_id: str | None, lang: str = "en") -> str:
    if not card_id:
        return ""
    if card_id in CARD_TYPES:
        return str(say(CARD_TYPES[card_id][0])) if lang != "zh" else CARD_TYPES[card_id][1]
    return card_id


def skill_name(skill: str | None) -> str:
    if not skill:
        return ""
    if skill in SKILL_NAMES:
        en, zh = SKILL_NAMES[skill]
        return f"{say(en)} {zh}"
    return skill


@dataclass
class CardShow:
    """A card as the page draws it (only cards the view contains)."""

    num: int
    id: str
    name: str
    zh: str
    suit: str | None
    symbol: str
    rank: str
    color: str
    kind: str
    url: str

    @property
    def kind_name(self) -> str:
        """The card's kind in the reader's language ("Basic", "Trick", ...)."""
        from sanguosha.models import CardType

        try:
            return str(CardType.Kind(self.kind).label)
        except ValueError:
            return self.kind

    @property
    def label(self) -> str:
        return f"{self.name} {self.zh} {self.symbol}{self.rank}"


def _card(view: dict[str, Any], n: int | None) -> CardShow | None:
    if n is None:
        return None
    info = (view.get("cards") or {}).get(str(n))
    if info is None:
        return None
    return CardShow(num=n, id=info["id"], name=card_name(info["id"]), zh=info["zh"], suit=info["suit"],
                    symbol=SUIT_SYMBOL.get(info["suit"], ""),
                    rank=str(RANK_TEXT.get(info["rank"], info["rank"])), color=info["color"],
                    kind=info["kind"], url=reverse("sanguosha:card", args=[info["id"]]))


def card_label(view: dict[str, Any], n: int) -> str:
    c = _card(view, n)
    return c.label if c else _("card %(number)s") % {"number": n}


@dataclass
class SeatShow:
    number: int
    name: str
    is_you: bool
    is_current: bool
    alive: bool
    hp: int
    max_hp: int
    magatama: list[bool]
    hand_count: int
    character: dict[str, Any] | None
    identity: tuple[str, str] | None
    equip: list[tuple[str, CardShow]]
    judgment: list[tuple[CardShow, str]]
    awaited: bool
    legal_target: bool
    is_bot: bool = False


@dataclass
class Button:
    label: str
    value: str
    kind: str = ""
    hint: str = ""
    card: int | None = None
    targets: list[int] = field(default_factory=list)
    primary: bool = False


def _pick(**order: Any) -> str:
    return json.dumps(order, separators=(",", ":"), ensure_ascii=False)


def ask_sentence(view: dict[str, Any], names: dict[int, str], me: int | None = None) -> str:
    """The open ask in words from the reader's point of view ("demo1's Kill on you: Dodge?");
    never who is awaited in a Negate window (the ask's info is public)."""
    ask = view.get("ask")
    if not ask:
        return ""
    return str(say(ask_question(ask["kind"], ask.get("info") or {}, me, "en", names)))


def turn_sentence(view: dict[str, Any], names: dict[int, str], me: int | None) -> str:
    """Whose turn it is and its turn phase: "Turn 3 · your turn · Play phase"."""
    cur = view.get("current")
    if view.get("over") or cur is None or view.get("turn_phase") in (None, "setup"):
        return _("Characters are being chosen.") if view.get("turn_phase") == "setup" else ""
    tp = view.get("turn_phase")
    phase = TURN_PHASES.get(tp, str(tp).capitalize())
    if cur == me:
        return _("Turn %(turn)s · your turn · %(phase)s phase") % {
            "turn": view.get("turn"), "phase": phase}
    return _("Turn %(turn)s · %(player)s's turn · %(phase)s phase") % {
        "turn": view.get("turn"), "player": names.get(cur, _("a player")), "phase": phase}


def now_sentence(view: dict[str, Any], names: dict[int, str], me: int | None, *,
                 your_move: bool, answered: bool, running: bool) -> str:
    """What the reader may do now, in one line."""
    ask = view.get("ask") or {}
    if view.get("over") or not ask:
        return ""
    if me is None:
        return _("You are watching: only seated players answer.")
    if not running:
        return _("The game is paused: nobody can answer now.")
    if your_move:
        return _("Your move: answer below before the deadline.")
    if answered:
        return _("Your answer is in: waiting for the others.")
    if ask.get("kind") == "negate_window":
        return _("Nothing for you to do now: anyone holding a Negate may answer.")
    others = [names.get(s, _("a player")) for s in ask.get("awaited") or [] if s != me]
    if not others:
        return _("Nothing for you to do now.")
    return _("Nothing for you to do now: waiting for %(players)s.") % {
        "players": say(others)}


def default_sentence(view: dict[str, Any], default: dict[str, Any] | None) -> str:
    """What happens if the awaited seat does nothing, from its own default order."""
    if not default:
        return ""
    if default.get("end"):
        return _("your Play phase ends.")
    if default.get("decline"):
        return _("you decline.")
    if default.get("pass"):
        return _("you pass.")
    if default.get("no"):
        return _("you answer no.")
    if default.get("yes"):
        return _("you answer yes.")
    if "character" in default:
        ch = CHARACTERS.get(default["character"])
        return (_("you take %(what)s.") % {"what": f"{character_name(ch.id)} {ch.zh}"} if ch
                else _("you take the first offer."))
    if "slot" in default:
        return _("you take %(what)s.") % {"what": _slot_label(str(default["slot"]))}
    if "suit" in default:
        return _("you name %(suit)s.") % {
            "suit": SUIT_NAMES.get(default["suit"], default["suit"])}
    if "top" in default:
        return _("every card goes back on top in its order.")
    if "give" in default:
        return _("you keep both cards.")
    if "cards" in default:
        return _("you discard %(cards)s.") % {
            "cards": say([card_label(view, c) for c in default["cards"]])}
    if "card" in default:
        return _("you take %(what)s.") % {"what": card_label(view, default["card"])}
    return _("the stated default applies.")


def _slot_label(slot: str) -> str:
    if slot.startswith("hand-"):
        return _("hand card %(number)s") % {"number": slot[5:]}
    if slot.startswith("judgment-"):
        return _("judgment card %(number)s") % {"number": slot.split("-")[1]}
    return str(EQUIP_LABELS.get(slot, slot))


def _auto(targets: list[int], lo: int) -> dict[str, Any]:
    return {"_auto": targets} if len(targets) == 1 and lo >= 1 else {}


def ask_buttons(view: dict[str, Any], names: dict[int, str]) -> list[Button]:
    """One button per option the engine offers the reader in the open ask."""
    legal = view.get("legal")
    ask = view.get("ask")
    if not legal or not ask:
        return []
    kind = ask["kind"]
    L = lambda n: card_label(view, n)  # noqa: E731
    out: list[Button] = []
    if kind == "choose_character":
        for cid in legal["offered"]:
            ch = CHARACTERS[cid]
            skills = say([SKILL_NAMES[s][0] for s in ch.skills if s in SKILL_NAMES])
            out.append(Button(f"{character_name(cid)} {ch.zh}", _pick(character=cid),
                              kind="character",
                              hint=_("%(kingdom)s · %(hp)s HP · %(skills)s") % {
                                  "kingdom": KINGDOMS[ch.kingdom][0], "hp": ch.max_hp,
                                  "skills": skills}))
    elif kind == "play":
        for a in legal["actions"]:
            if a.get("end"):
                out.append(Button(_("End Play phase"), _pick(end=True), kind="end"))
            elif "use" in a:
                name = card_name(a["as"])
                real = card_name((view.get("cards") or {}).get(str(a["use"]), {}).get("id", ""))
                label = (_("Use %(card)s") % {"card": L(a["use"])} if real == name else
                         _("%(card)s as %(name)s") % {"card": L(a["use"]), "name": name})
                if a.get("skill"):
                    label += f" [{skill_name(a['skill'])}]"
                ts = list(a.get("targets") or [])
                meta: dict[str, Any] = {}
                hint = ""
                if a.get("max", 0) > 0:
                    meta = {"_t": 1, **_auto(ts, a.get("min", 0))}
                    seat_word = _("seat")
                    hint = _("targets: %(players)s") % {"players": say(
                        [f"{names.get(t, seat_word)} ({t})" for t in ts])}
                    if a.get("max", 1) > 1:
                        hint += " " + _("(up to %(count)s)") % {"count": a["max"]}
                if a["as"] == "collateral":
                    meta["_s"] = 1
                    hint += _("; then choose who they must Kill")
                out.append(Button(label, _pick(use=a["use"], **{"as": a["as"]}, **meta),
                                  kind="use", hint=hint, card=a["use"], targets=ts))
            elif "use_pair" in a:
                ts = list(a.get("targets") or [])
                out.append(Button(_("2 selected hand cards as %(card)s [%(skill)s]") % {
                                      "card": card_name("slash"), "skill": card_name("spear")},
                                  _pick(**{"as": "slash", "_u": 1, "_t": 1}, **_auto(ts, 1)),
                                  kind="skill", hint=_("select 2 hand cards and a target"),
                                  targets=ts))
            elif "skill" in a:
                meta = {}
                hint = []
                if a.get("max_cards", 0) > 0:
                    meta["_c"] = 1
                    lo, hi = a.get("min_cards", 0), a.get("max_cards", 0)
                    hint.append(ngettext("select %(range)s card", "select %(range)s cards", hi)
                                % {"range": f"{lo}–{hi}" if hi != lo else lo})
                ts = list(a.get("targets") or [])
                if a.get("max_targets", 0) > 0:
                    meta.update({"_t": 1, **_auto(ts, a.get("min_targets", 0))})
                    if a.get("ordered"):
                        meta["_o"] = 1
                    rng = {"range": f"{a.get('min_targets')}–{a.get('max_targets')}"}
                    hint.append((_("%(range)s targets in order") if a.get("ordered")
                                 else _("%(range)s targets")) % rng)
                out.append(Button(skill_name(a["skill"]), _pick(skill=a["skill"], **meta),
                                  kind="skill", hint="; ".join(hint), targets=ts))
    elif kind in ("respond", "borrowed_sword"):
        want = legal.get("name", "slash")
        for o in legal.get("cards", []):
            label = (_("Play %(card)s as %(name)s") % {"card": L(o["card"]),
                                                       "name": card_name(o["as"])}
                     if (view.get("cards") or {}).get(str(o["card"]), {}).get("id") != o["as"]
                     else _("Play %(card)s") % {"card": L(o["card"])})
            if o.get("skill"):
                label += f" [{skill_name(o['skill'])}]"
            out.append(Button(label, _pick(card=o["card"], **{"as": o["as"]}), kind="card",
                              card=o["card"], primary=True))
        if legal.get("pair"):
            out.append(Button(_("2 selected hand cards as %(card)s [%(skill)s]") % {
                                  "card": card_name(want), "skill": card_name("spear")},
                              _pick(_c=1), kind="skill", hint=_("select 2 hand cards")))
        if legal.get("armor"):
            out.append(Button(_("Try %(armor)s (judge: red = %(card)s)") % {
                                  "armor": card_name("eight_diagram"), "card": card_name("jink")},
                              _pick(armor=True), kind="skill"))
        if legal.get("lord_skill"):
            out.append(Button(_("Ask for help (lord skill)"), _pick(lord_skill=True),
                              kind="skill"))
        out.append(Button(_("Decline"), _pick(decline=True), kind="decline"))
    elif kind == "negate_window":
        for c in legal.get("negates", []):
            out.append(Button(_("Negate with %(card)s") % {"card": L(c)}, _pick(negate=c),
                              kind="card", card=c, primary=True))
        out.append(Button(_("Pass"), _pick(**{"pass": True}), kind="decline"))
    elif kind == "rescue":
        for c in legal.get("cards", []):
            out.append(Button(_("Use %(card)s as %(name)s") % {"card": L(c),
                                                                "name": card_name("peach")},
                              _pick(peaches=[c]), kind="card", card=c, primary=True))
        if legal.get("max", 1) > 1 and len(legal.get("cards", [])) > 1:
            out.append(Button(_("Use the selected cards as %(name)s") % {
                                  "name": card_name("peach")}, _pick(_p=1), kind="skill",
                              hint=_("up to %(count)s") % {"count": legal["max"]}))
        out.append(Button(_("Pass"), _pick(**{"pass": True}), kind="decline"))
    elif kind == "discard":
        n = legal["count"]
        out.append(Button(ngettext("Discard the %(count)s selected card",
                                   "Discard the %(count)s selected cards", n) % {"count": n},
                          _pick(_c=1), kind="skill",
                          hint=_("select exactly %(count)s") % {"count": n}, primary=True))
    elif kind == "invoke":
        sk = skill_name(legal.get("skill"))
        if legal.get("skill") == "guicai":
            for c in legal.get("cards", []):
                out.append(Button(_("%(skill)s: replace the judgment with %(card)s") % {
                                      "skill": sk, "card": L(c)},
                                  _pick(yes=True, card=c), kind="card", card=c))
        elif legal.get("targets") is not None and "max_targets" in legal:
            ts = list(legal["targets"])
            out.append(Button(_("Use %(card)s") % {"card": sk},
                              _pick(yes=True, _t=1, **_auto(ts, legal.get("min_targets", 0))),
                              kind="skill", targets=ts,
                              hint=_("%(range)s targets") % {
                                  "range": f"{legal.get('min_targets')}–{legal.get('max_targets')}"}))
        else:
            out.append(Button(_("Yes, use %(skill)s") % {"skill": sk}, _pick(yes=True),
                              kind="skill", primary=True))
        out.append(Button(_("No"), _pick(no=True), kind="decline"))
    elif kind == "choose_card":
        owner = legal.get("owner")
        seat = next((p for p in view["seats"] if p["seat"] == owner), None)
        for o in legal["slots"]:
            slot = o["slot"]
            if slot.startswith("hand-"):
                label = _("Hand card %(number)s (face down)") % {"number": slot[5:]}
            elif isinstance(o.get("card"), int):
                where = (EQUIP_LABELS.get(slot) or
                         (_("Judgment area") if slot.startswith("judgment-") else slot))
                label = f"{where}: {L(o['card'])}"
            elif seat and slot in seat["equip"]:
                label = f"{EQUIP_LABELS.get(slot, slot)}: {L(seat['equip'][slot])}"
            elif seat and slot.startswith("judgment-"):
                i = int(slot.split("-")[1]) - 1
                label = (_("Judgment area") + f": {L(seat['judgment'][i])}"
                         if i < len(seat["judgment"]) else slot)
            else:
                label = slot
            out.append(Button(label, _pick(slot=slot), kind="slot"))
    elif kind == "choose_option":
        for s in legal.get("suits", []):
            out.append(Button(SUIT_NAMES.get(s, s), _pick(suit=s), kind="suit"))
    elif kind == "pick_revealed":
        for c in legal.get("cards", []):
            out.append(Button(_("Take %(card)s") % {"card": L(c)}, _pick(card=c), kind="card",
                              card=c))
    elif kind == "arrange":
        out.append(Button(_("Arrange as chosen"), _pick(_arr=list(legal["cards"])),
                          kind="skill", primary=True))
        out.append(Button(_("All back on top, in order"),
                          _pick(top=list(legal["cards"]), bottom=[]), kind="decline"))
    elif kind == "distribute":
        out.append(Button(_("Give as chosen"), _pick(_give=list(legal["cards"])), kind="skill",
                          primary=True))
        out.append(Button(_("Keep both"), _pick(keep=True), kind="decline"))
    elif kind == "optional_cost":
        meta = {"_c": 1}
        ts = list(legal.get("targets") or [])
        if ts:
            meta.update({"_tt": 1, **_auto(ts, 1)})
        n = legal["count"]
        hint = _("select exactly %(count)s") % {"count": n}
        if ts:
            hint += _("; choose the new target")
        out.append(Button(ngettext("Pay %(count)s selected card", "Pay %(count)s selected cards",
                                   n) % {"count": n}, _pick(**meta), kind="skill",
                          hint=hint, targets=ts, primary=True))
        out.append(Button(_("Decline"), _pick(decline=True), kind="decline"))
    return out


def _names(seats: list[Seat]) -> dict[int, str]:
    return {s.number: (shown_name(s.user.get_username()) if s.user_id
                       else _("bot %(number)s") % {"number": s.number})
            for s in seats if s.number is not None}


#: what the table page keeps in the HTML cache: the page's title and the #table fragment
TABLE_TEMPLATES = ["sanguosha/fragments/title.txt", "sanguosha/fragments/table.html"]


def table_page(request: HttpRequest, match: Match, *, error: str | None = None,
               fragment: bool = False) -> dict[str, Any]:
    """The table page's context with the #table fragment (and the title, which says
    "your move") read from the HTML cache when it holds them: ``table_html`` and
    ``title_html``. What they show is a function of their key (games/lib/htmlcache.py):
    the match's public version and roster, who reads — the seat with its own version,
    the director, or the visitor view — so one seat's hand never reaches another seat —
    and the open phase (its deadline), the status and the bots switch, the language and
    time zone. A refusal (``error``), a POST and a forming table are rendered as before.
    Queries on a hit: the seats (plain rows) and the open phase; the press panel keeps
    its own fragment under the same keys."""
    if (error is not None or request.method != "GET" or match.state is None
            or match.status == Match.Status.FORMING):
        ctx = table_context(request, match, error=error)
        ctx.update(as_fragment=fragment, table_html=None, title_html=None)
        return ctx
    rows = game_pages.seat_rows(match)
    game_pages.remember_seat(match, request.user, rows)  # viewer_of's seat from these rows
    seat, director = game_pages.viewer_of(request, match)
    seated = seat if seat is not None and seat.number is not None else None
    keys = htmlcache.page_keys(match, seated, director, rows)
    phase = (selectors.current_phase(match)
             if match.status in (Match.Status.RUNNING, Match.Status.PAUSED) else None)
    key = htmlcache.fragment_key(keys["reader"], "sgs-table", [
        int(fragment), match.status, int(match.bots_enabled),
        phase.pk if phase else "-",
        phase.deadline_at.timestamp() if phase and phase.deadline_at else "-",
        int(phase.checkin_final) if phase else "-"])

    def full() -> dict[str, Any]:
        ctx = table_context(request, match, viewer=(seat, director), phase=phase)
        ctx["as_fragment"] = fragment
        return ctx

    title, table = htmlcache.kept_html(request, key, TABLE_TEMPLATES, full)
    finished = match.status == Match.Status.FINISHED
    return {
        "match": match, "seat": seat, "me": seated.number if seated else None,
        "director": director, "finished": finished,
        "invite_url": _invite_url(request, match, seat),
        "generic_url": reverse("games:match-detail", args=[match.pk]),
        "can_join": False, "can_start": False,
        "seats": rows,  # the press panel's names (SeatRow), no query of its own
        htmlcache.KEYS_NAME: keys,  # the press panel's fragment cache
        "table_html": table, "title_html": title,
    }


def table_context(request: HttpRequest, match: Match, *, error: str | None = None,
                  viewer: tuple[Seat | None, bool] | None = None,
                  phase: Any = False) -> dict[str, Any]:
    """Everything templates/sanguosha/table.html and its fragments need.

    Queries: the reader's seat, the open phase, the seats with their users, the diary rows,
    the check-in of the reader — the same number for 4 or 10 players. ``viewer`` (seat,
    director) and ``phase`` when the caller already has them (:func:`table_page`).
    """
    seat, director = viewer if viewer is not None else game_pages.viewer_of(request, match)
    finished = match.status == Match.Status.FINISHED
    omniscient = bool(director or finished)
    invite_url = _invite_url(request, match, seat)  # a forming table's seats have no number yet
    if seat is not None and seat.number is None:
        seat = None
    view: dict[str, Any] | None = None
    if match.state is not None and game_pages.game_or_none(match.game) is not None:
        view = selectors.player_view_for(match, seat, omniscient=omniscient)
    if phase is False:
        phase = (selectors.current_phase(match)
                 if match.status in (Match.Status.RUNNING, Match.Status.PAUSED) else None)
    seat_rows = list(match.seats.filter(removed_at__isnull=True).select_related("user")
                     .order_by("number", "joined_at"))
    names = _names(seat_rows)
    bots = {s.number for s in seat_rows if s.is_bot}
    me = seat.number if seat is not None else None
    lang = getattr(request, "LANGUAGE_CODE", "") or "en"  # engine Msgs said in it (games.lib.text)
    diary = list(selectors.diary_for_seat(match, me, lang=lang, omniscient=omniscient,
                                          names=names))
    diary.reverse()
    ctx: dict[str, Any] = {
        "match": match, "seat": seat, "me": me, "director": director, "finished": finished,
        "omniscient": omniscient, "phase": phase, "view": view, "names": names,
        "seat_rows": seat_rows, "diary": diary, "error": error, "your_move": False,
        "buttons": [], "seats": [], "hand": [], "answered": None,
        "poll_url": reverse("sanguosha:table-poll", args=[match.pk]),
        "answer_url": reverse("sanguosha:answer", args=[match.pk]),
        "generic_url": reverse("games:match-detail", args=[match.pk]),
        "can_join": bool(match.status == Match.Status.FORMING and seat is None
                         and request.user.is_authenticated and not match.is_private),
        "can_start": bool(match.status == Match.Status.FORMING and request.user.is_authenticated
                          and selectors.may_start(match, request.user)),
        "outcome": match.outcome if finished else None,
        "invite_url": invite_url,
    }
    if view is None:
        return ctx
    ctx.update(board_context(view, me, names, bots=bots, finished=finished,
                             omniscient=omniscient))
    ctx["withdraw_url"] = reverse("sanguosha:answer-withdraw", args=[match.pk])
    ctx["checked_in"] = bool(phase is not None and me is not None
                             and CheckIn.objects.filter(phase=phase, seat=seat).exists())
    # an answer counts as given while the seat is checked in; a withdrawn one may be replaced
    ctx["previous_answer"] = ctx["answered"] if not ctx["checked_in"] else None
    ctx["answered"] = ctx["answered"] if ctx["checked_in"] else None
    ctx["your_move"] = bool(ctx["buttons"] and not ctx["checked_in"]
                            and match.status == Match.Status.RUNNING
                            and phase is not None and me in (phase.awaited or []))
    ctx["ask_sentence"] = ask_sentence(view, names, me)
    ctx["now_text"] = now_sentence(view, names, me, your_move=ctx["your_move"],
                                   answered=ctx["answered"] is not None,
                                   running=match.status == Match.Status.RUNNING)
    return ctx


def _invite_url(request: HttpRequest, match: Match, seat: Seat | None) -> str | None:
    """A private table's invite link, for its seated players, its host and the director."""
    user = request.user
    if not match.is_private or match.status in (Match.Status.FINISHED, Match.Status.CANCELLED):
        return None
    if seat is None and not (user.is_authenticated and (user.is_staff
                                                         or match.created_by_id == user.pk)):
        return None
    return request.build_absolute_uri(reverse("games:match-invite", args=[match.invite_code]))


def board_context(view: dict[str, Any], me: int | None, names: dict[int, str], *,
                  bots: set[int] | frozenset[int] = frozenset(), finished: bool = False,
                  omniscient: bool = False) -> dict[str, Any]:
    """The table drawn from a player view alone (no database): seats, hand, piles, the
    open ask's buttons. Shared by the table page and the generic match page's board."""
    ctx: dict[str, Any] = {}
    legal_targets: set[int] = set()
    buttons = ask_buttons(view, names) if me is not None and not finished else []
    for b in buttons:
        legal_targets.update(b.targets)
    ask = view.get("ask") or {}
    public_awaited = set(ask.get("awaited") or [])
    seats = []
    for p in view["seats"]:
        ch = CHARACTERS.get(p["character"]) if p.get("character") else None
        character = None
        if ch is not None:
            character = {"id": ch.id, "name": character_name(ch.id), "zh": ch.zh,
                         "kingdom": ch.kingdom,
                         "kingdom_name": " ".join(str(k) for k in KINGDOMS[ch.kingdom]),
                         "skills": [(s, *((str(say(SKILL_NAMES[s][0])), SKILL_NAMES[s][1])
                                          if s in SKILL_NAMES else (s, ""))) for s in ch.skills],
                         "url": reverse("sanguosha:character", args=[ch.id])}
        ident = ((identity_name(p["identity"]), IDENTITY_NAMES[p["identity"]][1])
                 if p.get("identity") in IDENTITY_NAMES else None)
        equip = [(EQUIP_LABELS[slot], c) for slot in EQUIP_LABELS
                 if (c := _card(view, p["equip"].get(slot))) is not None]
        seats.append(SeatShow(
            number=p["seat"],
            name=names.get(p["seat"], _("seat %(number)s") % {"number": p["seat"] + 1}),
            is_you=p["seat"] == me,
            is_current=(p["seat"] == view.get("current") and not view.get("over")
                        and view.get("turn_phase") != "setup"), alive=p["alive"],
            hp=p["hp"], max_hp=p["max_hp"],
            magatama=[i < p["hp"] for i in range(max(p["max_hp"], 0))],
            hand_count=p["hand_count"], character=character,
            identity=ident if ident else None, equip=equip,
            judgment=[(c, card_name(as_) if as_ and as_ != c.id else "")
                      for n, as_ in zip(p["judgment"], p.get("judgment_as")
                                        or [None] * len(p["judgment"]))
                      if (c := _card(view, n)) is not None],
            awaited=p["seat"] in public_awaited, legal_target=p["seat"] in legal_targets,
            is_bot=p["seat"] in bots))
    ctx["seats"] = seats
    mine = next((p for p in view["seats"] if p["seat"] == me), None)
    ctx["hand"] = [c for n in (mine or {}).get("hand", []) if (c := _card(view, n)) is not None]
    ctx["my_equip"] = [c for _, c in (next((s.equip for s in seats if s.is_you), []))]
    ctx["all_hands"] = ([(s, [c for n in p.get("hand", []) if (c := _card(view, n))])
                         for s, p in zip(seats, view["seats"])] if omniscient else [])
    ctx["discard_top"] = _card(view, view["discard"][-1]) if view.get("discard") else None
    ctx["discard_count"] = len(view.get("discard") or [])
    ctx["processing"] = [c for n in view.get("processing") or [] if (c := _card(view, n))]
    ctx["ask"] = ask or None
    ctx["ask_title"] = ASK_TITLES.get(ask.get("kind", ""), "") if ask else ""
    ctx["ask_sentence"] = ask_sentence(view, names, me)
    ctx["turn_text"] = turn_sentence(view, names, me)
    ctx["buttons"] = buttons
    answered = view.get("answered")
    ctx["answered"] = answered
    ctx["default_text"] = default_sentence(view, view.get("default"))
    ctx["takes_targets"] = any(b.targets for b in buttons)
    ctx["sub_target"] = any('"_s"' in b.value for b in buttons)
    ctx["first_target"] = any('"_o"' in b.value for b in buttons)
    ctx["living"] = [s for s in seats if s.alive]
    legal = view.get("legal") or {}
    ctx["arrange_cards"] = ([_card(view, c) for c in legal.get("cards", [])]
                            if ask.get("kind") == "arrange" and legal else [])
    ctx["distribute_cards"] = ([_card(view, c) for c in legal.get("cards", [])]
                               if ask.get("kind") == "distribute" and legal else [])
    ctx["distribute_targets"] = legal.get("targets", []) if ask.get("kind") == "distribute" else []
    hand_nums = {c.num for c in ctx["hand"]}
    extra = set()
    for key in ("cards",):
        for x in legal.get(key, []) if isinstance(legal.get(key), list) else []:
            if isinstance(x, int) and x not in hand_nums:
                extra.add(x)
    for a in legal.get("actions", []) or []:
        for x in a.get("cards", []) if "skill" in a and "use" not in a else []:
            if isinstance(x, int) and x not in hand_nums:
                extra.add(x)
    selectable_kinds = {"discard", "optional_cost", "rescue", "play", "respond"}
    ctx["extra_cards"] = ([c for n in sorted(extra) if (c := _card(view, n))]
                          if ask.get("kind") in selectable_kinds else [])
    ctx["selectable"] = bool(buttons) and any(
        '"_c"' in b.value or '"_p"' in b.value or '"_u"' in b.value for b in buttons)
    winners = view.get("winners") or []
    ctx["winner_names"] = [names.get(w, _("seat %(number)s") % {"number": w + 1}) for w in winners]
    return ctx


#: the phase kinds' labels ("ask:<kind>" → games_tags.phase_label), for the catalogue
PHASE_LABELS = (pgettext_lazy("phase", "Choose character"), pgettext_lazy("phase", "Play"),
                pgettext_lazy("phase", "Respond"), pgettext_lazy("phase", "Negate window"),
                pgettext_lazy("phase", "Rescue"), pgettext_lazy("phase", "Discard"),
                pgettext_lazy("phase", "Invoke"), pgettext_lazy("phase", "Choose card"),
                pgettext_lazy("phase", "Choose option"), pgettext_lazy("phase", "Pick revealed"),
                pgettext_lazy("phase", "Arrange"), pgettext_lazy("phase", "Distribute"),
                pgettext_lazy("phase", "Borrowed sword"), pgettext_lazy("phase", "Optional cost"))
