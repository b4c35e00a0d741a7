"""Shared fixtures: the test-only guess game registered, time constants (docs/style.md §7)."""

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


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: the throttles (logins, resets, signups, API
    tokens) count there, so a test never inherits another's attempts."""
    from django.core.cache import cache

    from config.cache import reset_outage_state
    from games.lib import presence

    reset_outage_state()  # a Redis outage another test simulated is over
    cache.clear()
    presence.forget_written()  # its record of what it wrote went with the cache
    yield
    reset_outage_state()


@pytest.fixture(autouse=True)
def site_url_kept():
    """``manage.py run`` points SITE_URL at the address it serves (a test that runs its
    helpers in-process must not leave another test's emails linking elsewhere)."""
    from django.conf import settings

    before = settings.SITE_URL
    yield
    settings.SITE_URL = before


@pytest.fixture
def director(db):
    from tests.factories import make_user

    return make_user("director", staff=True)


def pytest_unconfigure(config):
    """Drop this run's test database if Django's teardown could not (a connection left
    open by a live-server or thread test blocks a plain DROP), so CI machines do not
    collect stale ``test_pbw_<pid>`` databases."""
    import os

    from django.conf import settings

    name = os.environ.get("PBW_TEST_DB")
    db = settings.DATABASES["default"] if settings.configured else {}
    if not name or not db.get("ENGINE", "").endswith("postgresql"):
        return
    try:
        import psycopg

        with psycopg.connect(host=db["HOST"] or None, port=db["PORT"] or None,
                             user=db["USER"] or None, password=db["PASSWORD"] or None,
                             dbname="postgres", autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except Exception:  # noqa: BLE001 - cleanup only; never fail the run for it
        pass
