"""Issue 28, problems 2 and 3: a NUL byte in a path parameter and an away period ending
9999-12-31 answered 500. Every URL and form now answers junk with a 4xx and a message."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from tests.security.test_fuzz import DATE_FIELDS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/players/u/%00/", "/accounts/unsubscribe/%00/", "/join/%00/",
                                 "/players/u/a%01b/", "/m/1%00/", "/api/matches/%00/",
                                 "/players/leaderboard/%7F/", "/accounts/unsubscribe/a%0Ab/"])
@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_control_characters_in_a_path_are_a_400_with_a_message(url, who, player):
    c = Client()
    if who == "player":
        c.force_login(player)
    resp = c.get(url)
    assert resp.status_code == 400
    body = resp.content.decode()
    assert "control character" in body
    if url.startswith("/api/"):
        assert resp.json()["error"]["code"] == "BAD_INPUT"


def test_control_characters_in_a_query_or_form_are_a_400(player_client):
    resp = player_client.get("/players/open-seats/?q=a%00b")
    assert resp.status_code == 400 and "query" in resp.content.decode()
    resp = player_client.post(reverse("players:away"), {"first": "2026-01-01\x00"})
    assert resp.status_code == 400 and "form field" in resp.content.decode()
    # line breaks and tabs are text, not junk
    assert player_client.get("/players/open-seats/?q=a%0Ab%09").status_code == 200


def test_the_refusal_speaks_the_browsers_language(anon_client):
    resp = anon_client.get("/players/u/%00/", HTTP_ACCEPT_LANGUAGE="it")
    assert resp.status_code == 400 and 'lang="it"' in resp.content.decode()


def test_unicode_in_a_path_parameter_is_a_4xx_not_a_500(anon_client, player_client):
    for url in ["/players/u/%C3%A9t%C3%A9/", "/players/u/%E2%80%AE/", "/join/%FF%FE/",
                "/accounts/unsubscribe/%F0%9F%92%A5/"]:
        # /join/ asks a visitor to log in; a bad unsubscribe link says so (400)
        assert anon_client.get(url).status_code in (302, 400, 404), url
        assert player_client.get(url).status_code in (400, 404), url


def test_a_junk_session_cookie_is_no_session(anon_client):
    for junk in ["a" * 31 + "\x00", "x" * 4000, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "a" * 8]:
        anon_client.cookies["sessionid"] = junk
        assert anon_client.get("/").status_code == 200


def test_json_with_a_nul_is_refused(player_client):
    resp = player_client.post("/api/matches/1/orders/", json.dumps({"order": {"x": "a\u0000"}}),
                              content_type="application/json")
    assert resp.status_code in (400, 403, 404)
    from games.lib import safejson

    with pytest.raises(safejson.JsonRefused, match="NUL"):
        safejson.loads('{"a": "\\u0000"}')
    assert safejson.loads('{"a": "\\\\u0000"}') == {"a": "\\u0000"}  # a backslash, then u0000


@pytest.mark.parametrize("first,last", [("2026-01-01", "9999-12-31"), ("9999-12-31", "9999-12-31"),
                                        ("0001-01-01", "0001-01-01"), ("9999-12-30", "9999-12-31")])
def test_an_away_period_out_of_range_is_a_400(player_client, first, last):
    resp = player_client.post(reverse("players:away"), {"first": first, "last": last})
    assert resp.status_code == 400
    from players.models import Away

    assert not Away.objects.exists()


@pytest.mark.parametrize("when", ["9999-12-31T23:59", "0001-01-01T00:00", "10000-01-01T00:00"])
def test_a_new_match_start_out_of_range_is_a_400(player, when):
    from accounts.models import Profile

    Profile.objects.filter(user=player).update(timezone="Pacific/Pago_Pago")
    c = Client()
    c.force_login(player)
    for game in registry.all_games():
        resp = c.post(reverse("games:match-create-game", args=[game.slug]),
                      {"name": "x", "min_players": game.min_seats, "max_players": game.max_seats,
                       "timezone": "Pacific/Kiritimati", "starts_at": when})
        assert resp.status_code == 400, (game.slug, when)


def test_every_forms_date_field_is_covered_here():
    """A new form's date field needs a case above (the fuzz test sends junk to it too)."""
    assert set(DATE_FIELDS) == {"first", "last", "starts_at"}
