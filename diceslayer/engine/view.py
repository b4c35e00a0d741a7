"""What a seat or a spectator sees (docs/style.md §5), and the "highlight patterns" helper.

Everything in Dice Slayer is public (docs/diceslayer-rules.md hides nothing), so every viewer
gets the same board; ``you``, ``your_turn`` and ``legal`` depend on the viewer.
"""

from __future__ import annotations

from typing import Any

from diceslayer.engine.orders import legal_orders, order_to_json
from diceslayer.engine.rules.patterns import after_adding, pattern_of, targets_of
from diceslayer.engine.rules.resolve import roll_in_count
from diceslayer.engine.serialize import dump
from diceslayer.engine.state import (
    CLEAR_BONUS, SOLO_OVER_AT, VERSUS_LOSS_AT, Bomb, Pick, Source, State, Variant, Wild,
)


def _legal(state: State, seat: int | None) -> dict[str, list[int]] | None:
    if seat is None or state.over or seat != state.to_move:
        return None
    orders = legal_orders(state, seat)
    return {
        "pick": [o.face for o in orders if isinstance(o, Pick) and o.source is Source.OWN],
        "pick_opponent": [o.face for o in orders
                          if isinstance(o, Pick) and o.source is Source.OPPONENT],
        "wild": [o.face for o in orders if isinstance(o, Wild)],
        "bomb": [o.face for o in orders if isinstance(o, Bomb)],
    }


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    """The board as ``seat`` (``None`` = a spectator) sees it; JSON only.

    Shape::

        {"game": "diceslayer", "variant": "solo", "variant_label": "Solo",
         "you": 0 | None, "your_turn": bool, "turn": 4, "to_move": 0,
         "over": false, "winner": null, "end_reason": "",
         "bomb": "neutral" | 0 | 1 | null (null outside versus2), "target": null | int,
         "limits": {"game_over_at": 8} (solo) | {"loss_at": 10} (versus),
         "players": [{"seat": 0, "plate": [1, 3, 5], "stock": [5, 3, 4], "score": 25,
                      "wild": 0, "grace": [], "next_roll_in": 2}],
         "pending": null | order JSON,
         "legal": null | {"pick": [...], "pick_opponent": [...], "wild": [...], "bomb": [...]}}
    """
    v = state.variant
    players = []
    for i, p in enumerate(state.players):
        players.append({
            "seat": i, "plate": list(p.plate), "stock": list(p.stock), "score": p.score,
            "wild": p.wild, "grace": list(p.grace),
            "next_roll_in": roll_in_count(v, len(p.plate)) if v is not Variant.VERSUS1 else 0,
        })
    return {
        "game": "diceslayer",
        "variant": v.value,
        "variant_label": v.label,
        "you": seat,
        "your_turn": seat is not None and not state.over and seat == state.to_move
        and state.pending is None,
        "turn": state.turn,
        "to_move": state.to_move,
        "over": state.over,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "bomb": ("neutral" if state.bomb is None else state.bomb)
        if v is Variant.VERSUS2 else None,
        "target": state.target,
        "limits": {"game_over_at": SOLO_OVER_AT[v]} if v.is_solo
        else {"loss_at": VERSUS_LOSS_AT},
        "players": players,
        "pending": None if state.pending is None else order_to_json(state.pending),
        "legal": _legal(state, seat),
    }


def omniscient_view(state: State) -> dict[str, Any]:
    """Everything (the director, post-game review): the view plus the raw state."""
    out = player_view(state, None)
    out["state"] = dump(state)
    return out


def scoring_picks(state: State, seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat`` that would remove dice right now ("highlight patterns").

    Each entry: ``{"order": {...}, "face": 4, "from": "own"|"opponent"|"wild",
    "pattern": "set"|"run", "removes": [2, 2, 6], "points": 9, "clears": bool}``, best
    first. Wild entries appear only when the seat has a wild die. Works for any seat, in
    or out of turn (a page may show what you could do next).
    """
    me = state.players[seat]
    v = state.variant
    options: list[tuple[str, int]] = [("own", f) for f in sorted(set(me.plate))]
    if not v.is_solo:
        options += [("opponent", f) for f in sorted(set(state.players[1 - seat].plate))]
    if v is Variant.SOLO_WILD and me.wild > 0:
        options += [("wild", f) for f in range(1, 7)]
    out: list[dict[str, Any]] = []
    for src, face in options:
        stock, _ = after_adding(me.stock, face)
        kind = pattern_of(stock)
        if kind is None:
            continue
        plate = list(me.plate)
        if src == "own":
            plate.remove(face)
        targets = targets_of(stock)
        removed = sorted(f for f in plate if f in targets)
        if not removed:
            continue
        clears = len(removed) == len(plate)
        points = len(removed) ** 2 + (CLEAR_BONUS if clears and v is not Variant.VERSUS1 else 0)
        if src == "wild":
            order: dict[str, Any] = {"wild": face}
        elif src == "own":
            order = {"pick": face}
        else:
            order = {"pick": face, "from": "opponent"}
        out.append({"order": order, "face": face, "from": src, "pattern": kind,
                    "removes": removed, "points": points, "clears": clears})
    out.sort(key=lambda e: (-int(e["points"]), e["from"] == "wild", int(e["face"])))
    return out
