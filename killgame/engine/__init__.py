"""The Kill Game rules engine (``docs/killgame-rules.md``): pure functions of the RulesEngine
protocol of :mod:`games.rules`.

Modules: :mod:`.state` (frozen state), :mod:`.maps` (maps and checks), :mod:`.config`
(§3), :mod:`.setup` (§2), :mod:`.orders` (validation, slots, market, §19), :mod:`.resolve`
(§16) with :mod:`.combat`, :mod:`.monsters`, :mod:`.approval`; :mod:`.view` (§18),
:mod:`.describe` (diary sentences), :mod:`.serialize`, :mod:`.bot`, :mod:`.simulate`,
:mod:`.scenario` (the scenario runner).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from games.rules import (ConfigField, Event, Outcome, PhaseSpec, Resolution, RulesError,
                         Submitted, T, Tn)

from . import bot as _bot
from . import config as _config
from . import errors as _errors
from . import orders as _orders
from . import resolve as _resolve
from . import serialize as _serialize
from . import setup as _setup
from . import view as _view
from .describe import describe as _describe
from .state import State

SLUG = "killgame"
NAME = "Kill Game"
MIN_SEATS = 2
MAX_SEATS = 100

__all__ = [
    "SLUG", "NAME", "MIN_SEATS", "MAX_SEATS", "config_schema", "validate_config", "setup",
    "current_phase", "submit", "validate_order", "idle_reason", "default_orders", "bot_orders", "resolve",
    "player_view", "omniscient_view", "outcome", "dump", "load", "describe", "State",
]


def config_schema() -> Sequence[ConfigField]:
    """Every §3 setting with its default."""
    return _config.config_schema()


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The full config with defaults, or :class:`games.rules.InvalidConfig`."""
    return _config.validate_config(config)


def setup(config: Mapping[str, Any], seats: Sequence[int], seed: str) -> State:
    """The opening state (turn 1 Tactical), seats shuffled on stream ``seats`` (§2.4)."""
    return _setup.setup(config, seats, seed)


def current_phase(state: State) -> PhaseSpec | None:
    """The open phase: ``tactical`` or ``action``; awaited = living players' seats. It
    closes at its deadline or once every living player checked in, in both schedule modes
    (in CHECK mode a check-in is final)."""
    if state.over:
        return None
    check = bool(state.config["check_enabled"])
    awaited = frozenset(p.seat for p in state.players if p.alive)
    text = (T("Nothing: you stay where you are and do nothing.")
            if not (state.turn == 1 and state.phase == "tactical") else
            T("You get the default backpack and start in the default start zone."))
    return PhaseSpec(kind=state.phase, awaited=awaited,
                     timing="check" if check else "schedule",
                     close_when_all_checked_in=True, checkin_final=check,
                     turn=state.turn, default_text=text)


def submit(state: State, seat: int, order: Mapping[str, Any]) -> Submitted:
    """Accept one order (slot replacement, withdraw, CHECK, immediate market)."""
    return _orders.submit(state, seat, order)


def validate_order(state: State, seat: int, order: Mapping[str, Any]) -> None:
    """Raise as :func:`submit` would."""
    _orders.check_order(state, seat, order)


def idle_reason(state: State, seat: int) -> RulesError | None:
    """A dead player is told so (§19 ``PLAYER_DEAD``, 403) rather than "nothing to do"."""
    p = state.player_by_seat(seat)
    if p is not None and not p.alive and not state.over:
        return RulesError(_errors.MSG_PLAYER_DEAD, code="PLAYER_DEAD",
                          status=_errors.HTTP_STATUS["PLAYER_DEAD"])
    return None


def default_orders(state: State, seat: int) -> Sequence[Mapping[str, Any]]:
    """An absent player does nothing; the default backpack and start zone are applied by
    :func:`resolve` at turn 1's Tactical close, so nothing needs submitting."""
    return []


def bot_orders(state: State, seat: int, seed: str) -> Sequence[Mapping[str, Any]]:
    """The bot's orders for ``seat``, decided from its player view only."""
    return _bot.bot_orders(_view.player_view(state, seat), seed)


def resolve(state: State, seed: str) -> Resolution:
    """Close the open phase (§16)."""
    return _resolve.resolve(state, seed)


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    return _view.player_view(state, seat)


def omniscient_view(state: State) -> dict[str, Any]:
    return _view.omniscient_view(state)


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    winners = frozenset(p.seat for p in state.players if p.pid in state.winners)
    # scores: how long each player lasted (the turn of death; survivors one past the end),
    # so a free-for-all ranks everyone, not only the winners
    scores = {p.seat: (state.turn + 1 if p.alive else p.died_turn) for p in state.players}
    return Outcome(winners=winners, scores=scores,
                   summary=Tn("Match over in turn %(turn)s: %(count)s winner.",
                              "Match over in turn %(turn)s: %(count)s winners.", len(winners),
                              turn=state.turn, count=len(winners)))


def dump(state: State) -> dict[str, Any]:
    return _serialize.dump(state)


def load(raw: Mapping[str, Any]) -> State:
    return _serialize.load(raw)


def describe(event: Event, viewer: int | None, lang: str = "en",
             names: Mapping[int, str] | None = None,
             zones: Mapping[str, str] | None = None) -> str:
    return _describe(event, viewer, lang, names=names, zones=zones)
