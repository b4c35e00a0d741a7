"""Seeded randomness (§0.1): one ``random.Random`` per (seed, turn, phase, stream) and the
primitive draws ``pick``, ``sample``, ``chance`` and ``weighted``."""

from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")

STREAMS = ("seats", "spawn", "monster_move", "expel", "market", "shout", "smoke",
           "monster_target", "reward")


def stream(seed: str, turn: int, phase: str, name: str) -> random.Random:
    """The generator of one stream; ``phase`` is ``T``, ``A`` or ``setup``."""
    assert name in STREAMS, name
    return random.Random(f"{seed}|{turn}|{phase}|{name}")


class Streams:
    """Lazily created streams of one phase close; each stream keeps its draw position."""

    def __init__(self, seed: str, turn: int, phase: str) -> None:
        self.seed, self.turn, self.phase = seed, turn, phase
        self._rngs: dict[str, random.Random] = {}

    def __getitem__(self, name: str) -> random.Random:
        rng = self._rngs.get(name)
        if rng is None:
            rng = self._rngs[name] = stream(self.seed, self.turn, self.phase, name)
        return rng


def pick(rng: random.Random, items: Sequence[T]) -> T:
    return items[rng.randrange(len(items))]


def sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    copy = list(items)
    out = []
    for _ in range(k):
        out.append(copy.pop(rng.randrange(len(copy))))
    return out


def chance(rng: random.Random, pct: int) -> bool:
    return rng.randrange(100) < pct


def weighted(rng: random.Random, weights: Sequence[int]) -> int:
    """Index of the drawn row."""
    r = rng.randrange(sum(weights))
    acc = 0
    for i, w in enumerate(weights):
        acc += w
        if acc > r:
            return i
    raise AssertionError("unreachable")
