"""Scenario runner: ``python -m sanguosha.engine.scenario < scenario.json`` (docs/sanguosha-scenario-format.md).

Reads one position (the current player's Play phase with its ``play`` ask open) and a list
of answers, plays them through the same ``submit``/``resolve`` path the server uses, and
prints the resulting position as JSON with sorted keys. Exit 2 with a message on standard
error when the scenario itself is malformed or needs randomness; never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from sanguosha import engine
from sanguosha.engine.data import CARDS, CHARACTERS, EQUIP_SLOTS
from sanguosha.engine.errors import RulesError, ScenarioNeedsRandom
from sanguosha.engine.flow import new_turn_counters, run
from sanguosha.engine.setup import base_state, blank_seat, validate_config
from sanguosha.engine.state import Ctx, State

JSON = dict[str, Any]
TOP_KEYS = {"config", "seats", "draw_pile", "discard_pile", "current", "kills_used", "orders"}
SEAT_KEYS = {"identity", "character", "hp", "max_hp", "hand", "equip", "judgment", "alive"}
IDENTITIES = {"lord", "loyalist", "rebel", "renegade"}


class Malformed(Exception):
    """The scenario cannot be run (exit 2)."""


def _int(v: Any, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise Malformed(f"{what} must be a whole number")
    return v


def _cards(v: Any, what: str, used: set[int]) -> list[int]:
    if not isinstance(v, list):
        raise Malformed(f"{what} must be a list of card numbers")
    out = []
    for x in v:
        c = _int(x, f"{what} entry")
        if c not in CARDS:
            raise Malformed(f"{what}: there is no card {c} (cards are 1-108)")
        if c in used:
            raise Malformed(f"card {c} appears twice in the scenario")
        used.add(c)
        out.append(c)
    return out


def build(sc: Any) -> State:
    """The position a scenario describes, with the ``play`` ask open."""
    if not isinstance(sc, dict):
        raise Malformed("the scenario must be a JSON object")
    unknown = set(sc) - TOP_KEYS
    if unknown:
        raise Malformed(f"unknown field(s): {sorted(unknown)}")
    try:
        cfg = validate_config(sc.get("config") or {})
    except RulesError as exc:
        raise Malformed(f"config: {exc.reason}") from None
    seats_in = sc.get("seats")
    if not isinstance(seats_in, list) or not 2 <= len(seats_in) <= 10:
        raise Malformed("seats must list 2 to 10 seats")
    used: set[int] = set()
    seats = []
    for i, raw in enumerate(seats_in):
        if not isinstance(raw, dict):
            raise Malformed(f"seat {i} must be an object")
        bad = set(raw) - SEAT_KEYS
        if bad:
            raise Malformed(f"seat {i}: unknown field(s) {sorted(bad)}")
        ident = raw.get("identity")
        if ident not in IDENTITIES:
            raise Malformed(f"seat {i}: identity must be one of {sorted(IDENTITIES)}")
        if ident == "lord" and i != 0:
            raise Malformed("the lord must sit in seat 0")
        p = blank_seat(i, ident)
        ch = raw.get("character")
        if ch is not None and ch not in CHARACTERS:
            raise Malformed(f"seat {i}: unknown character {ch!r}")
        p["character"] = ch
        if "hp" not in raw:
            raise Malformed(f"seat {i}: hp is required")
        p["hp"] = _int(raw["hp"], f"seat {i} hp")
        p["max_hp"] = _int(raw.get("max_hp", p["hp"]), f"seat {i} max_hp")
        alive = raw.get("alive", True)
        if not isinstance(alive, bool):
            raise Malformed(f"seat {i}: alive must be true or false")
        p["alive"] = alive
        if p["hp"] > p["max_hp"] or (alive and (p["hp"] < 1 or p["max_hp"] < 1)):
            raise Malformed(f"seat {i}: impossible hp {p['hp']}/{p['max_hp']}")
        p["hand"] = _cards(raw.get("hand", []), f"seat {i} hand", used)
        eq = raw.get("equip", {})
        if not isinstance(eq, dict) or set(eq) - set(EQUIP_SLOTS):
            raise Malformed(f"seat {i}: equip keys are {list(EQUIP_SLOTS)}")
        for slot, c in eq.items():
            if c is None:
                continue
            (c,) = _cards([c], f"seat {i} equip", used)
            if CARDS[c].kind != slot:
                raise Malformed(f"seat {i}: card {c} does not fit the {slot} slot")
            p["equip"][slot] = c
        p["judg"] = _cards(raw.get("judgment", []), f"seat {i} judgment", used)
        names = [CARDS[c].id for c in p["judg"]]
        if any(CARDS[c].kind != "delayed" for c in p["judg"]) or len(set(names)) != len(names):
            raise Malformed(f"seat {i}: a judgment area holds delayed tricks, one of each name")
        seats.append(p)
    if sum(p["identity"] == "lord" for p in seats) > 1:
        raise Malformed("more than one lord")
    draw = _cards(sc.get("draw_pile", []), "draw_pile", used)
    discard = _cards(sc.get("discard_pile", []), "discard_pile", used)
    cur = _int(sc.get("current", 0), "current")
    if not 0 <= cur < len(seats) or not seats[cur]["alive"]:
        raise Malformed("current must be a living seat")
    kills = _int(sc.get("kills_used", 0), "kills_used")
    if kills < 0:
        raise Malformed("kills_used must be 0 or more")
    if not isinstance(sc.get("orders", []), list):
        raise Malformed("orders must be a list")
    st = base_state(cfg, seats, draw)
    st["discard"] = discard
    st["scenario"] = True
    st["revealed"] = True
    st["roster"] = list(CHARACTERS)
    st["current"] = cur
    st["turn"] = 1
    st["turn_phase"] = "play"
    st["tc"] = new_turn_counters()
    st["tc"]["kills"] = kills
    st["stack"] = [{"t": "turn", "seat": cur, "step": "discard"}, {"t": "play", "seat": cur}]
    ctx = Ctx(st, "scenario")
    run(ctx)
    return ctx.freeze()


def output(state: State, error: str | None, error_at: int | None) -> JSON:
    st = state.raw
    ask = st["ask"]
    return {
        "over": st["over"], "winners": sorted(st["winners"]), "current": st["current"],
        "turn_phase": st["turn_phase"],
        "ask": None if st["over"] or ask is None else {"kind": ask["kind"],
                                                      "awaited": sorted(ask["awaited"])},
        "seats": [{"seat": p["seat"], "identity": p["identity"], "alive": p["alive"], "hp": p["hp"],
                   "max_hp": p["max_hp"], "hand": list(p["hand"]),
                   "equip": {k: v for k, v in p["equip"].items() if v is not None},
                   "judgment": list(p["judg"])} for p in st["seats"]],
        "draw_pile": list(st["draw"]), "discard_pile": list(st["discard"]),
        "error": error, "error_at": error_at,
    }


def play(sc: Any) -> JSON:
    """Run a scenario dict; raises :class:`Malformed` for exit 2."""
    state = build(sc)
    for i, item in enumerate(sc.get("orders", [])):
        if not isinstance(item, dict):
            raise Malformed(f"orders[{i}] must be an object")
        try:
            if item.get("timeout") is True and set(item) == {"timeout"}:
                if state.raw["over"] or state.raw["ask"] is None:
                    return output(state, "The game is over.", i)
                state = engine.resolve(state, "scenario").state
                continue
            if set(item) != {"seat", "order"} or not isinstance(item["order"], dict):
                raise Malformed(f"orders[{i}] must be {{'seat': n, 'order': {{...}}}} or "
                                "{'timeout': true}")
            seat = _int(item["seat"], f"orders[{i}].seat")
            state = engine.submit(state, seat, item["order"]).state
            if not engine.awaiting(state):
                state = engine.resolve(state, "scenario").state
        except ScenarioNeedsRandom as exc:
            raise Malformed(exc.reason) from None
        except RulesError as exc:
            return output(state, exc.reason, i)
    return output(state, None, None)


def main(argv: list[str] | None = None) -> int:
    try:
        text = sys.stdin.read()
        try:
            sc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise Malformed(f"not JSON: {exc}") from None
        try:
            out = play(sc)
        except ScenarioNeedsRandom as exc:
            raise Malformed(exc.reason) from None
    except Malformed as exc:
        print(f"malformed scenario: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback (docs/scenarios.md)
        print(f"malformed scenario: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
