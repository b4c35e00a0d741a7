"""What each seat may see (§13): ``player_view`` and the director's ``omniscient_view``.

A view never contains the resolution stack, the draw pile's order, hidden identities,
other hands, other seats' answers or the blind-slot mapping. The awaited seat gets a
``legal`` section: exactly the options the engine accepts (docs/sanguosha-view.md).
"""

from __future__ import annotations

from typing import Any

from sanguosha.engine.data import CARD_TYPES, CARDS, CHARACTERS
from sanguosha.engine.state import State, copy_json

JSON = dict[str, Any]


def _card_info(n: int) -> JSON:
    c = CARDS[n]
    return {"id": c.id, "name": CARD_TYPES[c.id][0], "zh": CARD_TYPES[c.id][1], "suit": c.suit,
            "rank": c.rank, "color": c.color, "kind": c.kind}


CARD_INFO = {n: _card_info(n) for n in CARDS}


def card_info(n: int) -> JSON:
    return dict(CARD_INFO[n])


def _seat_view(st: JSON, p: JSON, viewer: int | None, all_visible: bool) -> JSON:
    s = p["seat"]
    me = viewer == s
    ch = p["character"]
    show_char = ch is not None and (st["revealed"] or me or p["identity"] == "lord" or all_visible)
    show_id = (all_visible or me or p["identity"] == "lord" or not p["alive"] or st["over"])
    out: JSON = {
        "seat": s, "alive": p["alive"], "hp": p["hp"], "max_hp": p["max_hp"],
        "character": ch if show_char else None,
        "kingdom": CHARACTERS[ch].kingdom if show_char and ch else None,
        "gender": CHARACTERS[ch].gender if show_char and ch else None,
        "identity": p["identity"] if show_id else None,
        "hand_count": len(p["hand"]),
        "equip": {k: v for k, v in p["equip"].items() if v is not None},
        "judgment": list(p["judg"]),
        "judgment_as": [st.get("virtual", {}).get(str(c), CARDS[c].id) for c in p["judg"]],
    }
    if me or all_visible:
        out["hand"] = list(p["hand"])
    return out


def _public_ask(ask: JSON) -> JSON:
    out = {"no": ask["no"], "kind": ask["kind"], "timing": ask["timing"],
           "info": copy_json(ask["info"]), "default_text": ask["text"]}
    out["awaited"] = None if ask["kind"] == "negate_window" else list(ask["awaited"])
    return out


def player_view(state: State, seat: int | None) -> JSON:
    """The table as ``seat`` (None: a spectator) may see it, per §13."""
    st = state.raw
    view: JSON = {
        "game": "sanguosha", "you": seat, "turn": st["turn"], "current": st["current"],
        "turn_phase": st["turn_phase"], "over": st["over"], "winners": list(st["winners"]),
        "end_reason": st["end_reason"],
        "seats": [_seat_view(st, p, seat, False) for p in st["seats"]],
        "draw_count": len(st["draw"]), "discard": list(st["discard"]),
        "processing": list(st["proc"]),
        "kills_used": st["tc"].get("kills", 0) if st["tc"] else 0,
        "ask": _public_ask(st["ask"]) if st["ask"] else None,
        "legal": None, "answered": None,
        "config": {k: st["config"][k] for k in ("deck", "rescue_mode", "negate_privacy",
                                                "weapon_abilities", "identity_variant")},
    }
    ask = st["ask"]
    if ask and seat is not None and seat in ask["awaited"]:
        view["legal"] = copy_json(ask["options"][str(seat)])
        view["default"] = copy_json(ask["defaults"][str(seat)])
        if str(seat) in st["answers"]:
            view["answered"] = copy_json(st["answers"][str(seat)])
    if seat is not None and not st["revealed"] and str(seat) in st["offers"]:
        view["offered"] = list(st["offers"][str(seat)])
    seen: set[int] = set(view["discard"]) | set(view["processing"])
    for p in view["seats"]:
        seen |= set(p.get("hand", [])) | set(p["equip"].values()) | set(p["judgment"])
    _collect(view.get("legal"), seen)
    view["cards"] = {str(n): card_info(n) for n in sorted(seen) if n in CARDS}
    return view


def _collect(obj: Any, seen: set[int]) -> None:
    """Card numbers named in a ``legal`` section (cards the seat may see anyway)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("card", "use", "negate") and isinstance(v, int):
                seen.add(v)
            elif k in ("cards", "negates", "use_pair", "pair") and isinstance(v, list):
                for x in v:
                    if isinstance(x, int):
                        seen.add(x)
                    else:
                        _collect(x, seen)
            else:
                _collect(v, seen)
    elif isinstance(obj, list):
        for x in obj:
            _collect(x, seen)


def omniscient_view(state: State) -> JSON:
    """Everything, for the director and the post-game replay."""
    st = state.raw
    view = player_view(state, None)
    view["seats"] = [_seat_view(st, p, None, True) for p in st["seats"]]
    view["draw_pile"] = list(st["draw"])
    view["ask_full"] = copy_json(st["ask"])
    view["answers"] = copy_json(st["answers"])
    view["stack"] = copy_json(st["stack"])
    view["offers"] = copy_json(st["offers"])
    view["cards"] = {str(n): card_info(n) for n in sorted(CARDS)}
    return view
