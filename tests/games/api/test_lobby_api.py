"""The lobby through the API (games.api_lobby): a match created through the API is the one
the new-match form makes from the same settings, and the API refuses what the form refuses
(with the field named); the games list, the lobby filters, private matches by invite code,
the scopes (a ``play`` token cannot create; ``lobby`` can; ``director`` only for staff)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games.models import Match
from tests.factories import make_user
from tests.games.views.conftest import client_for, new_match

pytestmark = pytest.mark.django_db


def token_client(user, scope=ApiToken.Scope.LOBBY) -> Client:
    token = ApiToken.objects.create(user=user, scope=scope)
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}", enforce_csrf_checks=True)


def post(c: Client, url: str, body) -> object:
    return c.post(url, json.dumps(body), content_type="application/json")


KG_SETTINGS = {"check_enabled": True, "mode": "teams", "team_count": 3,
               "check_phase_max_hours": 12, "prices": None}


def test_api_and_form_make_the_same_kill_game_match(player):
    from killgame.services import builtin_tables_load

    builtin_tables_load()
    api = token_client(player)
    body = {"game": "killgame", "name": "Same", "min_players": 6, "max_players": 9,
            "timezone": "Europe/Rome", "is_private": True, "early_close": False,
            "config": {"check_enabled": True, "mode": "teams", "team_count": 3}}
    resp = post(api, reverse("games:api-matches"), body)
    assert resp.status_code == 201, resp.content
    made = resp.json()["match"]
    assert made["is_private"] and made["invite"]["code"] and made["joined"]
    via_api = Match.objects.get(pk=made["id"])

    form = client_for(player).post(reverse("games:match-create-game", args=["killgame"]), {
        "name": "Same", "min_players": "6", "max_players": "9", "timezone": "Europe/Rome",
        "is_private": "on", "join": "on", "cfg_map": "classic", "cfg_check_enabled": "check",
        "cfg_mode": "teams", "cfg_team_count": "3",
        **{f"cfg_{k}": v for k, v in _form_defaults().items()}})
    assert form.status_code == 302, form.content.decode()[:2000]
    via_form = Match.objects.exclude(pk=via_api.pk).get(name="Same")
    assert via_api.config == via_form.config
    assert via_api.schedule == via_form.schedule
    assert (via_api.min_players, via_api.max_players, via_api.timezone, via_api.is_private,
            via_api.early_close) == (6, 9, "Europe/Rome", True, False)
    assert via_api.seats.filter(user=player).exists()


def _form_defaults() -> dict[str, str]:
    """The other settings as the form posts them when left as shown."""
    from games import registry
    from games.forms import MatchCreateForm

    form = MatchCreateForm(game=registry.get_game("killgame"))
    out = {}
    for spec in form.schema:
        if spec.key in ("map", "check_enabled", "mode", "team_count"):
            continue
        value = form.defaults[spec.key]
        if spec.type == "bool":
            if value:
                out[spec.key] = "on"
        elif spec.type == "json":
            out[spec.key] = json.dumps(value)
        elif value is not None:
            out[spec.key] = str(value)
    return out


@pytest.mark.parametrize("config,field", [
    ({"check_phase_max_hours": 999}, "config.check_phase_max_hours"),  # the schema's max
    ({"nonsense": 1}, "config.nonsense"),                              # not a setting
    ({"team_count": [1]}, "config.team_count"),                        # wrong JSON type
    ({"map": "atlantis"}, "config.map"),                               # not a map offered
])
def test_the_api_refuses_what_the_form_refuses(player, config, field):
    from killgame.services import builtin_tables_load

    builtin_tables_load()
    resp = post(token_client(player), reverse("games:api-matches"),
                {"game": "killgame", "name": "Bad", "config": config})
    assert resp.status_code == 400, resp.content
    err = resp.json()["error"]
    assert err["field"] == field and err["message"]
    assert not Match.objects.filter(name="Bad").exists()


def test_the_same_message_as_the_form(player):
    resp = post(token_client(player), reverse("games:api-matches"),
                {"game": "guess", "name": "Bad", "min_players": 5, "max_players": 3})
    err = resp.json()["error"]
    page = client_for(player).post(reverse("games:match-create-game", args=["guess"]), {
        "name": "Bad", "min_players": "5", "max_players": "3", "timezone": "UTC",
        "cfg_rounds": "3", "cfg_timing": "schedule"})
    assert resp.status_code == 400 and page.status_code == 400
    assert err["field"] == "max_players"
    assert err["details"]["errors"]["max_players"][0] in page.content.decode()


@pytest.mark.parametrize("body,field", [
    ({"name": "x"}, "game"), ({"game": "chess", "name": "x"}, "game"),
    ({"game": "guess", "name": "x", "join": "yes"}, "join"),
    ({"game": "guess", "name": "x", "owner": 3}, "owner"),
    ({"game": "guess", "name": "x", "config": []}, "config"),
])
def test_bad_create_bodies(player, body, field):
    resp = post(token_client(player), reverse("games:api-matches"), body)
    assert resp.status_code == 400 and resp.json()["error"]["field"] == field
    assert not Match.objects.exists()


def test_scopes(player, staff):
    for scope, status in ((ApiToken.Scope.PLAY, 403), (ApiToken.Scope.READ, 403),
                          (ApiToken.Scope.PRESS, 403), (ApiToken.Scope.DIRECTOR, 403),
                          (ApiToken.Scope.LOBBY, 201), (ApiToken.Scope.ALL, 201)):
        resp = post(token_client(player, scope), reverse("games:api-matches"),
                    {"game": "guess", "name": f"by {scope}"})
        assert resp.status_code == status, (scope, resp.content)
        if status == 403:
            assert resp.json()["error"]["details"]["needs"] == "lobby"
    running = new_match(creator=player, players=[player, make_user("zed")], start=True)
    url = reverse("games:api-director-pause", args=[running.pk])
    assert post(token_client(player, ApiToken.Scope.ALL), url, {}).status_code == 403
    assert post(token_client(staff, ApiToken.Scope.LOBBY), url, {}).status_code == 403
    assert post(token_client(staff, ApiToken.Scope.DIRECTOR), url, {}).status_code == 200


def test_games_list_and_lobby_filters(player, player2):
    api = token_client(player)
    games = {g["slug"]: g for g in api.get(reverse("games:api-games")).json()["games"]}
    assert "killgame" in games and "guess" in games
    keys = {c["key"] for c in games["killgame"]["config"]}
    assert "check_enabled" in keys and "map" in keys
    assert "classic" in next(c for c in games["killgame"]["config"] if c["key"] == "map")["choices"]
    forming = new_match(creator=player, players=[player2], name="Forming one")
    running = new_match(creator=player, players=[player, player2], start=True, name="Running one")
    hidden = new_match(creator=player, players=[player], private=True, name="Hidden one")
    rows = api.get(reverse("games:api-lobby") + "?status=forming").json()["matches"]
    assert [r["id"] for r in rows] == [forming.pk]
    rows = api.get(reverse("games:api-lobby") + "?status=all&game=guess").json()["matches"]
    assert {r["id"] for r in rows} == {forming.pk, running.pk} and hidden.pk not in rows

    # a bot account seated: its tables are marked, and the filter hides or shows them
    player2.profile.is_bot = True
    player2.profile.save()
    rows = api.get(reverse("games:api-lobby") + "?status=all").json()["matches"]
    assert all(r["bot_table"] for r in rows)
    assert api.get(reverse("games:api-lobby") + "?status=all&bots=hide").json()["matches"] == []
    assert len(api.get(reverse("games:api-lobby") + "?status=all&bots=only").json()["matches"]) == 2
    assert api.get(reverse("games:api-lobby") + "?bots=maybe").status_code == 400


def test_private_match_by_invite_code_only(player, player2):
    match = new_match(creator=player, players=[player], private=True)
    api2 = token_client(player2)
    assert post(api2, reverse("games:api-match-join", args=[match.pk]), {}).status_code == 404
    resp = post(api2, reverse("games:api-join-invite", args=[match.invite_code]), {})
    assert resp.status_code == 200 and resp.json()["match"]["joined"]
    assert resp.json()["match"]["invite"]["code"] == match.invite_code  # seated: may share it


def test_a_session_needs_the_csrf_token_to_act(player):
    c = Client(enforce_csrf_checks=True)
    c.force_login(player)
    refused = post(c, reverse("games:api-matches"), {"game": "guess", "name": "No CSRF"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "CSRF"
    assert not Match.objects.exists()
    c.get(reverse("games:lobby"))  # the page sets the CSRF cookie
    ok = c.post(reverse("games:api-matches"), json.dumps({"game": "guess", "name": "CSRF"}),
                content_type="application/json", HTTP_X_CSRFTOKEN=c.cookies["csrftoken"].value)
    assert ok.status_code == 201, ok.content
