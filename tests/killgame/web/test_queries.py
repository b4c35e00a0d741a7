"""The Kill Game match page, its poll fragment and the spectator page run a fixed number of
queries whatever the number of players (10 and 100)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.killgame.web.conftest import client_for, close_phase, kg_match, make_user

pytestmark = pytest.mark.django_db

#: 16 for the page itself, plus the press panel (its settings and one page of messages)
MATCH_PAGE_MAX_QUERIES = 16 + 2


@pytest.mark.parametrize("players", [10, 100])
def test_match_pages_queries_do_not_grow_with_players(players, django_assert_max_num_queries):
    match, users = kg_match(players, prefix=f"q{players}_", config={"max_players": 100})
    watcher = client_for(make_user(f"watch{players}"))
    for stage in ("turn 1 tactical", "turn 1 action"):
        for client in (client_for(users[0]), watcher):
            with django_assert_max_num_queries(MATCH_PAGE_MAX_QUERIES):
                assert client.get(reverse("games:match-detail", args=[match.pk])).status_code == 200
            with django_assert_max_num_queries(MATCH_PAGE_MAX_QUERIES):
                assert client.get(reverse("games:match-poll", args=[match.pk]),
                                  {"v": 0}).status_code == 200
        with django_assert_max_num_queries(MATCH_PAGE_MAX_QUERIES):
            assert client_for(None).get(reverse("killgame:watch", args=[match.pk])).status_code == 200
        if stage == "turn 1 tactical":
            close_phase(match)
