"""Where rolled dice come from: the match seed (play) or a script (scenario runner).

Every roll of the rules is one *batch* (a roll-in, an attack, a start roll). Batch ``i``
of a match with seed ``s`` is drawn from ``random.Random(f"diceslayer|{s}|{i}")`` — never
from module-level ``random`` — so replaying setup plus the recorded moves reproduces every
die (rules §5 "per-match seeded generator").
"""

from __future__ import annotations

import random
from typing import Protocol, Sequence

from diceslayer.engine.errors import OutOfRolls


class Dice(Protocol):
    """Something that rolls ``n`` six-sided dice for batch number ``index``."""

    def roll(self, n: int, index: int) -> tuple[int, ...]: ...


class SeededDice:
    """Dice from the match seed: batch ``index`` is a fresh, seeded generator."""

    def __init__(self, seed: str) -> None:
        self.seed = str(seed)

    def roll(self, n: int, index: int) -> tuple[int, ...]:
        rng = random.Random(f"diceslayer|{self.seed}|{index}")
        return tuple(rng.randint(1, 6) for _ in range(n))


class ScriptedDice:
    """Dice read in order from a list (a scenario's ``rolls``); raises when it runs dry."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.used = 0

    def roll(self, n: int, index: int) -> tuple[int, ...]:
        if self.used + n > len(self.faces):
            raise OutOfRolls(
                f"the scenario needs {self.used + n} rolled dice but \"rolls\" supplies only "
                f"{len(self.faces)}")
        out = tuple(self.faces[self.used:self.used + n])
        self.used += n
        return out
