"""Shared fixtures: the test-only guess game registered, time constants (STYLE.md §7)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from games import registry
from tests.games import guessgame

CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def guess_game():
    """The test game is registered for every test (and removed after)."""
    registry.register(guessgame)
    yield guessgame
    registry.unregister(guessgame.SLUG)


@pytest.fixture
def director(db):
    from tests.factories import make_user

    return make_user("director", staff=True)
