"""Guan Yu: Warrior Saint — any red card (hand or equipment) as a Kill."""

from __future__ import annotations

from sanguosha.engine.skills import Conversion, conversion, red

WUSHENG = conversion(Conversion("wusheng", "slash", ("hand", "equip"), red))
