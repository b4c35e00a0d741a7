"""The press JSON API: shapes, refusal codes in the framework's error shape, token auth,
``since``, 429 with Retry-After, and only what the caller may read."""

from __future__ import annotations

import json

import pytest

from accounts.models import ApiToken
from press.models import Message, PressRules
from press.services import press_settings_set
from tests.press.conftest import api_get, api_post, api_url, client_for, seat_no

pytestmark = pytest.mark.django_db


def test_post_public_then_everyone_reads_it(trio):
    match, (ann, ben, cat) = trio
    resp = api_post(client_for(ann), match, {"to": "all", "text": "<b>hi</b>"})
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["ok"] is True
    msg = body["message"]
    assert set(msg) >= {"id", "channel", "from_seat", "from_name", "to", "text", "phase_id",
                        "created_at"}
    assert msg["to"] == "all" and msg["channel"] == "public" and msg["from_name"] == "ann"
    assert msg["text"] == "<b>hi</b>" and msg["phase_id"] is not None
    for u in (ann, ben, cat):
        got = api_get(client_for(u), match).json()
        assert [m["text"] for m in got["messages"]] == ["<b>hi</b>"]


def test_private_message_reaches_its_members_only_and_since_pages(trio):
    match, (ann, ben, cat) = trio
    first = api_post(client_for(ann), match, {"to": "all", "text": "one"}).json()["message"]
    resp = api_post(client_for(ann), match, {"to": [seat_no(match, ben)], "text": "two"})
    assert resp.status_code == 201
    assert resp.json()["message"]["to"] == sorted([seat_no(match, ann), seat_no(match, ben)])
    got = api_get(client_for(ben), match, since=first["id"]).json()
    assert [m["text"] for m in got["messages"]] == ["two"]
    got = api_get(client_for(cat), match).json()
    assert [m["text"] for m in got["messages"]] == ["one"]


@pytest.mark.parametrize("body, status, code", [
    ({"to": "all", "text": "x" * 2001}, 400, "TOO_LONG"),
    ({"to": "all", "text": ""}, 400, "EMPTY"),
    ({"to": "all", "text": 5}, 400, "INVALID"),
    ({"to": "nobody", "text": "x"}, 400, "INVALID"),
    ({"to": "all", "text": "x", "extra": 1}, 400, "INVALID"),
])
def test_bad_posts_are_refused_in_the_error_shape(trio, body, status, code):
    match, (ann, *_r) = trio
    resp = api_post(client_for(ann), match, body)
    assert resp.status_code == status
    err = resp.json()["error"]
    assert err["code"] == code and set(err) == {"code", "message", "field", "details"}
    assert not Message.objects.exists()


def test_bad_json_and_since(trio):
    match, (ann, *_r) = trio
    resp = client_for(ann).post(api_url(match), data="{", content_type="application/json")
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "BAD_JSON"
    resp = client_for(ann).get(api_url(match), {"since": "abc"})
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "since"


def test_press_disabled_and_not_a_participant(trio):
    from tests.games.views.conftest import make_user

    match, (ann, ben, _c) = trio
    press_settings_set(match=match, rules=PressRules.PUBLIC)
    resp = api_post(client_for(ann), match, {"to": [seat_no(match, ben)], "text": "x"})
    assert resp.status_code == 403 and resp.json()["error"]["code"] == "PRESS_DISABLED"
    resp = api_post(client_for(make_user("outsider")), match, {"to": "all", "text": "x"})
    assert resp.status_code == 403 and resp.json()["error"]["code"] == "NOT_A_PARTICIPANT"


def test_rate_limited_answers_429_with_retry_after(trio, settings):
    settings.PRESS_RATE_LIMIT = (2, 60)
    match, (ann, *_r) = trio
    c = client_for(ann)
    assert api_post(c, match, {"to": "all", "text": "1"}).status_code == 201
    assert api_post(c, match, {"to": "all", "text": "2"}).status_code == 201
    resp = api_post(c, match, {"to": "all", "text": "3"})
    assert resp.status_code == 429
    assert resp.json()["error"]["code"] == "RATE_LIMITED"
    assert 1 <= int(resp["Retry-After"]) <= 60


def test_token_auth_without_csrf(trio):
    from django.test import Client

    match, (ann, ben, _c) = trio
    token = ApiToken.objects.create(user=ben, scope=ApiToken.Scope.PRESS)
    c = Client(enforce_csrf_checks=True)
    resp = c.post(api_url(match), data=json.dumps({"to": "all", "text": "by script"}),
                  content_type="application/json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert resp.status_code == 201 and resp.json()["message"]["from_name"] == "ben"
    resp = Client(enforce_csrf_checks=True).post(
        api_url(match), data=json.dumps({"to": "all", "text": "x"}),
        content_type="application/json")
    assert resp.status_code == 401


def test_anonymous_and_private_match_strangers_read_nothing(db):
    from django.test import Client

    from tests.games.views.conftest import make_user, new_match

    a, b, s = make_user("pa"), make_user("pb"), make_user("ps")
    match = new_match(creator=a, players=[a, b], start=True, private=True)
    api_post(client_for(a), match, {"to": "all", "text": "inside"})
    assert Client().get(api_url(match)).status_code == 401
    assert client_for(s).get(api_url(match)).status_code == 404


def test_a_private_message_names_its_members(trio):
    """The page and the API name the members of a private conversation, not seat numbers."""
    from django.urls import reverse

    match, (ann, ben, cat) = trio
    api_post(client_for(ann), match, {"to": [seat_no(match, ben)], "text": "psst"})
    got = api_get(client_for(ben), match).json()["messages"][0]
    assert got["to_names"] == [n for _, n in sorted([(seat_no(match, ann), "ann"),
                                                        (seat_no(match, ben), "ben")])]
    page = client_for(ben).get(reverse("press:page", args=[match.pk])).content.decode()
    assert "private: ann, ben" in page or "private: ben, ann" in page
    assert "private: seats" not in page
