"""Zhao Yun: Dragon Heart — a hand Kill as a Dodge and a hand Dodge as a Kill."""

from __future__ import annotations

from sanguosha.engine.skills import Conversion, conversion

LONGDAN_JINK = conversion(Conversion("longdan", "jink", ("hand",), lambda c: True,
                                     from_names=("slash",)))
LONGDAN_SLASH = conversion(Conversion("longdan", "slash", ("hand",), lambda c: True,
                                      from_names=("jink",)))
