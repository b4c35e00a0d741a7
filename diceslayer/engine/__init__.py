"""The pure Dice Slayer rules engine (docs/diceslayer-rules.md), as ``games.rules.RulesEngine``.

Module-level functions: ``config_schema``, ``validate_config``, ``setup``,
``current_phase``, ``submit``, ``validate_order``, ``default_orders``, ``bot_orders``,
``resolve``, ``player_view``, ``omniscient_view``, ``outcome``, ``dump``, ``load``,
``describe``; plus ``daily_seed`` (the daily challenge), ``hint`` and ``scoring_picks``
(the bot's advice and the "highlight patterns" helper for pages).

A turn is one phase: the mover's ``submit`` accepts their whole move (``done=True``) and
``resolve(state, seed)`` plays it and everything the rules do until the next choice,
drawing dice from ``seed`` (the one match seed, reused every phase).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from games.rules import IllegalOrder, InvalidOrder, Resolution, Submitted

from diceslayer.engine.bot import bot_order, hint
from diceslayer.engine.describe import describe
from diceslayer.engine.orders import (check_order, default_order, not_your_turn, order_to_json,
                                      parse_order)
from diceslayer.engine.phase import current_phase, outcome
from diceslayer.engine.rules.dice import SeededDice
from diceslayer.engine.rules.resolve import apply_order
from diceslayer.engine.serialize import dump, load
from diceslayer.engine.setup import config_schema, daily_seed, setup, validate_config
from diceslayer.engine.state import State, Variant
from diceslayer.engine.view import omniscient_view, player_view, scoring_picks

SLUG = "diceslayer"
NAME = "Dice Slayer"
MIN_SEATS = 1
MAX_SEATS = 2


def validate_order(state: State, seat: int, order: Mapping[str, Any]) -> None:
    """Raise ``InvalidOrder``/``IllegalOrder`` as :func:`submit` would, else return None."""
    check_order(state, seat, parse_order(order))


def idle_reason(state: State, seat: int) -> IllegalOrder | None:
    """A versus seat waiting for its opponent is told it is not its turn."""
    if state.over or seat == state.to_move or not 0 <= seat < len(state.players):
        return None
    return not_your_turn()


def submit(state: State, seat: int, order: Mapping[str, Any]) -> Submitted:
    """Accept ``seat``'s move into the state; a pick is the whole move (``done=True``).

    >>> s = setup({"variant": "solo"}, [0], "doc")
    >>> submit(s, 0, {"pick": s.players[0].plate[0]}).done
    True
    """
    parsed = parse_order(order)
    check_order(state, seat, parsed)
    return Submitted(state=replace(state, pending=parsed), done=True, events=())


def default_orders(state: State, seat: int) -> list[dict[str, Any]]:
    """The stated default move of rules §5 (empty when ``seat`` has nothing to do)."""
    order = default_order(state, seat)
    return [] if order is None else [order_to_json(order)]


def bot_orders(state: State, seat: int, seed: str) -> list[dict[str, Any]]:
    """The expectimax bot's move for ``seat`` (empty when it is not that seat's turn)."""
    order = bot_order(state, seat)
    return [] if order is None else [order]


def resolve(state: State, seed: str) -> Resolution:
    """Play the pending move and everything up to the next choice (dice from ``seed``).

    If no move is pending (the framework did not fill the default), the §5 default is
    played. A finished match resolves to itself with no events.
    """
    if state.over:
        return Resolution(state=state, events=())
    order = state.pending
    if order is None:
        order = default_order(state, state.to_move)
        if order is None:
            return Resolution(state=state, events=())
    check_order(state, state.to_move, order, pending_ok=True)
    new, events = apply_order(state, order, SeededDice(seed))
    return Resolution(state=new, events=tuple(events))


__all__ = [
    "SLUG", "NAME", "MIN_SEATS", "MAX_SEATS", "IllegalOrder", "InvalidOrder", "State",
    "Variant", "bot_orders", "config_schema", "current_phase", "daily_seed", "default_orders",
    "describe", "dump", "hint", "idle_reason", "load", "omniscient_view", "outcome", "player_view", "resolve",
    "scoring_picks", "setup", "submit", "validate_config", "validate_order",
]
