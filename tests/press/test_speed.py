"""Posting a message in a fixed number of queries, whatever the channel (auth, the rules,
the rate limit, the row, the email marks and the unread counters), through the JSON API on
a 10-player Kill Game match. The 20 ms server-time goal is a measurement, not a test (timed
tests fail on a busy machine): the median CPU and wall times are printed with the load."""

from __future__ import annotations

import json
import os
import statistics
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.press.conftest import api_url, client_for, make_user

pytestmark = pytest.mark.django_db

POSTS = 40
MAX_QUERIES = 13  # measured 10 (public) to 12 (private, first email of a conversation)


def test_posting_a_message_in_a_fixed_number_of_queries(settings):
    from games.models import Seat
    from games.services.matches import match_create, match_join, match_start
    from killgame.services import builtin_tables_load

    settings.PRESS_RATE_LIMIT = (10_000, 60)
    builtin_tables_load()
    users = [make_user(f"s{i}") for i in range(10)]
    match = match_create(game="killgame", name="Speed", created_by=users[0],
                         config={"min_players": 2, "max_players": 100, "monster_count": 1,
                                 "budget": 1000, "map": "inferno"},
                         min_players=2, max_players=100)
    for u in users:
        match_join(match=match, user=u)
    match_start(match=match)
    seats = {u: Seat.objects.get(match=match, user=u).number for u in users}
    c = client_for(users[0])
    timings = {}
    for kind, to in (("public", "all"), ("private", [seats[users[1]]]),
                     ("group", [seats[u] for u in users[1:5]])):
        cpu, wall = [], []
        for i in range(POSTS):
            body = json.dumps({"to": to, "text": f"{kind} message {i}"})
            start, start_cpu = time.perf_counter(), time.thread_time()
            with CaptureQueriesContext(connection) as queries:
                resp = c.post(api_url(match), data=body, content_type="application/json")
            cpu.append((time.thread_time() - start_cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
            assert resp.status_code == 201
            assert len(queries.captured_queries) <= MAX_QUERIES
        timings[kind] = {"cpu_ms": round(statistics.median(cpu), 2),
                         "wall_ms": round(statistics.median(wall), 2)}
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    print(json.dumps({"press_post_median": timings, "load_per_core": round(load, 2)}))
