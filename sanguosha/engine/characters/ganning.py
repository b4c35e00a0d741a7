"""Gan Ning: Surprise Raid — any black card (hand or equipment) as a Dismantle."""

from __future__ import annotations

from sanguosha.engine.skills import Conversion, black, conversion

QIXI = conversion(Conversion("qixi", "dismantlement", ("hand", "equip"), black))
