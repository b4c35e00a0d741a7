"""Fixtures of the Dice Slayer page tests: three players and their logged-in clients,
games started through the services as a person would, and helpers to play and to set
a position (tests may write a crafted engine state to drive a page into a known spot).
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from diceslayer import engine, services
from games.models import Match, Phase
from tests.games.views.conftest import client_for, make_user


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def mallory(db):
    return make_user("mallory")


@pytest.fixture
def alice_client(alice):
    return client_for(alice)


@pytest.fixture
def bob_client(bob):
    return client_for(bob)


@pytest.fixture
def mallory_client(mallory):
    return client_for(mallory)


@pytest.fixture
def solo(alice):
    return services.solo_start(user=alice)


def open_phase(match: Match) -> Phase | None:
    return Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()


def state_of(match: Match) -> Any:
    match.refresh_from_db()
    return engine.load(match.state)


def set_state(match: Match, state: Any) -> None:
    """Put ``match`` in a crafted position (keeps the open phase)."""
    Match.objects.filter(pk=match.pk).update(state=engine.dump(state))
    match.refresh_from_db()


def pick_post(client, match: Match, headers: dict[str, str] | None = None, **fields: Any):
    match.refresh_from_db()
    phase = open_phase(match)
    data = {"phase_id": phase.pk if phase else "", "version": match.version, **fields}
    return client.post(reverse("diceslayer:pick", args=[match.pk]), data, headers=headers or {})


def page_text(resp) -> str:
    html = resp.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<svg[^>]*aria-label="([^"]*)"[^>]*>.*?</svg>', r" [\1] ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def play_to_end(match: Match, seat_user_map: dict[int, Any], *, limit: int = 400) -> Match:
    """Play the rules' default move for whoever is to move until the game is over."""
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING:
            return match
        state = engine.load(match.state)
        seat = match.seats.get(number=state.to_move)
        order = engine.default_orders(state, state.to_move)[0]
        services.move_play(match=match, seat=seat, payload=order)
    raise AssertionError("the game did not end")
