"""``dump``/``load``: the lossless JSON form of a state (``load(dump(s)) == s``).

``load`` also checks the position is one the rules could reach (faces 1–6, a stock of
at most 3, a solo plate of at most 9 …) and raises ``ValueError`` with a clear message
otherwise; the scenario runner reports that as a malformed scenario.
"""

from __future__ import annotations

from typing import Any, Mapping

from diceslayer.engine.orders import order_to_json, parse_order
from diceslayer.engine.state import SOLO_OVER_AT, STOCK_SIZE, Player, State, Variant

FORMAT = 1


def _player_json(p: Player) -> dict[str, Any]:
    return {"plate": list(p.plate), "stock": list(p.stock), "score": p.score,
            "wild": p.wild, "grace": list(p.grace)}


def dump(state: State) -> dict[str, Any]:
    """The state as plain JSON."""
    return {
        "format": FORMAT,
        "variant": state.variant.value,
        "players": [_player_json(p) for p in state.players],
        "to_move": state.to_move,
        "turn": state.turn,
        "bomb": "neutral" if state.bomb is None else state.bomb,
        "target": state.target,
        "over": state.over,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "pending": None if state.pending is None else order_to_json(state.pending),
        "rolls_done": state.rolls_done,
        "moves": state.moves,
    }


def _int(value: Any, what: str, lo: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    if lo is not None and value < lo:
        raise ValueError(f"{what} must be at least {lo}, not {value}")
    number: int = value
    return number


def faces_of(value: Any, what: str) -> tuple[int, ...]:
    """A list of die faces, checked (1–6 each)."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of die faces")
    out = []
    for f in value:
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
            raise ValueError(f"{what}: a die face is 1 to 6, not {f!r}")
        out.append(f)
    return tuple(out)


def player_from_json(raw: Any, where: str) -> Player:
    """One player's dice from JSON (missing fields default to empty/0)."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where} must be an object")
    unknown = set(raw) - {"plate", "stock", "score", "wild", "grace"}
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    stock = faces_of(raw.get("stock", []), f"{where}.stock")
    if len(stock) > STOCK_SIZE:
        raise ValueError(f"{where}.stock holds at most {STOCK_SIZE} dice")
    return Player(plate=tuple(sorted(faces_of(raw.get("plate", []), f"{where}.plate"))),
                  stock=stock,
                  score=_int(raw.get("score", 0), f"{where}.score", 0),
                  wild=_int(raw.get("wild", 0), f"{where}.wild", 0),
                  grace=tuple(sorted(faces_of(raw.get("grace", []), f"{where}.grace"))))


def check_position(state: State) -> None:
    """Raise ``ValueError`` if no legal play reaches ``state`` (a structural check)."""
    v = state.variant
    if len(state.players) != v.seats:
        raise ValueError(f"{v.value} has {v.seats} player(s), not {len(state.players)}")
    if not 0 <= state.to_move < v.seats:
        raise ValueError(f"to_move must be a seat of this game (0..{v.seats - 1})")
    for i, p in enumerate(state.players):
        if p.wild and v is not Variant.SOLO_WILD:
            raise ValueError(f"players[{i}].wild: wild dice exist only in solo_wild")
        if p.grace and v is not Variant.VERSUS1:
            raise ValueError(f"players[{i}].grace: grace zones exist only in versus1")
        if v.is_solo and not state.over:
            # At the moment of choice a plate holds at most 9 (8 with wild dice) and
            # never 0: the roll-in just brought 2 or 3 dice.
            most = SOLO_OVER_AT[v] + 1
            if len(p.plate) > most:
                raise ValueError(f"a {v.value} plate holds at most {most} dice when the "
                                 f"player chooses, not {len(p.plate)}")
            if not p.plate:
                raise ValueError("the plate cannot be empty after the roll-in")
        if v is Variant.VERSUS1 and len(p.plate) >= 10:
            raise ValueError(f"players[{i}].plate: a versus1 field never holds 10 or more "
                             "when a player chooses")
    if v is Variant.VERSUS2 and not state.over and not any(p.plate for p in state.players):
        raise ValueError("in versus2 the mover's roll-in always brings dice: both fields "
                         "cannot be empty when a player chooses")
    if state.bomb is not None and v is not Variant.VERSUS2:
        raise ValueError("the bomb exists only in versus2")
    if state.bomb is not None and state.bomb not in (0, 1):
        raise ValueError("bomb is \"neutral\", 0 or 1")
    if state.target is not None and v.is_solo:
        raise ValueError("solo has no target score")
    if state.winner is not None and not state.over:
        raise ValueError("a winner needs a finished game")


def load(raw: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`dump` output."""
    if not isinstance(raw, Mapping):
        raise ValueError("a state must be a JSON object")
    try:
        variant = Variant(raw["variant"])
        bomb_raw = raw.get("bomb", "neutral")
        bomb = None if bomb_raw in ("neutral", None) else _int(bomb_raw, "bomb")
        target = raw.get("target")
        state = State(
            variant=variant,
            players=tuple(player_from_json(p, f"players[{i}]")
                          for i, p in enumerate(raw["players"])),
            to_move=_int(raw.get("to_move", 0), "to_move"),
            turn=_int(raw.get("turn", 1), "turn", 1),
            bomb=bomb,
            target=None if target is None else _int(target, "target", 1),
            over=bool(raw.get("over", False)),
            winner=None if raw.get("winner") is None else _int(raw["winner"], "winner"),
            end_reason=str(raw.get("end_reason", "")),
            pending=None if raw.get("pending") is None else parse_order(raw["pending"]),
            rolls_done=_int(raw.get("rolls_done", 0), "rolls_done", 0),
            moves=_int(raw.get("moves", 0), "moves", 0),
        )
    except KeyError as exc:
        raise ValueError(f"missing field {exc.args[0]!r}") from None
    check_position(state)
    return state
