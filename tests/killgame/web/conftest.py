"""Fixtures of the Kill Game page tests: matches built through the framework services as
people would (create with the DB map and prices, join, start), phases closed by the real
close service with the clock moved to the deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

from games.models import Match, Phase, Seat
from games.services.matches import match_create, match_join, match_start
from games.services.orders import order_submit
from games.services.phases import phases_close_due
from tests.games.views.conftest import PASSWORD, client_for, make_user  # noqa: F401

SMALL = {"min_players": 2, "max_players": 100, "monster_count": 1, "budget": 1000,
         "map": "inferno"}


def kg_match(n: int = 4, *, config: dict[str, Any] | None = None, prefix: str = "u",
             start: bool = True) -> tuple[Match, list]:
    users = [make_user(f"{prefix}{i}") for i in range(n)]
    match = match_create(game="killgame", name=f"Kill {prefix}{n}", created_by=users[0],
                         config={**SMALL, **(config or {})}, min_players=2, max_players=100)
    for u in users:
        match_join(match=match, user=u)
    if start:
        match_start(match=match)
        match.refresh_from_db()
    return match, users


def seat_of(match: Match, user) -> Seat:
    return Seat.objects.get(match=match, user=user)


def open_phase(match: Match) -> Phase:
    return Phase.objects.get(match=match, closed_at__isnull=True)


def close_phase(match: Match) -> None:
    """Close the open phase with the real sweep at its deadline."""
    phase = open_phase(match)
    # the beat ran a minute before the deadline (so the dead-man switch sees no outage)
    phases_close_due(now=phase.deadline_at - timedelta(minutes=1))
    assert phases_close_due(now=phase.deadline_at) >= 1
    match.refresh_from_db()


def submit(match: Match, user, payload: dict[str, Any]) -> None:
    match.refresh_from_db()
    order_submit(match=match, seat=seat_of(match, user), payload=payload)
    match.refresh_from_db()


def detail_url(match: Match) -> str:
    return reverse("games:match-detail", args=[match.pk])


def order_url(match: Match) -> str:
    return reverse("killgame:order", args=[match.pk])


def post_order(client, match: Match, data: dict[str, Any], *, stale: bool = False):
    match.refresh_from_db()
    phase = open_phase(match)
    body = {"phase_id": phase.pk, "version": match.version - (1 if stale else 0), **data}
    return client.post(order_url(match), body)


def view_of(match: Match, user):
    from games import selectors

    match.refresh_from_db()
    return selectors.player_view_for(match, seat_of(match, user))


@pytest.fixture(autouse=True)
def kg_tables(db):
    """The shipped maps and catalogue, as the data migration loads them (a transactional
    test elsewhere in the session may have flushed the tables)."""
    from killgame.services import builtin_tables_load

    builtin_tables_load()


@pytest.fixture
def four(db):
    return kg_match(4)
