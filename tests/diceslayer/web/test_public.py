"""Dice Slayer's public pages: a visitor reads the home, the daily and all-time boards and the
rules of each variant (a shared daily link hits no login wall) and is offered a login to
play; equal scores share a rank; a versus result says why it was decided."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from diceslayer import engine, services
from diceslayer.engine.state import Variant
from diceslayer.models import DailyAttempt
from tests.diceslayer.web.conftest import page_text
from tests.games.views.conftest import make_user

pytestmark = pytest.mark.django_db

CURRENT_TIME = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(CURRENT_TIME, tick=False):
        yield


def _attempt(user, day, score):
    m = services.solo_start(user=user)
    DailyAttempt.objects.create(user=user, day=day, match=m, score=score, rounds=10,
                                finished_at=CURRENT_TIME)


def test_a_visitor_reads_home_boards_and_rules_and_is_offered_a_login():
    visitor = Client()
    home = visitor.get(reverse("diceslayer:home"))
    assert home.status_code == 200
    html = home.content.decode()
    assert 'id="ds-login"' in html and "/accounts/login/?next=" in html
    assert 'id="ds-new-solo"' not in html and 'id="ds-daily-play"' not in html
    for name in ("daily", "leaderboard"):
        resp = visitor.get(reverse(f"diceslayer:{name}"))
        assert resp.status_code == 200
        assert reverse("diceslayer:rules", args=["solo"]) in resp.content.decode()
    assert visitor.get(reverse("diceslayer:daily-day", args=["2026-11-29"])).status_code == 200
    for variant in Variant:
        resp = visitor.get(reverse("diceslayer:rules", args=[variant.value]))
        assert resp.status_code == 200 and "Rules:" in page_text(resp)
    assert "whatever the scores" in page_text(
        visitor.get(reverse("diceslayer:rules", args=["versus2"])))
    assert 'id="ds-versus1-warning"' in visitor.get(
        reverse("diceslayer:rules", args=["versus1"])).content.decode()
    assert visitor.get(reverse("diceslayer:rules", args=["nope"])).status_code == 404
    # playing still needs a login
    resp = visitor.post(reverse("diceslayer:daily-play"))
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]
    assert not DailyAttempt.objects.exists()


def test_equal_scores_share_a_rank(db):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    _attempt(alice, "2026-11-30", 90)
    _attempt(bob, "2026-11-30", 90)
    _attempt(carol, "2026-11-30", 40)
    day = page_text(Client().get(reverse("diceslayer:daily")))
    assert "1 alice 90 10 1 bob 90 10 3 carol 40 10" in day
    alltime = page_text(Client().get(reverse("diceslayer:leaderboard")))
    assert "1 alice 90 1 90 1 bob 90 1 90 3 carol 40 1 40" in alltime


def test_a_versus_overflow_result_says_why_the_points_did_not_count():
    state = engine.setup({"variant": "versus2"}, [0, 1], "why")
    from dataclasses import replace
    over = replace(state, over=True, winner=0, end_reason="overflow")
    summary = engine.outcome(over).summary
    assert summary.startswith("Player 1 won: Player 2 ended a turn with 10 or more dice")
    assert "whatever the scores" in summary
