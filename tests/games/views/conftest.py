"""Shared fixtures of the web-side tests (pages, fragments, API, accounts, browser):
the guess game registered, four personas (anonymous, stranger, player, staff) and
matches in each status, built through the backend services as a person would.

Other test folders reuse them with ``from tests.games.views.conftest import *``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import registry
from games.models import Match, Phase
from tests.games import guessgame

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(autouse=True)
def guess_registered():
    """The test-only guess game, registered for the test and removed afterwards."""
    registry.register(guessgame)
    yield guessgame
    registry.unregister(guessgame.SLUG)


def make_user(username: str, **extra):
    return get_user_model().objects.create_user(username=username, password=PASSWORD,
                                                email=f"{username}@example.com", **extra)


@pytest.fixture
def player(db):
    return make_user("alice")


@pytest.fixture
def player2(db):
    return make_user("bob")


@pytest.fixture
def stranger(db):
    return make_user("mallory")


@pytest.fixture
def staff(db):
    return make_user("director", is_staff=True, is_superuser=True)


def client_for(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def anon_client():
    return Client()


@pytest.fixture
def player_client(player):
    return client_for(player)


@pytest.fixture
def player2_client(player2):
    return client_for(player2)


@pytest.fixture
def stranger_client(stranger):
    return client_for(stranger)


@pytest.fixture
def staff_client(staff):
    return client_for(staff)


def new_match(*, creator, players, start=False, private=False, name="Test match",
              config=None, min_players=2):
    """A guess match created by ``creator`` with ``players`` seated (and started)."""
    from games.services.matches import match_create, match_join, match_start

    match = match_create(game="guess", name=name, created_by=creator,
                         config=config or {"rounds": 2, "timing": "check"},
                         min_players=min_players, max_players=max(10, len(players)), is_private=private,
                         schedule={"mode": "duration", "hours": 24})
    for user in players:
        match_join(match=match, user=user, invite_code=match.invite_code if private else None)
    if start:
        match_start(match=match)
    match.refresh_from_db()
    return match


@pytest.fixture
def forming_match(player, player2):
    return new_match(creator=player, players=[player, player2])


@pytest.fixture
def running_match(player, player2):
    return new_match(creator=player, players=[player, player2], start=True)


@pytest.fixture
def private_match(player, player2):
    return new_match(creator=player, players=[player, player2], start=True, private=True,
                     name="Secret match")


def open_phase(match: Match) -> Phase:
    return Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()


def seat_of(match: Match, user):
    return match.seats.get(user=user)
