"""Test helpers: build positions with the scenario format, submit and resolve."""

from __future__ import annotations

from typing import Any

from killgame import engine
from killgame.engine.scenario import build_state
from killgame.engine.state import State

NODD = {"double_damage_threshold": 0, "k_rations_enabled": False, "monster_count": 0}


def position(players: list[dict[str, Any]], **kw: Any) -> State:
    sc = {"seed": kw.pop("seed", "t"), "players": players}
    sc["config"] = kw.pop("config", dict(NODD))
    sc.update(kw)
    sc.setdefault("turn", 3)
    sc.setdefault("phase", "action")
    return build_state(sc)[0]


def seat(state: State, pid: str) -> int:
    p = state.player_by_pid(pid)
    assert p is not None
    return p.seat


def play(state: State, pid: str, *orders: dict[str, Any]) -> State:
    for o in orders:
        state = engine.submit(state, seat(state, pid), o).state
    return state


def code_of(state: State, pid: str, order: Any) -> str:
    try:
        engine.validate_order(state, seat(state, pid), order)
    except engine.errors.KillGameOrderError as exc:  # type: ignore[attr-defined]
        return exc.code
    return "OK"


def player(state: State, pid: str) -> Any:
    p = state.player_by_pid(pid)
    assert p is not None
    return p
