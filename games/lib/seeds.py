"""Deterministic seeds: a phase's seed is derived from the match seed and the phase number
(docs/style.md §6), so a match replays exactly from its seed and its recorded orders.
"""

from __future__ import annotations

import hashlib


def phase_seed(match_seed: str, number: int) -> str:
    """The seed of phase ``number`` of a match seeded with ``match_seed``.

    >>> phase_seed("abc", 1) == phase_seed("abc", 1) != phase_seed("abc", 2)
    True
    """
    digest = hashlib.blake2b(f"{match_seed}|{number}".encode(), digest_size=16)
    return digest.hexdigest()
