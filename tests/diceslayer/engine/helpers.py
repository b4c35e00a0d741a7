"""Small builders for Dice Slayer engine tests."""

from __future__ import annotations

from typing import Any

from diceslayer.engine.state import Player, State, Variant


def solo(plate: list[int], stock: list[int] | None = None, score: int = 0, wild: int = 0,
         variant: Variant = Variant.SOLO) -> State:
    return State(variant=variant, players=(Player(tuple(sorted(plate)), tuple(stock or ()),
                                                  score, wild),))


def versus(variant: Variant, p0: dict[str, Any], p1: dict[str, Any], **kw: Any) -> State:
    def mk(d: dict[str, Any]) -> Player:
        return Player(tuple(sorted(d.get("plate", ()))), tuple(d.get("stock", ())),
                      d.get("score", 0), 0, tuple(sorted(d.get("grace", ()))))
    if variant is Variant.VERSUS1:
        kw.setdefault("target", 100)
    return State(variant=variant, players=(mk(p0), mk(p1)), **kw)
