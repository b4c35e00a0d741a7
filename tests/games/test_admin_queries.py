"""The director's pages run a fixed number of queries: the match page (seats, phases, the
whole diary) whatever the number of players and diary lines, the match list whatever the
number of matches; the seats and phases are shown with their director links."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors
from games.services.orders import order_submit
from games.services.phases import phase_close
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def _queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx), response.content.decode()


def _played(players: int, rounds: int):
    match = make_match(players=players, config={"rounds": 5})
    for _ in range(rounds):  # diary lines, private ones among them (each guess)
        phase = selectors.current_phase(match)
        for seat in match.seats.all():
            order_submit(match=match, seat=seat, phase_id=phase.pk, payload={"guess": 5})
        phase_close(phase_id=phase.pk, now=phase.deadline_at)
    match.refresh_from_db()
    return match


def test_the_director_match_page_queries_do_not_grow(client, director):
    client.force_login(director)
    small, big = _played(2, 1), _played(6, 3)
    url = lambda m: reverse("admin:games_match_change", args=[m.pk])  # noqa: E731
    client.get(url(small))  # first request of the session: its one-off queries
    few, _ = _queries(client, url(small))
    many, page = _queries(client, url(big))
    assert many == few
    for seat in big.seats.select_related("user"):
        assert seat.user.username in page
        assert reverse("admin:games_match_seat", args=[big.pk, seat.pk, "replace"]) in page
        assert reverse("admin:games_match_seat", args=[big.pk, seat.pk, "remove"]) in page
    for phase in big.phases.all():
        assert reverse("admin:games_phase_change", args=[phase.pk]) in page
    # every diary line, each private one with the seats that saw it
    private = big.diary.filter(is_public=False).first()
    assert private is not None
    assert f"<td>{private.audience.strip(',')}</td>" in page


def test_the_admin_match_list_queries_do_not_grow(client, director):
    client.force_login(director)
    url = reverse("admin:games_match_changelist")
    make_match(players=2)
    client.get(url)
    few, _ = _queries(client, url)
    matches = [make_match(players=3) for _ in range(6)]
    many, page = _queries(client, url)
    assert many == few
    for match in matches:
        phase = selectors.current_phase(match)
        assert f"#{phase.number} {phase.kind} until" in page
        assert f"3/{match.max_players}" in page
