"""A game's own board and no-JS order form plug in through the registry hooks (GameHooks)
(docs/pages.md): ``board_template``, ``order_form_template`` and ``order_from_post``."""

from __future__ import annotations

from pathlib import Path

import pytest
from django import forms
from django.urls import reverse

from games import registry
from games.models import Order
from tests.games import guessgame
from tests.games.views.test_match_page import detail_url, page_text

pytestmark = pytest.mark.django_db
TEMPLATES = Path(__file__).parent / "templates"


def order_from_post(post) -> dict:
    raw = post.get("number", "").strip()
    if not raw.isdigit():
        raise forms.ValidationError("Type your guess as a number.")
    return {"guess": int(raw)}


@pytest.fixture
def hooked(settings):
    settings.TEMPLATES = [{**settings.TEMPLATES[0],
                           "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES]}]
    registry.register(guessgame, registry.GameHooks(
        board_template="hooks/board.html", order_form_template="hooks/order.html",
        order_from_post=order_from_post))


def test_board_and_order_form_templates_are_used(hooked, running_match, player_client):
    resp = player_client.get(detail_url(running_match))
    html = resp.content.decode()
    assert "Guess board: round 1 of 2; mine none" in page_text(resp)
    assert 'name="number"' in html and 'name="order"' not in html
    assert 'name="phase_id"' in html and 'name="version"' in html


def test_order_from_post_turns_the_form_into_a_payload(hooked, running_match, player_client):
    url = reverse("games:order-submit", args=[running_match.pk])
    resp = player_client.post(url, {"number": "33"})
    assert resp.status_code == 302
    assert Order.objects.get().payload == {"guess": 33}
    assert "mine 33" in page_text(player_client.get(detail_url(running_match)))


@pytest.mark.parametrize("value,status,message", [
    ("abc", 400, "Type your guess as a number."),
    ("", 400, "Type your guess as a number."),
    ("500", 422, "Guess a number from 1 to 100."),
])
def test_order_from_post_errors_show_on_the_page(hooked, running_match, player_client, value,
                                                 status, message):
    resp = player_client.post(reverse("games:order-submit", args=[running_match.pk]),
                              {"number": value})
    assert resp.status_code == status
    assert message in page_text(resp)
    assert 'name="number"' in resp.content.decode()  # the game's form is shown again
    assert not Order.objects.exists()


def test_a_game_view_can_rerender_the_page_with_error(rf, running_match, player):
    """Game views reuse match_context and the generic page with ``error`` (or
    ``action_error``) for their own refusals."""
    from django.shortcuts import render

    from games.lib.pages import match_context

    request = rf.get("/")
    request.user = player
    ctx = match_context(request, running_match)
    ctx["error"] = "That zone is closed."
    html = render(request, "games/match_detail.html", ctx, status=409).content.decode()
    assert 'id="action-error">That zone is closed.<' in html


def test_private_checkin_kinds_hide_the_counts(running_match, player, player_client):
    """A phase kind whose awaited set is secret shows no "N of M checked in"."""
    from games.services.seats import seat_checkin
    from tests.games.views.conftest import seat_of

    registry.register(guessgame, registry.GameHooks(private_checkin_kinds=frozenset({"guess"})))
    seat_checkin(match=running_match, seat=seat_of(running_match, player))
    text = page_text(player_client.get(detail_url(running_match)))
    assert "checked in" not in text.replace("You are checked in", "")
    api = player_client.get(reverse("games:api-match", args=[running_match.pk])).json()
    assert api["phase"]["checked_in_count"] is None and api["phase"]["awaited_count"] is None
    assert api["phase"]["you_checked_in"] is True
