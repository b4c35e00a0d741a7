"""Register development-only games named in ``PBW_DEV_GAMES`` (comma-separated module
paths, e.g. ``tests.games.guessgame``) when imported.

The bench starts its Celery workers with ``--include bench.devgames`` so the workers
know the test game the bench plays; production never sets the variable.
"""

from __future__ import annotations

import os
from importlib import import_module

from games import registry


def register_from_env() -> list[str]:
    slugs = []
    for path in filter(None, (p.strip() for p in os.environ.get("PBW_DEV_GAMES", "").split(","))):
        slugs.append(registry.register(import_module(path)).slug)
    return slugs


REGISTERED = register_from_env()
