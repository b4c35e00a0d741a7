"""Lü Bu: Peerless **C** — 2 Dodges against his Kill, 2 Kills per go in his Duels (flow, effects)."""

from __future__ import annotations

COMPULSORY = ("wushuang",)
