"""Sets, runs and the faces they remove (docs/diceslayer-rules.md §1 round step 3).

Neighbours never wrap: 1 and 6 are not connected.
"""

from __future__ import annotations

from typing import Iterable

from diceslayer.engine.state import STOCK_SIZE


def pattern_of(stock: Iterable[int]) -> str | None:
    """``"set"``, ``"run"`` or ``None`` for a stock of exactly three dice.

    >>> pattern_of((2, 4, 3)), pattern_of((2, 2, 2)), pattern_of((5, 3))
    ('run', 'set', None)
    """
    dice = tuple(stock)
    if len(dice) != STOCK_SIZE:
        return None
    a, b, c = sorted(dice)
    if a == b == c:
        return "set"
    if b == a + 1 and c == b + 1:
        return "run"
    return None


def targets_of(stock: Iterable[int]) -> tuple[int, ...]:
    """The faces a full stock removes: a set of ``f`` removes ``f±1``; a run
    ``a..a+2`` removes ``a-1`` and ``a+3``; always within 1–6.

    >>> targets_of((2, 2, 2)), targets_of((1, 1, 1)), targets_of((5, 3, 4)), targets_of((4, 5, 6))
    ((1, 3), (2,), (2, 6), (3,))
    """
    dice = tuple(stock)
    kind = pattern_of(dice)
    if kind is None:
        return ()
    lo, hi = min(dice), max(dice)
    return tuple(f for f in (lo - 1, hi + 1) if 1 <= f <= 6)


def after_adding(stock: tuple[int, ...], face: int) -> tuple[tuple[int, ...], int | None]:
    """The stock after adding ``face`` (a window of three) and the die that left, if any."""
    new = stock + (face,)
    if len(new) > STOCK_SIZE:
        return new[-STOCK_SIZE:], new[0]
    return new, None
