"""Bot accounts (accounts.Profile.is_bot, set by the director): marked next to the name on
the match page, the seats page, the profile and the API; rated apart on the leaderboard;
the admin marks and unmarks them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Profile
from players.models import Rating
from tests.factories import make_user
from tests.games.views.conftest import client_for, new_match

pytestmark = pytest.mark.django_db


def test_bot_accounts_are_marked_and_rated_apart():
    ann, robo = make_user("ann"), make_user("robo", is_bot=True)
    match = new_match(creator=ann, players=[ann, robo], start=True)
    page = client_for(ann).get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert "robo (bot account)" in page and "ann (bot account)" not in page
    seats = client_for(ann).get(reverse("players:match-seats", args=[match.pk])).content.decode()
    assert seats.count("bot account") == 1
    profile = client_for(ann).get(reverse("players:profile", args=["robo"])).content.decode()
    assert 'id="bot-account"' in profile
    players = client_for(ann).get(reverse("games:api-match", args=[match.pk])).json()["players"]
    assert {p["name"]: p["bot_account"] for p in players} == {"ann": False, "robo": True}

    for user, rating in ((ann, 1600), (robo, 1900)):
        Rating.objects.create(user=user, game="guess", mode="", rating=rating, rd=50, games=20)
    board = client_for(ann).get(reverse("players:leaderboard", args=["guess"])).content.decode()
    people, _, bots = board.partition("Bot accounts")
    assert "ann" in people and ">robo<" not in people
    assert ">robo<" in bots and "bot-ratings" in bots


def test_the_director_marks_bot_accounts_in_the_admin(settings):
    settings.OTP_REQUIRED_FOR_STAFF = False
    boss, robo = make_user("boss", staff=True), make_user("robo")
    c = client_for(boss)
    resp = c.post(reverse("admin:accounts_profile_changelist"),
                  {"action": "mark_bot", "_selected_action": [robo.profile.pk]})
    assert resp.status_code == 302
    assert Profile.objects.get(user=robo).is_bot is True


def test_the_lobby_page_hides_or_shows_bot_tables():
    ann, robo, bea = make_user("ann"), make_user("robo", is_bot=True), make_user("bea")
    with_bot = new_match(creator=ann, players=[ann, robo], name="Table with a bot")
    people = new_match(creator=ann, players=[ann, bea], name="People only")
    c = client_for(ann)
    shown = c.get(reverse("games:lobby")).content.decode()
    assert with_bot.name in shown and people.name in shown and 'id="id_bots"' in shown
    hidden = c.get(reverse("games:lobby") + "?bots=hide").content.decode()
    assert with_bot.name not in hidden.split('id="open-h"')[1] and people.name in hidden
    only = c.get(reverse("games:lobby") + "?bots=only").content.decode().split('id="open-h"')[1]
    assert with_bot.name in only and people.name not in only
    assert c.get(reverse("games:lobby") + "?bots=junk").status_code == 200
