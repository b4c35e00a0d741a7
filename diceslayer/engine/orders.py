"""Orders: parsing the JSON a player sends, and checking them against the rules (§5).

JSON shapes (the same as a scenario's ``moves``)::

    {"pick": 4}                          # a die of face 4 from your own plate/field
    {"pick": 2, "from": "opponent"}      # versus: from the opponent's field
    {"wild": 6}                          # solo_wild: spend a wild die as a 6
    {"bomb": 3}                          # versus2: the bomb on face 3 of your own field
    {"pick": 5, "cancel": [2, 6]}        # versus1: the grace dice your removal cancels

A malformed order raises ``InvalidOrder``; a well-formed one the rules forbid now raises
``IllegalOrder``. Either way nothing changes (states are immutable).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from diceslayer.engine import errors as E
from diceslayer.engine.errors import IllegalOrder, InvalidOrder
from diceslayer.engine.rules.patterns import after_adding, targets_of
from diceslayer.engine.state import Bomb, Order, Pick, Source, State, Variant, Wild

ORDER_KEYS = frozenset({"pick", "wild", "bomb", "from", "cancel"})


def _face(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise InvalidOrder(E.MSG_BAD_FACE.fill(value=repr(value)), code=E.CODE_BAD_FACE, field=field)
    face: int = value
    return face


def parse_order(raw: Mapping[str, Any] | Order) -> Order:
    """Turn order JSON into an :data:`Order` dataclass or raise ``InvalidOrder``.

    >>> parse_order({"pick": 4, "from": "opponent"})
    Pick(face=4, source=<Source.OPPONENT: 'opponent'>, cancel=None)
    """
    if isinstance(raw, (Pick, Wild, Bomb)):
        return raw
    if not isinstance(raw, Mapping):
        raise InvalidOrder(E.MSG_NOT_A_DICT)
    unknown = set(raw) - ORDER_KEYS
    if unknown:
        raise InvalidOrder(E.MSG_UNKNOWN_KEYS.fill(keys=", ".join(sorted(map(str, unknown)))))
    actions = [k for k in ("pick", "wild", "bomb") if k in raw]
    if len(actions) != 1:
        raise InvalidOrder(E.MSG_NO_ACTION)
    action = actions[0]
    face = _face(raw[action], action)
    if action != "pick":
        if "from" in raw:
            raise InvalidOrder(E.MSG_FROM_ONLY_WITH_PICK, field="from")
        if "cancel" in raw:
            raise InvalidOrder(E.MSG_CANCEL_ONLY_WITH_PICK, field="cancel")
        return Wild(face) if action == "wild" else Bomb(face)
    src_raw = raw.get("from", "own")
    try:
        source = Source(src_raw)
    except (ValueError, TypeError):
        raise InvalidOrder(E.MSG_BAD_FROM.fill(value=repr(src_raw)), field="from") from None
    cancel: tuple[int, ...] | None = None
    if "cancel" in raw and raw["cancel"] is not None:
        items = raw["cancel"]
        if not isinstance(items, (list, tuple)):
            raise InvalidOrder(E.MSG_BAD_CANCEL_SHAPE, field="cancel")
        cancel = tuple(sorted(_face(x, "cancel") for x in items))
    return Pick(face, source, cancel)


def order_to_json(order: Order) -> dict[str, Any]:
    """The JSON form of an order (inverse of :func:`parse_order`)."""
    if isinstance(order, Wild):
        return {"wild": order.face}
    if isinstance(order, Bomb):
        return {"bomb": order.face}
    out: dict[str, Any] = {"pick": order.face}
    if order.source is not Source.OWN:
        out["from"] = order.source.value
    if order.cancel is not None:
        out["cancel"] = list(order.cancel)
    return out


def removal_count(plate: tuple[int, ...], stock: tuple[int, ...], face: int,
                  from_own: bool = True) -> int:
    """How many dice of the mover's own plate a pick (or wild) of ``face`` removes now."""
    new_stock, _ = after_adding(stock, face)
    targets = targets_of(new_stock)
    if not targets:
        return 0
    counts = Counter(plate)
    if from_own:
        counts[face] -= 1
    return sum(counts[t] for t in targets)


def not_your_turn() -> IllegalOrder:
    """The out-of-turn refusal: it says whose turn it is not (a seat waiting its turn)."""
    return IllegalOrder(E.MSG_NOT_YOUR_TURN, code=E.CODE_NOT_YOUR_TURN,
                        status=E.STATUS_NOT_YOUR_TURN)


def check_order(state: State, seat: int, order: Order, *, pending_ok: bool = False) -> None:
    """Raise ``IllegalOrder`` unless ``seat`` may play ``order`` now (rules §5, bad input)."""
    if state.over:
        raise IllegalOrder(E.MSG_GAME_OVER, code=E.CODE_GAME_OVER)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state.players):
        raise IllegalOrder(E.MSG_NOT_A_SEAT.fill(seat=seat), code=E.CODE_NOT_A_SEAT)
    if seat != state.to_move:
        raise not_your_turn()
    if state.pending is not None and not pending_ok:
        raise IllegalOrder(E.MSG_ALREADY_MOVED, code=E.CODE_ALREADY_MOVED)
    me = state.players[seat]
    variant = state.variant
    if isinstance(order, Wild):
        if variant is not Variant.SOLO_WILD:
            raise IllegalOrder(E.MSG_NO_WILD_VARIANT, code=E.CODE_NOT_IN_VARIANT, field="wild")
        if me.wild < 1:
            raise IllegalOrder(E.MSG_NO_WILD, code=E.CODE_NO_WILD, field="wild")
        return
    if isinstance(order, Bomb):
        if variant is not Variant.VERSUS2:
            raise IllegalOrder(E.MSG_NO_BOMB_VARIANT, code=E.CODE_NOT_IN_VARIANT, field="bomb")
        if state.bomb is not None and state.bomb != seat:
            raise IllegalOrder(E.MSG_BOMB_OPPONENT, code=E.CODE_BOMB_OWNED, field="bomb")
        if order.face not in me.plate:
            raise IllegalOrder(E.MSG_BOMB_FACE_ABSENT.fill(face=order.face),
                               code=E.CODE_FACE_ABSENT, field="bomb")
        return
    # A pick.
    if order.source is Source.OPPONENT:
        if variant.is_solo:
            raise IllegalOrder(E.MSG_NO_OPPONENT, code=E.CODE_NO_OPPONENT, field="from")
        if order.face not in state.players[1 - seat].plate:
            raise IllegalOrder(E.MSG_FACE_ABSENT_OPP.fill(face=order.face),
                               code=E.CODE_FACE_ABSENT, field="pick")
    elif order.face not in me.plate:
        msg = E.MSG_FACE_ABSENT_PLATE if variant.is_solo else E.MSG_FACE_ABSENT_OWN
        raise IllegalOrder(msg.fill(face=order.face), code=E.CODE_FACE_ABSENT, field="pick")
    if order.cancel is not None:
        if variant is not Variant.VERSUS1:
            raise IllegalOrder(E.MSG_CANCEL_NOT_IN_VARIANT, code=E.CODE_NOT_IN_VARIANT,
                               field="cancel")
        n = removal_count(me.plate, me.stock, order.face, order.source is Source.OWN)
        g = len(me.grace)
        if 1 <= n < g:  # rules §3.7: only then is the list read
            if len(order.cancel) != n:
                raise IllegalOrder(E.msg_cancel_count(n, len(order.cancel)),
                                   code=E.CODE_BAD_CANCEL, field="cancel")
            have = Counter(me.grace)
            want = Counter(order.cancel)
            if any(want[f] > have[f] for f in want):
                raise IllegalOrder(E.MSG_CANCEL_ABSENT.fill(faces=list(order.cancel)),
                                   code=E.CODE_BAD_CANCEL, field="cancel")


def legal_orders(state: State, seat: int) -> list[Order]:
    """Every distinct order ``seat`` may play now (without ``cancel`` choices)."""
    if state.over or seat != state.to_move or state.pending is not None:
        return []
    me = state.players[seat]
    out: list[Order] = [Pick(f) for f in sorted(set(me.plate))]
    if not state.variant.is_solo:
        opp = state.players[1 - seat]
        out += [Pick(f, Source.OPPONENT) for f in sorted(set(opp.plate))]
    if state.variant is Variant.SOLO_WILD and me.wild > 0:
        out += [Wild(f) for f in range(1, 7)]
    if state.variant is Variant.VERSUS2 and state.bomb in (None, seat):
        out += [Bomb(f) for f in sorted(set(me.plate))]
    return out


def default_order(state: State, seat: int) -> Order | None:
    """The stated default move of rules §5 for a seat whose time ran out.

    The pick from your own field, then the opponent's, that removes the most dice now,
    ties to the lowest face (and to your own field on an equal face); never a wild die
    or the bomb; grace cancels take the lowest faces (``cancel`` left out); if no pick
    removes anything, the lowest face of your own field (of the opponent's when yours is
    empty). ``None`` when the seat has nothing to do.
    """
    if state.over or seat != state.to_move:
        return None
    me = state.players[seat]
    picks = [p for p in legal_orders(state, seat) if isinstance(p, Pick)]
    if not picks:
        return None
    scored = [(removal_count(me.plate, me.stock, p.face, p.source is Source.OWN), p)
              for p in picks]
    best = max(n for n, _ in scored)
    if best > 0:
        ties = [p for n, p in scored if n == best]
        return min(ties, key=lambda p: (p.face, p.source is not Source.OWN))
    own = [p for p in picks if p.source is Source.OWN]
    return min(own or picks, key=lambda p: p.face)
