"""The forming page says what the match will be (its settings, house rules changed) and who
may start it; the new-match form keeps the rules' constants apart, collapsed under "House
rules" with plain labels and their defaults (no § references)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.killgame.web.conftest import client_for, detail_url, kg_match

pytestmark = pytest.mark.django_db


def test_the_forming_page_shows_settings_and_who_starts():
    match, users = kg_match(2, config={"map": "inferno", "budget": 400, "sell_pct": 50},
                            start=False)
    html = client_for(users[1]).get(detail_url(match)).content.decode()
    box = re.search(r'<section class="card forming" id="forming".*?</section>', html, re.S).group(0)
    text = re.sub(r"<[^>]+>", " ", box)
    assert "Map" in text and "Inferno" in text and "Initial coins" in text and "400" in text
    assert "Sale price, percent of base: 50" in text  # a changed house rule is said
    assert "Who may start it: u0, who created it, or a director, once 2 players" in \
        re.sub(r"\s+", " ", text)


def test_the_new_match_form_collapses_the_house_rules(db):
    from tests.games.views.conftest import make_user

    html = client_for(make_user("host")).get(
        reverse("games:match-create-game", args=["killgame"])).content.decode()
    house = re.search(r'<details class="group house-rules" id="house-rules">(.*?)</details>',
                      html, re.S)
    assert house, "no collapsed house rules"
    assert 'name="cfg_sell_pct"' in house.group(1) and 'name="cfg_max_energy"' in house.group(1)
    assert "Default: 70." in house.group(1)
    before = html[:house.start()]
    assert 'name="cfg_sell_pct"' not in before and 'name="cfg_budget"' in before
    assert "§" not in html
