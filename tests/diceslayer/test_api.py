"""Dice Slayer's ways into a game through the JSON API (diceslayer.api): solo, the daily
attempt (once a day), a challenge accepted, declined or withdrawn, a game against the bot,
an open game joined, a rematch; the pages' forms check the bodies, the pages' services act;
the moves are the generic orders endpoint."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import ApiToken
from diceslayer.models import Challenge
from games.models import Match
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def api(user, scope=ApiToken.Scope.LOBBY) -> Client:
    token = ApiToken.objects.create(user=user, scope=scope)
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}")


def post(c, url, body=None):
    return c.post(url, json.dumps(body or {}), content_type="application/json")


def test_solo_and_daily():
    ann = make_user("ann")
    c = api(ann)
    solo = post(c, "/api/diceslayer/solo/", {"variant": "solo_wild"})
    assert solo.status_code == 201 and solo.json()["match"]["variant"] == "solo_wild"
    assert Match.objects.get(pk=solo.json()["match"]["id"]).status == Match.Status.RUNNING
    assert post(c, "/api/diceslayer/solo/", {"variant": "chess"}).status_code == 400
    first = post(c, "/api/diceslayer/daily/")
    again = post(c, "/api/diceslayer/daily/")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["match"]["id"] == again.json()["match"]["id"]
    assert again.json()["created"] is False
    # the moves: the generic API, with the game's view
    view = c.get(first.json()["match"]["api_url"]).json()
    assert view["ok"] and view["phase"]["you_are_awaited"]
    assert post(api(ann, ApiToken.Scope.PLAY), "/api/diceslayer/solo/").status_code == 403


def test_challenge_accept_and_decline_and_withdraw():
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    sent = post(api(ann), "/api/diceslayer/challenges/", {"against": "user", "opponent": "bob"})
    assert sent.status_code == 201, sent.content
    mid = sent.json()["match"]["id"]
    waiting = api(bob).get("/api/diceslayer/challenges/").json()["waiting"]
    assert [m["id"] for m in waiting] == [mid]
    assert post(api(eve), f"/api/diceslayer/matches/{mid}/accept/").status_code == 404
    assert post(api(ann), f"/api/diceslayer/matches/{mid}/decline/").status_code == 403
    accepted = post(api(bob), f"/api/diceslayer/matches/{mid}/accept/")
    assert accepted.status_code == 200 and accepted.json()["match"]["status"] == "running"

    again = post(api(ann), "/api/diceslayer/challenges/", {"against": "user", "opponent": "bob"})
    mid2 = again.json()["match"]["id"]
    assert post(api(bob), f"/api/diceslayer/matches/{mid2}/withdraw/").status_code == 403
    declined = post(api(bob), f"/api/diceslayer/matches/{mid2}/decline/")
    assert declined.status_code == 200 and declined.json()["match"]["status"] == "cancelled"
    assert Challenge.objects.get(match_id=mid2).status == Challenge.Status.DECLINED

    third = post(api(ann), "/api/diceslayer/challenges/", {"against": "user", "opponent": "bob"})
    mid3 = third.json()["match"]["id"]
    withdrawn = post(api(ann), f"/api/diceslayer/matches/{mid3}/withdraw/")
    assert withdrawn.status_code == 200
    assert Challenge.objects.get(match_id=mid3).status == Challenge.Status.WITHDRAWN
    # answered already: 409, nothing changes
    assert post(api(bob), f"/api/diceslayer/matches/{mid3}/accept/").status_code == 409


@pytest.mark.parametrize("body,field", [
    ({"against": "user"}, "opponent"), ({"against": "user", "opponent": "nobody"}, "opponent"),
    ({"against": "bot", "turn_hours": 5}, "turn_hours"), ({"against": "bot", "turn_hours": "x"},
                                                          "turn_hours"),
    ({"against": "bot", "variant": "versus1", "target_score": 50}, "target_score"),
])
def test_bad_challenges(body, field):
    make_user("bob")
    resp = post(api(make_user("ann")), "/api/diceslayer/challenges/", body)
    assert resp.status_code == 400 and resp.json()["error"]["field"] == field
    assert not Match.objects.exists()


def test_bot_game_open_game_and_rematch():
    ann, bob = make_user("ann"), make_user("bob")
    bot = post(api(ann), "/api/diceslayer/challenges/", {"against": "bot", "turn_hours": 1})
    assert bot.status_code == 201 and bot.json()["match"]["status"] == "running"
    open_game = post(api(ann), "/api/diceslayer/challenges/", {"against": "open"})
    mid = open_game.json()["match"]["id"]
    joined = post(api(bob), f"/api/diceslayer/matches/{mid}/join/")
    assert joined.status_code == 200 and joined.json()["match"]["status"] == "running"
    # a rematch needs a finished game
    assert post(api(ann), f"/api/diceslayer/matches/{mid}/rematch/").status_code == 409
    Match.objects.filter(pk=mid).update(status=Match.Status.FINISHED)
    rematch = post(api(ann), f"/api/diceslayer/matches/{mid}/rematch/")
    assert rematch.status_code == 201, rematch.content
    assert rematch.json()["match"]["id"] != mid
