"""The Kill Game match page, its poll fragment and the spectator page run a fixed number of
queries whatever the number of players (10 and 100)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.killgame.web.conftest import client_for, close_phase, kg_match, make_user

pytestmark = pytest.mark.django_db

#: 16 for the page itself, plus the press panel (its settings and one page of messages)
MATCH_PAGE_MAX_QUERIES = 15 + 2
#: the match page itself: its press panel's settings come with the match row (one query
#: less than the poll and the spectator page, which load the match by themselves)
MATCH_DETAIL_MAX_QUERIES = 15 + 1
#: a load whose fragments are read back: the session's user, the match row, the seats, the
#: open phase, the nav's "your move" count (the away periods are kept under the version)
WARM_MATCH_PAGE_QUERIES = 5


@pytest.mark.parametrize("players", [10, 100])
def test_match_pages_queries_do_not_grow_with_players(players, django_assert_max_num_queries):
    match, users = kg_match(players, prefix=f"q{players}_", config={"max_players": 100})
    watcher = client_for(make_user(f"watch{players}"))
    for stage in ("turn 1 tactical", "turn 1 action"):
        for client in (client_for(users[0]), watcher):
            with django_assert_max_num_queries(MATCH_DETAIL_MAX_QUERIES):
                assert client.get(reverse("games:match-detail", args=[match.pk])).status_code == 200
            with django_assert_max_num_queries(MATCH_PAGE_MAX_QUERIES):
                assert client.get(reverse("games:match-poll", args=[match.pk]),
                                  {"v": 0}).status_code == 200
        with django_assert_max_num_queries(MATCH_PAGE_MAX_QUERIES):
            assert client_for(None).get(reverse("killgame:watch", args=[match.pk])).status_code == 200
        if stage == "turn 1 tactical":
            close_phase(match)


def _queries(client, url, **kw) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, **kw).status_code == 200
    return len(ctx)


def _cold_and_warm(client, url, monkeypatch, tag: str) -> tuple[int, int]:
    """(queries of the first load with no fragment cached, queries of the next load)."""
    from games.lib import htmlcache
    from players import away

    monkeypatch.setattr(htmlcache, "code_version", lambda: tag)  # every key is new
    away._away_kept.clear()  # and the away periods read anew, as after a version bump
    return _queries(client, url), _queries(client, url)


def test_match_page_queries_stay_flat_in_players_turns_and_messages(
        django_assert_max_num_queries, monkeypatch):
    """The same number of queries for 4 and 40 players, at turn 1 and turn 3, and with 1
    or 30 press messages: seats once, phases once, the latest diary turn — both when the
    fragments are rendered (cold) and when they are read back from the cache (warm)."""
    from press.services import message_post

    counts = {}
    for n in (4, 40):
        match, users = kg_match(n, prefix=f"flat{n}_", config={"max_players": 100})
        reader = client_for(users[0])
        url = reverse("games:match-detail", args=[match.pk])
        reader.get(url)  # the session into the cache
        counts[n, "turn 1"] = _cold_and_warm(reader, url, monkeypatch, f"{n}t1")
        if n == 40:
            for _ in range(4):  # turn 1 and turn 2 close: turn 3 opens
                close_phase(match)
            counts[n, "turn 3"] = _cold_and_warm(reader, url, monkeypatch, f"{n}t3")
            message_post(match=match, user=users[1], to="all", text="hello")
            reader.get(url)  # the press panel's first read fills its cache
            with_one = _queries(reader, url)
            for i in range(29):
                message_post(match=match, user=users[2 + i % 20], to="all", text=f"hello {i}")
            reader.get(url)
            with_thirty = _queries(reader, url)
            assert with_one == with_thirty, (with_one, with_thirty)
            with django_assert_max_num_queries(MATCH_DETAIL_MAX_QUERIES):
                reader.get(url)
    assert len(set(counts.values())) == 1, counts
    assert counts[4, "turn 1"][1] == WARM_MATCH_PAGE_QUERIES, counts


def test_the_match_page_reads_the_press_settings_with_the_match_row(monkeypatch):
    """Rendered anew (every fragment key new), the match page's press panel reads its
    settings from the match row (``press.freshness.page_settings``): its one query is the
    messages, none on the settings table; and the settings it shows are the row's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.lib import htmlcache
    from press.models import MatchPress, PressRules

    match, users = kg_match(4, prefix="prow_", config={"max_players": 100})
    MatchPress.objects.filter(match=match).update(rules=PressRules.PUBLIC)
    reader = client_for(users[0])
    url = reverse("games:match-detail", args=[match.pk])
    reader.get(url)
    monkeypatch.setattr(htmlcache, "code_version", lambda: "press-row")
    with CaptureQueriesContext(connection) as ctx:
        page = reader.get(url).content.decode()
    assert not [q["sql"] for q in ctx.captured_queries
                if 'FROM "press_matchpress"' in q["sql"].split("WHERE")[0]
                and "games_match" not in q["sql"]]
    assert 'id="press"' in page
    assert str(PressRules(PressRules.PUBLIC).label) in page
