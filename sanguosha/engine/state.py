"""The game state (one JSON tree) and the mutable working context used while resolving.

``State`` is an immutable wrapper around a plain JSON dict (every key a string): zones,
seats, counters, the resolution stack (§12.1) and the open ask. ``Ctx`` is the short-lived
mutable copy the rules work on inside ``submit``/``resolve``; it collects events and
draws randomness only from ``(seed, counter kept in the state)``.
"""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import dataclass
from typing import Any

from games.rules import Event

from sanguosha.engine.data import CARDS, CHARACTERS, EQUIP_SLOTS, LORD_SKILLS, weapon_range
from sanguosha.engine.errors import ScenarioNeedsRandom

JSON = dict[str, Any]


def copy_json(raw: Any) -> Any:
    """A deep copy that also proves the value is JSON (fast C path)."""
    return json.loads(json.dumps(raw))


def copy_fast(raw: Any) -> Any:
    """A deep copy of plain data (internal working copies; ``dump`` proves JSON-ness)."""
    return pickle.loads(pickle.dumps(raw, pickle.HIGHEST_PROTOCOL))


@dataclass(frozen=True)
class State:
    """An immutable game state. ``raw`` is never mutated after construction."""

    raw: JSON

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.raw == other.raw

    __hash__ = None  # type: ignore[assignment]


class Ctx:
    """Mutable working copy of a state plus the events produced so far."""

    def __init__(self, state: State | JSON, seed: str = "", *, copy: bool = True) -> None:
        raw = state.raw if isinstance(state, State) else state
        self.st: JSON = copy_fast(raw) if copy else raw
        self.seed = seed
        self.events: list[Event] = []

    # -- basics -------------------------------------------------------------------------
    def freeze(self) -> State:
        return State(self.st)

    def rng(self) -> random.Random:
        n = self.st["rng"]
        self.st["rng"] = n + 1
        return random.Random(f"sanguosha|{self.seed}|{n}")

    def emit(self, kind: str, data: JSON | None = None, to: Any = None) -> None:
        vis = None if to is None else frozenset(int(s) for s in to)
        self.events.append(Event(kind, copy_fast(data) if data else {}, vis))

    @property
    def n(self) -> int:
        return len(self.st["seats"])

    def seat(self, s: int) -> JSON:
        seat: JSON = self.st["seats"][s]
        return seat

    def alive(self, s: int) -> bool:
        return bool(self.st["seats"][s]["alive"])

    def living(self) -> list[int]:
        return [p["seat"] for p in self.st["seats"] if p["alive"]]

    def action_order(self, start: int) -> list[int]:
        """``start``, next(start), … over living players, each once (§0)."""
        n = self.n
        return [(start + i) % n for i in range(n) if self.alive((start + i) % n)]

    def next_living(self, s: int) -> int:
        n = self.n
        for i in range(1, n + 1):
            if self.alive((s + i) % n):
                return (s + i) % n
        return s

    # -- skills -------------------------------------------------------------------------
    def has(self, s: int, skill: str) -> bool:
        p = self.st["seats"][s]
        ch = p.get("character")
        if not ch or not p["alive"]:
            return False
        info = CHARACTERS[ch]
        if skill not in info.skills:
            return False
        if skill in LORD_SKILLS and p["identity"] != "lord":
            return False
        return True

    def kingdom(self, s: int) -> str | None:
        ch = self.seat(s).get("character")
        return CHARACTERS[ch].kingdom if ch else None

    def gender(self, s: int) -> str | None:
        ch = self.seat(s).get("character")
        return CHARACTERS[ch].gender if ch else None

    def cfg(self, key: str) -> Any:
        return self.st["config"][key]

    # -- stack --------------------------------------------------------------------------
    @property
    def stack(self) -> list[JSON]:
        stack: list[JSON] = self.st["stack"]
        return stack

    def push(self, frame: JSON) -> JSON:
        self.st["stack"].append(frame)
        return frame

    def ret(self, frame: JSON, value: Any = None) -> None:
        """Pop ``frame`` (the top) and hand ``value`` to the frame below as ``frame['ret']``."""
        top = self.st["stack"].pop()
        assert top is frame, (top, frame)
        key = frame.get("ret")
        if key and self.st["stack"]:
            self.st["stack"][-1][key] = value

    # -- zones --------------------------------------------------------------------------
    def where(self, card: int) -> tuple[Any, ...]:
        st = self.st
        for z in ("proc", "discard", "draw"):
            if card in st[z]:
                return (z,)
        for p in st["seats"]:
            if card in p["hand"]:
                return ("hand", p["seat"])
            for slot in EQUIP_SLOTS:
                if p["equip"][slot] == card:
                    return ("equip", p["seat"], slot)
            if card in p["judg"]:
                return ("judg", p["seat"])
        raise KeyError(card)

    def _remove(self, card: int) -> tuple[Any, ...]:
        loc = self.where(card)
        if loc[0] in ("proc", "discard", "draw"):
            self.st[loc[0]].remove(card)
        elif loc[0] == "hand":
            p = self.seat(loc[1])
            p["hand"].remove(card)
            if not p["hand"] and self.has(loc[1], "lianying"):
                self.st["pending"].append({"skill": "lianying", "seat": loc[1]})
        elif loc[0] == "equip":
            self.seat(loc[1])["equip"][loc[2]] = None
            if self.has(loc[1], "xiaoji"):
                self.st["pending"].append({"skill": "xiaoji", "seat": loc[1]})
        else:
            self.seat(loc[1])["judg"].remove(card)
            self.st.get("virtual", {}).pop(str(card), None)
        return loc

    def judg_name(self, card: int) -> str:
        """What a card in a judgment area counts as (National Beauty: a ♦ card as Indulgence)."""
        return str(self.st.get("virtual", {}).get(str(card), CARDS[card].id))

    def move(self, card: int, dest: str, owner: int | None = None, *, top: bool = False) -> tuple[Any, ...]:
        """Move one card to ``dest`` (proc/discard/draw/hand/judg/equip); returns the source."""
        src = self._remove(card)
        if dest in ("proc", "discard"):
            self.st[dest].append(card)
        elif dest == "draw":
            if top:
                self.st["draw"].insert(0, card)
            else:
                self.st["draw"].append(card)
        elif dest == "hand":
            assert owner is not None
            self.seat(owner)["hand"].append(card)
        elif dest == "judg":
            assert owner is not None
            self.seat(owner)["judg"].append(card)
        elif dest == "equip":
            assert owner is not None
            slot = CARDS[card].kind
            self.seat(owner)["equip"][slot] = card
        else:
            raise ValueError(dest)
        return src

    def ensure_draw(self, k: int) -> bool:
        """Make the draw pile hold ``k`` cards (reshuffle under it, §3.5); False = draw game."""
        st = self.st
        if len(st["draw"]) >= k:
            return True
        if st["discard"]:
            if st.get("scenario"):
                raise ScenarioNeedsRandom("the scenario needs a reshuffle of the discard pile "
                                          "(randomness a scenario may not use)")
            pile = list(st["discard"])
            self.rng().shuffle(pile)
            st["discard"] = []
            st["draw"].extend(pile)
            st["reshuffles"] = st.get("reshuffles", 0) + 1
            self.emit("reshuffle", {"count": len(pile)})
        if len(st["draw"]) >= k:
            return True
        self.end_game([], "draw")
        return False

    def draw(self, s: int, k: int, why: str = "draw") -> list[int]:
        """Seat ``s`` draws ``k`` cards from the top; face down (owner sees them)."""
        if k <= 0 or self.st["over"]:
            return []
        if not self.ensure_draw(k):
            return []
        cards: list[int] = self.st["draw"][:k]
        for c in cards:
            self.move(c, "hand", s)
        self.emit("draw", {"seat": s, "count": k, "why": why})
        self.emit("draw_cards", {"seat": s, "cards": cards}, to=[s])
        return cards

    def end_game(self, winners: list[int], reason: str) -> None:
        st = self.st
        st["over"] = True
        st["winners"] = sorted(winners)
        st["end_reason"] = reason
        st["ask"] = None
        st["answers"] = {}
        self.emit("game_over", {"winners": sorted(winners), "reason": reason,
                                "identities": [p["identity"] for p in st["seats"]]})

    # -- cards of a seat ----------------------------------------------------------------
    def equip(self, s: int, slot: str) -> int | None:
        card: int | None = self.seat(s)["equip"][slot]
        return card

    def equip_id(self, s: int, slot: str) -> str | None:
        c = self.seat(s)["equip"][slot]
        return CARDS[c].id if c is not None else None

    def equipped(self, s: int) -> list[int]:
        return [c for c in (self.seat(s)["equip"][k] for k in EQUIP_SLOTS) if c is not None]

    def all_cards(self, s: int) -> int:
        p = self.seat(s)
        return len(p["hand"]) + len(self.equipped(s)) + len(p["judg"])

    def weapon_active(self, s: int, wid: str) -> bool:
        """Seat ``s`` has weapon ``wid`` equipped and its ability is on (config)."""
        if self.equip_id(s, "weapon") != wid:
            return False
        return wid in ("crossbow", "qinggang_sword") or self.cfg("weapon_abilities") == "all"

    # -- distance (§4) ------------------------------------------------------------------
    def distance(self, a: int, b: int, gone: frozenset[int] = frozenset()) -> int:
        lv = self.living()
        if a not in lv or b not in lv:
            return 99
        n = len(lv)
        i, j = lv.index(a), lv.index(b)
        d = min((j - i) % n, (i - j) % n)
        ph = self.equip(b, "plus_horse")
        if ph is not None:
            d += 1
        mh = self.equip(a, "minus_horse")
        if mh is not None and mh not in gone:
            d -= 1
        if self.has(a, "mashu"):
            d -= 1
        return max(1, d)

    def attack_range(self, a: int, gone: frozenset[int] = frozenset()) -> int:
        w = self.equip(a, "weapon")
        if w is None or w in gone:
            return 1
        return weapon_range(CARDS[w].id)

    def in_range(self, a: int, b: int, gone: frozenset[int] = frozenset()) -> bool:
        return a != b and self.alive(b) and self.distance(a, b, gone) <= self.attack_range(a, gone)
