"""The 25 standard characters (§11): one small declarative module each.

Importing this package registers every skill with :mod:`sanguosha.engine.skills`.
"""

from __future__ import annotations

import importlib

from sanguosha.engine.data import CHARACTERS

for _cid in CHARACTERS:
    try:
        importlib.import_module(f"sanguosha.engine.characters.{_cid}")
    except ModuleNotFoundError as exc:  # a character without a module has no skill code yet
        if exc.name != f"sanguosha.engine.characters.{_cid}":
            raise
