"""Helpers for Sanguosha engine tests: build positions, drive asks."""

from __future__ import annotations

from typing import Any

from sanguosha import engine
from sanguosha.engine.scenario import build


def seat(identity: str, hp: int = 4, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"identity": identity, "hp": hp}
    d.update(kw)
    return d


def position(seats: list[dict[str, Any]], **kw: Any) -> engine.State:
    sc = {"seats": seats, "draw_pile": kw.pop("draw_pile", [40, 41, 42, 43, 44, 45])}
    sc.update(kw)
    return build(sc)


def answer(state: engine.State, seat: int, order: dict[str, Any], seed: str = "t") -> engine.State:
    """Submit and, once nobody else is awaited, resolve (the framework's behaviour)."""
    state = engine.submit(state, seat, order).state
    if not engine.awaiting(state):
        state = engine.resolve(state, seed).state
    return state


def ask(state: engine.State) -> dict[str, Any] | None:
    return state.raw["ask"]
