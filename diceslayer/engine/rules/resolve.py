"""Resolving one turn: everything the rules do from a choice to the next choice.

The order within a turn is exactly the rules file's:

- solo (§1, §2): pick or wild → match → score (n², clear bonus 20 judged at once) → wild
  dice earned at 100, 300, 600, … → game-over check (plate ≥ 8; ≥ 7 with wild dice) →
  next round's roll-in (3 dice onto an empty plate, else 2).
- versus 1 (§3): pick (own or opponent's field) → match on your own field → score n² →
  attack/cancel against the grace zones (or, if nothing was removed, your grace falls onto
  your field) → loss check (field ≥ 10) → win check (score ≥ 100) → the opponent's turn;
  a mover with no die to take passes (§3.8).
- versus 2 (§4.11): roll-in → pick (or bomb) → match and removal on your own field →
  score and clear bonus → attack (n − 1 dice to the opponent) → set transfer →
  100-crossing transfer → loss check (skipped after a bomb) → target-score check → the
  opponent's roll-in (3 dice for a field of 0–4, 2 for 5–6, 1 for 7 or more).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from games.rules import Event

from diceslayer.engine.rules.dice import Dice
from diceslayer.engine.rules.patterns import after_adding, pattern_of, targets_of
from diceslayer.engine.state import (
    CLEAR_BONUS, SOLO_OVER_AT, VERSUS_LOSS_AT, Bomb, Order, Pick, Player, Source, State,
    Variant, Wild,
)


def wild_thresholds_reached(score: int) -> int:
    """How many of 100, 300, 600, 1000, … (``100·k(k+1)/2``) ``score`` has reached (§2.3).

    >>> [wild_thresholds_reached(s) for s in (99, 100, 299, 300, 600, 1500)]
    [0, 1, 1, 2, 3, 5]
    """
    k = 0
    while 100 * (k + 1) * (k + 2) // 2 <= score:
        k += 1
    return k


def roll_in_count(variant: Variant, field_size: int) -> int:
    """How many dice the roll-in brings (§1 step 1, §4.2; versus 1 has none, §3.6)."""
    if variant is Variant.VERSUS2:
        return 3 if field_size <= 4 else 2 if field_size <= 6 else 1
    if variant is Variant.VERSUS1:
        return 0
    return 3 if field_size == 0 else 2


@dataclass
class _P:
    plate: list[int]
    stock: list[int]
    score: int
    wild: int
    grace: list[int]

    @classmethod
    def of(cls, p: Player) -> _P:
        return cls(list(p.plate), list(p.stock), p.score, p.wild, list(p.grace))

    def freeze(self) -> Player:
        return Player(tuple(sorted(self.plate)), tuple(self.stock), self.score, self.wild,
                      tuple(sorted(self.grace)))


@dataclass
class _Turn:
    """A mutable working copy of the state for the duration of one resolution."""

    state: State
    dice: Dice
    players: list[_P] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    rolls_done: int = 0

    def __post_init__(self) -> None:
        self.players = [_P.of(p) for p in self.state.players]
        self.rolls_done = self.state.rolls_done

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind=kind, data=data))

    def roll(self, n: int, seat: int, reason: str) -> list[int]:
        """Roll ``n`` dice (one batch); roll-ins are announced, attacks say it themselves."""
        if n <= 0:
            return []
        faces = list(self.dice.roll(n, self.rolls_done))
        self.rolls_done += 1
        if reason != "attack":
            self.emit("rolled", seat=seat, faces=faces, reason=reason)
        return faces


def _take(plate: list[int], face: int) -> None:
    plate.remove(face)


def _remove_faces(plate: list[int], targets: tuple[int, ...]) -> list[int]:
    removed = sorted(f for f in plate if f in targets)
    plate[:] = [f for f in plate if f not in targets]
    return removed


def _to_stock(t: _Turn, seat: int, face: int, how: str, source: str = "own") -> tuple[int, ...]:
    me = t.players[seat]
    new_stock, dropped = after_adding(tuple(me.stock), face)
    me.stock = list(new_stock)
    t.emit(how, seat=seat, face=face, source=source, dropped=dropped, stock=list(new_stock))
    return new_stock


def _match(t: _Turn, seat: int, stock: tuple[int, ...]) -> tuple[str | None, int]:
    """Match the full stock against the seat's own plate; score n² (+ clear bonus)."""
    kind = pattern_of(stock)
    if kind is None:
        return None, 0
    me = t.players[seat]
    targets = targets_of(stock)
    removed = _remove_faces(me.plate, targets)
    n = len(removed)
    points = n * n
    me.score += points
    t.emit("matched", seat=seat, pattern=kind, stock=list(stock), targets=list(targets),
           removed=removed, points=points, score=me.score)
    # §1.4 (chosen): the bonus is judged right after the removal, before anything moves.
    if n >= 1 and not me.plate and t.state.variant is not Variant.VERSUS1:
        me.score += CLEAR_BONUS
        t.emit("clear_bonus", seat=seat, points=CLEAR_BONUS, score=me.score)
    return kind, n


def _solo_round(t: _Turn, order: Order) -> State:
    st = t.state
    me = t.players[0]
    old_score = me.score
    if isinstance(order, Wild):
        me.wild -= 1
        stock = _to_stock(t, 0, order.face, "wild_used")
    else:
        assert isinstance(order, Pick)
        _take(me.plate, order.face)
        stock = _to_stock(t, 0, order.face, "picked")
    _match(t, 0, stock)
    if st.variant is Variant.SOLO_WILD:
        earned = wild_thresholds_reached(me.score) - wild_thresholds_reached(old_score)
        if earned:
            me.wild += earned
            t.emit("wild_earned", seat=0, count=earned, wild=me.wild, score=me.score)
    limit = SOLO_OVER_AT[st.variant]
    if len(me.plate) >= limit:
        t.emit("game_over", seat=0, plate=len(me.plate), limit=limit, score=me.score)
        return _freeze(t, over=True, winner=None, end_reason="plate_full")
    me.plate += t.roll(roll_in_count(st.variant, len(me.plate)), 0, "roll_in")
    return _freeze(t, turn=st.turn + 1)


def _versus1_turn(t: _Turn, order: Order) -> State:
    st = t.state
    seat = st.to_move
    assert isinstance(order, Pick)
    opp = 1 - seat
    src = t.players[seat] if order.source is Source.OWN else t.players[opp]
    _take(src.plate, order.face)
    stock = _to_stock(t, seat, order.face, "picked", order.source.value)
    _, n = _match(t, seat, stock)
    return _versus1_after(t, seat, n, order.cancel)


def _versus1_after(t: _Turn, seat: int, n: int, cancel: tuple[int, ...] | None) -> State:
    """Steps 3–5 of §3 for a turn that removed ``n`` dice, then hand over the turn."""
    st = t.state
    me, opp = t.players[seat], t.players[1 - seat]
    g = len(me.grace)
    if n >= 1:
        if g == 0:
            sent = n - 1
        elif n < g:
            chosen = list(cancel) if cancel is not None and len(cancel) == n \
                else sorted(me.grace)[:n]
            for f in chosen:
                me.grace.remove(f)
            t.emit("grace_cancelled", seat=seat, faces=sorted(chosen))
            sent = 0
        else:
            t.emit("grace_cancelled", seat=seat, faces=sorted(me.grace))
            me.grace.clear()
            sent = n - g
        if sent:
            faces = t.roll(sent, 1 - seat, "attack")
            opp.grace += faces
            t.emit("attack", seat=seat, to=1 - seat, faces=sorted(faces), into="grace")
    elif me.grace:
        fell = sorted(me.grace)
        me.plate += fell
        me.grace.clear()
        t.emit("grace_fell", seat=seat, faces=fell)
    if len(me.plate) >= VERSUS_LOSS_AT:
        t.emit("lost", seat=seat, reason="overflow", field=len(me.plate))
        return _freeze(t, over=True, winner=1 - seat, end_reason="overflow")
    if me.score >= (st.target or 100):
        t.emit("won", seat=seat, reason="target", score=me.score)
        return _freeze(t, over=True, winner=seat, end_reason="target")
    return _versus1_hand_over(t, 1 - seat, st.turn + 1)


def _versus1_hand_over(t: _Turn, nxt: int, turn: int, count_move: bool = True) -> State:
    """Give the turn to ``nxt``; a mover with no die to take passes (§3.8, chosen).

    A pass counts as "removed nothing": the passer's grace falls, then their loss check.
    When both fields and both grace zones are empty the match ends on the scores.
    """
    while True:
        mover = t.players[nxt]
        if t.players[0].plate or t.players[1].plate:
            return _freeze(t, count_move, to_move=nxt, turn=turn)
        if not t.players[0].grace and not t.players[1].grace:
            s0, s1 = t.players[0].score, t.players[1].score
            winner = None if s0 == s1 else (0 if s0 > s1 else 1)
            t.emit("exhausted", winner=winner, scores=[s0, s1])
            return _freeze(t, count_move, to_move=nxt, turn=turn, over=True, winner=winner,
                           end_reason="exhausted")
        t.emit("passed", seat=nxt)
        if mover.grace:
            fell = sorted(mover.grace)
            mover.plate += fell
            mover.grace.clear()
            t.emit("grace_fell", seat=nxt, faces=fell)
        if len(mover.plate) >= VERSUS_LOSS_AT:
            t.emit("lost", seat=nxt, reason="overflow", field=len(mover.plate))
            return _freeze(t, count_move, to_move=nxt, turn=turn, over=True, winner=1 - nxt,
                           end_reason="overflow")
        nxt = 1 - nxt
        turn += 1


def _versus2_turn(t: _Turn, order: Order) -> State:
    st = t.state
    seat = st.to_move
    opp_seat = 1 - seat
    me, opp = t.players[seat], t.players[opp_seat]
    bomb_owner = st.bomb
    bombed = isinstance(order, Bomb)
    if isinstance(order, Bomb):
        removed = _remove_faces(me.plate, (order.face,))
        bomb_owner = opp_seat
        t.emit("bombed", seat=seat, face=order.face, removed=removed, owner=bomb_owner)
    else:
        assert isinstance(order, Pick)
        old = me.score
        src = me if order.source is Source.OWN else opp
        _take(src.plate, order.face)
        stock = _to_stock(t, seat, order.face, "picked", order.source.value)
        kind, n = _match(t, seat, stock)
        if n >= 2:  # attack: n − 1 dice onto the opponent's field (§4.5)
            faces = t.roll(n - 1, opp_seat, "attack")
            opp.plate += faces
            t.emit("attack", seat=seat, to=opp_seat, faces=sorted(faces), into="field")
        if kind == "set":  # set transfer, even when nothing was removed (§4.9)
            moved = list(me.stock)
            opp.plate += moved
            me.stock.clear()
            t.emit("set_transfer", seat=seat, to=opp_seat, faces=sorted(moved))
        if me.score // 100 > old // 100:  # a new multiple of 100 reached (§4.9)
            moved = sorted(me.plate)
            opp.plate += moved
            me.plate.clear()
            t.emit("hundred_transfer", seat=seat, to=opp_seat, faces=moved, score=me.score)
    if bombed:
        t.emit("loss_check_skipped", seat=seat, field=len(me.plate))
    elif len(me.plate) >= VERSUS_LOSS_AT:
        t.emit("lost", seat=seat, reason="overflow", field=len(me.plate))
        return _freeze(t, bomb=bomb_owner, over=True, winner=opp_seat, end_reason="overflow")
    if st.target is not None and me.score >= st.target:
        t.emit("won", seat=seat, reason="target", score=me.score)
        return _freeze(t, bomb=bomb_owner, over=True, winner=seat, end_reason="target")
    opp.plate += t.roll(roll_in_count(st.variant, len(opp.plate)), opp_seat, "roll_in")
    return _freeze(t, bomb=bomb_owner, to_move=opp_seat, turn=st.turn + 1)


def _freeze(t: _Turn, count_move: bool = True, **changes: Any) -> State:
    return replace(t.state, players=tuple(p.freeze() for p in t.players), pending=None,
                   rolls_done=t.rolls_done, moves=t.state.moves + int(count_move), **changes)


def apply_order(state: State, order: Order, dice: Dice) -> tuple[State, list[Event]]:
    """Apply a validated ``order`` of the mover and everything up to the next choice.

    .. warning:: ``order`` must already have passed :func:`orders.check_order`.
    """
    t = _Turn(state, dice)
    if state.variant.is_solo:
        new = _solo_round(t, order)
    elif state.variant is Variant.VERSUS1:
        new = _versus1_turn(t, order)
    else:
        new = _versus2_turn(t, order)
    return new, t.events


def settle_versus1(state: State, dice: Dice) -> tuple[State, list[Event]]:
    """Run the automatic passes of §3.8 when the mover has no die to take (else no change).

    Used after setup and by the scenario runner, whose position may start there.
    """
    if state.variant is not Variant.VERSUS1 or state.over:
        return state, []
    if state.players[0].plate or state.players[1].plate:
        return state, []
    t = _Turn(state, dice)
    return _versus1_hand_over(t, state.to_move, state.turn, count_move=False), t.events
