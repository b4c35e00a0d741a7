"""Framework signals, so apps beside ``games`` (ratings, absence tracking) follow the phase
close without ``games`` importing them. Both are sent inside the close's transaction:
a receiver's writes commit or roll back with the close itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal


@dataclass(frozen=True)
class ClosedPhase:
    """One close: ``opened`` is the next phase or None; ``absent`` are the awaited seat
    numbers that neither acted nor checked in (their defaults or the bot played);
    ``seats``: every seat of the match as the close read them (under its lock), or None."""

    match: Any
    phase: Any
    absent: list[int]
    opened: Any = None
    seats: list[Any] | None = None


# phases_closed(closes): every close of one transaction at once (the sweep closes phases in
# batches), so a receiver reads and writes for all of them in a few queries, not per close.
phases_closed = Signal()

# match_finished(match): the match has just become FINISHED (``match.outcome`` is set).
match_finished = Signal()
