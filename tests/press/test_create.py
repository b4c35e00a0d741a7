"""Press rules chosen at creation in the lobby's new-match form (and its default)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from press import access
from press.models import PressRules
from tests.press.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def test_the_new_match_form_offers_press_rules_and_stores_the_choice():
    user = make_user("creator")
    c = client_for(user)
    url = reverse("games:match-create-game", args=["guess"])
    assert 'name="press"' in c.get(url).content.decode()
    resp = c.post(url, {"name": "Quiet", "min_players": 2, "max_players": 4,
                        "timezone": "Europe/Rome", "press": "public", "join": "on",
                        "cfg_rounds": 2, "cfg_timing": "check"})
    assert resp.status_code == 302, resp.content.decode()[:2000]
    match = Match.objects.get(name="Quiet")
    assert access.settings_for(match).rules == PressRules.PUBLIC


@pytest.mark.parametrize("slug", ["killgame", "diceslayer"])
def test_the_game_create_pages_offer_press_rules(slug):
    from killgame.services import builtin_tables_load

    builtin_tables_load()
    html = client_for(make_user(f"c{slug}")).get(
        reverse("games:match-create-game", args=[slug])).content.decode()
    assert 'name="press"' in html
