"""A fourth game needs only its engine, its app config and a board template: installed as
an app (no urls.py, no views, no forms), it is created, played and shown by the framework."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import registry
from games.models import Order
from tests.games.views.test_match_page import detail_url, page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def fourth_installed(settings):
    settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, "tests.games.fourth"]  # runs ready()
    yield registry.get_game("guess")


def test_the_app_config_registers_the_game_with_its_board(fourth_installed):
    assert fourth_installed.hooks.board_template == "fourth/board.html"
    assert fourth_installed.hooks.order_from_post is None  # the generic JSON order form


def test_the_framework_shows_and_plays_the_fourth_game(fourth_installed, running_match,
                                                       player_client):
    assert "Fourth board: round 1 of 2." in page_text(player_client.get(detail_url(running_match)))
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"order": '{"guess": 42}'})
    assert resp.status_code == 302
    assert Order.objects.get().payload == {"guess": 42}
    assert "you guessed 42" in page_text(player_client.get(detail_url(running_match)))
