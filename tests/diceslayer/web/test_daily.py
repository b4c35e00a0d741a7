"""The daily challenge: one seed per calendar day for everyone (same roll-ins for the same
choices), one counted attempt per player per day (a database constraint), the day's and
the all-time leaderboards, and the shareable result with its copy button.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.urls import reverse

from diceslayer import engine, services
from diceslayer.models import DailyAttempt
from games.models import Match
from tests.diceslayer.web.conftest import page_text, play_to_end, state_of
from tests.games.views.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

CURRENT_TIME = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)
NEXT_DAY = datetime(2026, 12, 1, 0, 5, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(CURRENT_TIME, tick=False):
        yield


def test_starting_the_daily_twice_counts_one_attempt(alice, alice_client):
    first = alice_client.post(reverse("diceslayer:daily-play"))
    attempt = DailyAttempt.objects.get(user=alice)
    assert first.status_code == 302
    assert first["Location"] == reverse("diceslayer:play", args=[attempt.match_id])
    assert attempt.day.isoformat() == "2026-11-30"
    assert attempt.match.seed == services.daily_match_seed(attempt.day)
    assert engine.daily_seed("2026-11-30") not in attempt.match.seed  # not public
    again = alice_client.post(reverse("diceslayer:daily-play"))
    assert again["Location"] == first["Location"]
    assert DailyAttempt.objects.filter(user=alice).count() == 1
    assert Match.objects.filter(game="diceslayer", created_by=alice).count() == 1
    assert "You already played today's challenge" in page_text(alice_client.get(again["Location"]))


def test_the_database_refuses_a_second_attempt_the_same_day(alice):
    attempt, created = services.daily_start(user=alice)
    assert created
    other = services.solo_start(user=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyAttempt.objects.create(user=alice, day=attempt.day, match=other)


def test_a_new_day_is_a_new_attempt_with_a_new_seed(alice):
    today, _ = services.daily_start(user=alice)
    with time_machine.travel(NEXT_DAY, tick=False):
        tomorrow, created = services.daily_start(user=alice)
    assert created and tomorrow.day.isoformat() == "2026-12-01"
    assert tomorrow.match.seed != today.match.seed


def test_the_seed_never_reaches_a_page(alice, alice_client):
    attempt, _ = services.daily_start(user=alice)
    for name in ("play", "board", "replay"):
        resp = alice_client.get(reverse(f"diceslayer:{name}", args=[attempt.match_id]))
        assert attempt.match.seed not in resp.content.decode()
    api = alice_client.get(f"/api/matches/{attempt.match_id}/")
    assert attempt.match.seed not in api.content.decode()


def test_everyone_gets_the_same_dice_for_the_same_picks(alice, bob):
    a, _ = services.daily_start(user=alice)
    b, _ = services.daily_start(user=bob)
    assert a.match.seed == b.match.seed
    assert state_of(a.match) == state_of(b.match)
    for _ in range(6):
        sa = state_of(a.match)
        order = engine.default_orders(sa, 0)[0]
        services.move_play(match=a.match, seat=a.match.seats.get(), payload=order)
        services.move_play(match=b.match, seat=b.match.seats.get(), payload=order)
        assert state_of(a.match) == state_of(b.match)


def test_finishing_counts_the_score_on_both_leaderboards_and_shares_it(alice, bob, alice_client):
    attempt, _ = services.daily_start(user=alice)
    play_to_end(attempt.match, {0: alice})
    attempt.refresh_from_db()
    score = state_of(attempt.match).players[0].score
    assert attempt.score == score and attempt.rounds and attempt.finished_at
    bobs, _ = services.daily_start(user=bob)  # started, not finished: not ranked

    page = alice_client.get(reverse("diceslayer:play", args=[attempt.match_id]))
    text = page_text(page)
    share = (f"Dice Slayer daily 2026-11-30: {score} points in {attempt.rounds} rounds. "
             f"Same dice for everyone — beat me: http://testserver/diceslayer/daily/")
    assert share in text
    assert 'data-copy="#ds-share"' in page.content.decode() and "Copy result" in text

    day = page_text(alice_client.get(reverse("diceslayer:daily")))
    assert f"1 alice {score}" in day
    assert "bob" not in day.split("Player Score Rounds")[1]
    assert "2 players started" in day
    alltime = page_text(alice_client.get(reverse("diceslayer:leaderboard")))
    assert f"1 alice {score} 1 {score}" in alltime


def test_all_time_ranks_each_players_best_day(alice, bob, alice_client):
    carol = make_user("carol")
    from diceslayer.models import DailyAttempt as A

    def row(user, day, score):
        m = services.solo_start(user=user)
        A.objects.create(user=user, day=day, match=m, score=score, rounds=10,
                         finished_at=CURRENT_TIME)

    row(alice, "2026-11-28", 40)
    row(alice, "2026-11-29", 90)
    row(bob, "2026-11-29", 120)
    row(carol, "2026-11-27", 10)
    text = page_text(alice_client.get(reverse("diceslayer:leaderboard")))
    assert "1 bob 120 1 120 2 alice 90 2 130 3 carol 10 1 10" in text
    past = page_text(alice_client.get(reverse("diceslayer:daily-day", args=["2026-11-29"])))
    assert "1 bob 120 10 2 alice 90 10" in past
    assert alice_client.get(reverse("diceslayer:daily-day", args=["not-a-day"])).status_code == 404
    assert client_for(carol).get(reverse("diceslayer:daily")).status_code == 200


def test_home_page_offers_the_daily_then_the_players_result(alice, alice_client):
    text = page_text(alice_client.get(reverse("diceslayer:home")))
    assert "Play today's challenge" in text
    attempt, _ = services.daily_start(user=alice)
    text = page_text(alice_client.get(reverse("diceslayer:home")))
    assert "Continue today's game" in text and "Play today's challenge" not in text
    play_to_end(attempt.match, {0: alice})
    attempt.refresh_from_db()
    assert f"Your score today: {attempt.score}" in page_text(alice_client.get(reverse("diceslayer:home")))


def test_the_admin_lists_daily_attempts(alice):
    from tests.games.views.conftest import make_user as mk

    staff = mk("boss", is_staff=True, is_superuser=True)
    services.daily_start(user=alice)
    resp = client_for(staff).get("/admin/diceslayer/dailyattempt/")
    assert resp.status_code == 200 and "alice" in resp.content.decode()
