"""Press fixtures: guess matches for the channel rules, Kill Game team matches for the
team channel (membership from the engine), personas and clients from the web tests."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.models import Seat
from tests.games.views.conftest import (client_for, guess_registered,  # noqa: F401
                                        make_user, new_match, staff)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate-limit counters and unread counts live in the cache: each test starts empty."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def trio(db):
    """A running guess match with three players (seats by join order)."""
    users = [make_user(n) for n in ("ann", "ben", "cat")]
    match = new_match(creator=users[0], players=users, start=True, name="Trio")
    return match, users


def seat_no(match, user) -> int:
    return Seat.objects.get(match=match, user=user).number


def api_url(match) -> str:
    return reverse("press:api-messages", args=[match.pk])


def api_post(client, match, body):
    return client.post(api_url(match), data=json.dumps(body), content_type="application/json")


def api_get(client, match, since=0):
    return client.get(api_url(match), {"since": since})


def kg_team_match(n: int = 4, *, mode: str = "teams", prefix: str = "t"):
    """A started Kill Game match in ``teams`` (2 teams) or ``districts`` mode."""
    from games.services.matches import match_create, match_join, match_start
    from killgame.services import builtin_tables_load

    builtin_tables_load()
    users = [make_user(f"{prefix}{i}") for i in range(n)]
    config = {"min_players": 4, "max_players": 100, "monster_count": 1, "budget": 1000,
              "map": "inferno", "mode": mode}
    if mode == "teams":
        config["team_count"] = 2
    match = match_create(game="killgame", name=f"Teams {prefix}", created_by=users[0],
                         config=config, min_players=4, max_players=100)
    for u in users:
        match_join(match=match, user=u)
    match_start(match=match)
    match.refresh_from_db()
    return match, users
