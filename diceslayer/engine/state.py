"""The Dice Slayer state tree: frozen, JSON-able dataclasses (docs/style.md §3).

A state is always "waiting for a choice": the mover's roll-in for this turn is done
(docs/diceslayer-rules.md §1 round step 1, §4.2) and an order may be pending until the
framework calls ``resolve``. Multisets of dice (plates/fields, grace zones) are kept as
sorted tuples so equal positions compare equal; the stock is ordered, oldest first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Union

from games.rules import T

SeatId = int
Face = int

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
STOCK_SIZE = 3


class Variant(str, enum.Enum):
    """The four separate games of docs/diceslayer-rules.md."""

    SOLO = "solo"
    SOLO_WILD = "solo_wild"
    VERSUS1 = "versus1"
    VERSUS2 = "versus2"

    @property
    def is_solo(self) -> bool:
        return self in (Variant.SOLO, Variant.SOLO_WILD)

    @property
    def seats(self) -> int:
        return 1 if self.is_solo else 2

    @property
    def label(self) -> str:
        return VARIANT_LABELS[self]


VARIANT_LABELS = {
    Variant.SOLO: T("Solo"),
    Variant.SOLO_WILD: T("Solo with wild dice"),
    Variant.VERSUS1: T("Versus, prototype 1 — most games end 0–0 (grace zones)"),
    Variant.VERSUS2: T("Versus, prototype 2 (attacks and the bomb)"),
}

# Solo ends when the plate holds this many or more at the end of a round (§1.5, §2.4).
SOLO_OVER_AT = {Variant.SOLO: 8, Variant.SOLO_WILD: 7}
# Versus: a field of this many or more at the end of your own turn loses (§3.5, §4.4).
VERSUS_LOSS_AT = 10
VERSUS1_TARGET = 100
CLEAR_BONUS = 20


class Source(str, enum.Enum):
    """Whose field a pick comes from (versus only; solo always picks its own plate)."""

    OWN = "own"
    OPPONENT = "opponent"


@dataclass(frozen=True, slots=True)
class Pick:
    """Take one die of ``face`` into the stock; versus1 may name grace dice to cancel."""

    face: Face
    source: Source = Source.OWN
    cancel: tuple[Face, ...] | None = None


@dataclass(frozen=True, slots=True)
class Wild:
    """Spend a wild die, entering the stock as ``face`` (solo_wild, §2.2)."""

    face: Face


@dataclass(frozen=True, slots=True)
class Bomb:
    """Use the shared bomb on ``face`` of your own field (versus2, §4.7)."""

    face: Face


Order = Union[Pick, Wild, Bomb]


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's dice: plate (solo) or field (versus), stock, score, wild dice, grace."""

    plate: tuple[Face, ...] = ()
    stock: tuple[Face, ...] = ()
    score: int = 0
    wild: int = 0
    grace: tuple[Face, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """A whole match.

    - ``to_move``: the seat whose choice is awaited (after game over: the last mover).
    - ``turn``: 1-based number of the round (solo) or turn (versus) being played.
    - ``bomb``: ``None`` while neutral, else the seat that owns it (versus2 only).
    - ``target``: winning score (versus1: 100; versus2: ``None`` unless an admin set one).
    - ``rolls_done``: how many roll batches the seeded dice have produced; each batch ``i``
      comes from ``random.Random(f"diceslayer|{seed}|{i}")``, so a match replays exactly.
    - ``pending``: the accepted order not yet resolved.
    """

    variant: Variant
    players: tuple[Player, ...]
    to_move: SeatId = 0
    turn: int = 1
    bomb: SeatId | None = None
    target: int | None = None
    over: bool = False
    winner: SeatId | None = None
    end_reason: str = ""
    pending: Order | None = None
    rolls_done: int = 0
    moves: int = field(default=0)

    @property
    def mover(self) -> Player:
        return self.players[self.to_move]

    def opponent_of(self, seat: SeatId) -> SeatId:
        return 1 - seat

    def with_player(self, seat: SeatId, player: Player) -> State:
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))
