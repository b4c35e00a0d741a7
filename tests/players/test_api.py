"""Away periods, the takeover vote, claiming an open seat, the emergency pause and the
director opening a seat, through the JSON API (players.api): the pages' services, the
pages' permissions, the API's error shape; a refusal changes nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils.timezone import now as timezone_now

from accounts.models import ApiToken
from games.models import Seat
from players.models import Away, SeatRecord, TakeoverVote
from tests.factories import make_user
from tests.games.views.conftest import new_match

pytestmark = pytest.mark.django_db


def api(user, scope=ApiToken.Scope.ALL) -> Client:
    token = ApiToken.objects.create(user=user, scope=scope)
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}")


def post(c, url, body=None):
    return c.post(url, json.dumps(body or {}), content_type="application/json")


def test_away_declare_list_cancel():
    ann = make_user("ann")
    c = api(ann, ApiToken.Scope.LOBBY)
    first = (timezone_now() + timedelta(days=3)).date()
    resp = post(c, "/api/away/", {"first": first.isoformat(),
                                  "last": (first + timedelta(days=2)).isoformat()})
    assert resp.status_code == 201, resp.content
    pk = resp.json()["away"]["id"]
    listed = c.get("/api/away/").json()
    assert [a["id"] for a in listed["away"]] == [pk] and listed["max_days"] >= 1
    # the page's own refusals: too long, overlapping, junk
    too_long = post(c, "/api/away/", {"first": (first + timedelta(days=20)).isoformat(),
                                      "last": (first + timedelta(days=60)).isoformat()})
    assert too_long.status_code == 400 and too_long.json()["error"]["code"] == "TOO_LONG"
    overlap = post(c, "/api/away/", {"first": first.isoformat(), "last": first.isoformat()})
    assert overlap.status_code == 409
    assert post(c, "/api/away/", {"first": "soon", "last": "later"}).status_code == 400
    assert post(c, "/api/away/", {"first": 3}).status_code == 400
    assert Away.objects.filter(user=ann).count() == 1
    # a play token may not declare; another user's period is not found
    assert post(api(ann, ApiToken.Scope.PLAY), "/api/away/",
                {"first": first.isoformat(), "last": first.isoformat()}).status_code == 403
    assert post(api(make_user("bea")), f"/api/away/{pk}/cancel/").status_code == 404
    assert post(c, f"/api/away/{pk}/cancel/").status_code == 200
    assert not Away.objects.filter(user=ann, ends_at__gt=timezone_now()).exists()


def _absent_match():
    users = [make_user(n) for n in ("p0", "p1", "p2", "p3")]
    match = new_match(creator=users[0], players=users, start=True)
    seat = Seat.objects.get(match=match, user=users[3])
    SeatRecord.objects.update_or_create(seat=seat, defaults={"absent_since": timezone_now(),
                                                             "missed_in_row": 3})
    return match, users, seat


def test_takeover_vote_opens_then_a_newcomer_claims():
    match, users, seat = _absent_match()
    url = f"/api/matches/{match.pk}/seats/{seat.number}/"
    seats = api(users[0]).get(f"/api/matches/{match.pk}/seats/").json()
    assert next(s for s in seats["seats"] if s["seat"] == seat.number)["absent"] is True
    first = post(api(users[0]), url + "vote/")
    assert first.status_code == 200 and first.json()["open"] is False
    second = post(api(users[1]), url + "vote/")
    assert second.json() == {"ok": True, "votes": 2, "needed": 2, "open": True}
    # a stranger cannot vote; a read token cannot act
    assert post(api(make_user("zz")), url + "vote/").status_code == 403
    assert post(api(users[2], ApiToken.Scope.READ), url + "vote/").status_code == 403
    newcomer = make_user("newcomer")
    claimed = post(api(newcomer, ApiToken.Scope.LOBBY), url + "claim/")
    assert claimed.status_code == 200, claimed.content
    assert Seat.objects.get(match=match, number=seat.number, removed_at__isnull=True).user == newcomer
    assert not TakeoverVote.objects.filter(seat__match=match).exists()
    assert post(api(make_user("late")), url + "claim/").status_code == 409


def test_director_opens_a_seat_players_cannot(settings):
    settings.OTP_REQUIRED_FOR_STAFF = False
    users = [make_user(n) for n in ("q0", "q1")]
    match = new_match(creator=users[0], players=users, start=True)
    url = f"/api/matches/{match.pk}/director/seats/1/open/"
    assert post(api(users[0]), url).status_code == 403
    boss = make_user("boss", staff=True)
    assert post(api(boss, ApiToken.Scope.LOBBY), url).status_code == 403  # the scope
    resp = post(api(boss, ApiToken.Scope.DIRECTOR), url)
    assert resp.status_code == 200, resp.content
    assert SeatRecord.objects.get(seat__match=match, seat__number=1).takeover_open_since
    assert post(api(boss, ApiToken.Scope.DIRECTOR), f"/api/matches/{match.pk}/director/seats/"
                "x/open/").status_code == 404


def test_emergency_pause_is_rationed(settings):
    users = [make_user(n) for n in ("r0", "r1")]
    match = new_match(creator=users[0], players=users, start=True)
    url = f"/api/matches/{match.pk}/emergency-pause/"
    for _ in range(settings.EMERGENCY_PAUSES_PER_MATCH):
        assert post(api(users[0]), url).status_code == 200
    refused = post(api(users[0]), url)
    assert 400 <= refused.status_code < 500 and refused.json()["ok"] is False
    assert post(api(make_user("r9")), url).status_code == 403
