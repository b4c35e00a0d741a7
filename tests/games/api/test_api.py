"""The JSON API: token and session auth (with CSRF), every endpoint's answer, bad bodies,
bad ids, refusals as {"ok": false, "error": {...}} with the right 4xx, nothing changed."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games.models import CheckIn, Match, Order
from games.services.orders import order_submit
from tests.games.views.conftest import client_for, new_match, open_phase, seat_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def token(player):
    return ApiToken.objects.create(user=player)


@pytest.fixture
def api(token):
    """A cookie-less client that sends the player's token (a script)."""
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}", enforce_csrf_checks=True)


def post(client, url, body, **kw):
    raw = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, raw, content_type="application/json", **kw)


def assert_error(resp, status, code=None):
    assert resp.status_code == status, resp.content
    body = resp.json()
    assert body["ok"] is False
    assert set(body["error"]) == {"code", "message", "field", "details"}
    assert body["error"]["message"]
    if code:
        assert body["error"]["code"] == code
    return body["error"]


def test_my_matches_with_your_move(api, running_match, player, token):
    body = api.get(reverse("games:api-matches")).json()
    assert body["ok"] is True
    [m] = body["matches"]
    assert m["id"] == running_match.pk and m["game"] == "guess" and m["status"] == "running"
    assert m["your_move"] is True and m["seat"] == 0
    assert m["phase"]["kind"] == "guess" and m["phase"]["deadline_at"]
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_match_view_for_me(api, running_match):
    body = api.get(reverse("games:api-match", args=[running_match.pk])).json()
    assert body["ok"] and body["omniscient"] is False
    assert body["view"]["round"] == 1 and body["view"]["my_guess"] is None
    phase = open_phase(running_match)
    assert body["phase"]["id"] == phase.pk
    assert body["phase"]["you_are_awaited"] is True and body["phase"]["you_checked_in"] is False
    assert body["phase"]["checked_in_count"] == 0 and body["phase"]["awaited_count"] == 2
    assert body["match"]["version"] == Match.objects.get(pk=running_match.pk).version
    assert body["players"] == [{"seat": 0, "name": "alice", "bot": False, "bot_account": False},
                               {"seat": 1, "name": "bob", "bot": False, "bot_account": False}]


def test_submit_checkin_withdraw_and_diary(api, running_match, player):
    url = reverse("games:api-order-submit", args=[running_match.pk])
    phase = open_phase(running_match)
    running_match.refresh_from_db()
    resp = post(api, url, {"order": {"guess": 33}, "phase_id": phase.pk,
                           "version": running_match.version})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["ok"] and body["order"]["id"] == Order.objects.get(seat__user=player).pk
    diary = api.get(reverse("games:api-diary", args=[running_match.pk])).json()
    assert [e["text"] for e in diary["entries"]] == ["You guessed 33."]
    last = diary["last_seq"]
    assert api.get(reverse("games:api-diary", args=[running_match.pk]),
                   {"since": last}).json()["entries"] == []
    resp = post(api, reverse("games:api-checkin", args=[running_match.pk]), {"phase_id": phase.pk})
    assert resp.status_code == 200 and resp.json()["checked_in"] is True
    assert CheckIn.objects.filter(phase=phase, seat__user=player).exists()
    resp = post(api, url, {"order": {"guess": 34}})
    assert_error(resp, 409, "ALREADY_CHECKED")
    resp = post(api, reverse("games:api-checkin-withdraw", args=[running_match.pk]), "")
    assert resp.status_code == 200 and resp.json()["checked_in"] is False
    resp = post(api, reverse("games:api-checkin-withdraw", args=[running_match.pk]), {})
    assert_error(resp, 409, "NOT_CHECKED_IN")


@pytest.mark.parametrize("body,status,code", [
    ("not json", 400, "BAD_JSON"),
    ("[1, 2]", 400, "BAD_JSON"),
    ('"guess"', 400, "BAD_JSON"),
    (b"\xff\xfe", 400, "BAD_JSON"),
    ({}, 400, "INVALID"),
    ({"order": "guess 5"}, 400, "INVALID"),
    ({"order": [5]}, 400, "INVALID"),
    ({"order": {"guess": "five"}}, 400, "MALFORMED"),
    ({"order": {"guess": 101}}, 422, "OUT_OF_RANGE"),
    ({"order": {"guess": 5}, "phase_id": "x"}, 400, "INVALID"),
    ({"order": {"guess": 5}, "version": True}, 400, "INVALID"),
    ({"order": {"guess": 5}, "phase_id": 999999}, 409, "STALE_PHASE"),
    ({"order": {"guess": 5}, "version": 0}, 409, "STALE_VERSION"),
])
def test_bad_order_bodies(api, running_match, body, status, code):
    before = Match.objects.get(pk=running_match.pk).version
    resp = post(api, reverse("games:api-order-submit", args=[running_match.pk]), body)
    assert_error(resp, status, code)
    assert Match.objects.get(pk=running_match.pk).version == before
    assert not Order.objects.exists()


def test_too_large_body(api, running_match):
    resp = post(api, reverse("games:api-order-submit", args=[running_match.pk]),
                json.dumps({"order": {"guess": 5}, "pad": "x" * 70000}))
    assert_error(resp, 413, "TOO_LARGE")


@pytest.mark.parametrize("raw_id", ["999999", "abc", "-1", "0", "1.5"])
@pytest.mark.parametrize("name", ["games:api-match", "games:api-diary"])
def test_unknown_or_junk_ids_are_json_404(api, raw_id, name):
    assert_error(api.get(reverse(name, args=[raw_id])), 404, "NOT_FOUND")


def test_junk_since_is_400(api, running_match):
    for since in ("x", "-1"):
        resp = api.get(reverse("games:api-diary", args=[running_match.pk]), {"since": since})
        assert_error(resp, 400, "INVALID")["field"] == "since"


def test_wrong_methods_are_405(api, running_match):
    assert_error(api.put(reverse("games:api-matches")), 405, "METHOD_NOT_ALLOWED")
    assert_error(api.get(reverse("games:api-checkin", args=[running_match.pk])), 405)


@pytest.mark.parametrize("header,code", [
    ("Token nope", "BAD_TOKEN"), ("Bearer abc", "BAD_AUTH_HEADER"), ("Token", "BAD_AUTH_HEADER"),
])
def test_bad_tokens_are_401(running_match, header, code):
    c = Client(HTTP_AUTHORIZATION=header)
    assert_error(c.get(reverse("games:api-matches")), 401, code)


def test_inactive_users_token_is_refused(api, player):
    player.is_active = False
    player.save()
    assert_error(api.get(reverse("games:api-matches")), 401, "BAD_TOKEN")


def test_session_post_needs_csrf_token_post_with_token_does_not(player, running_match):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    url = reverse("games:api-order-submit", args=[running_match.pk])
    assert_error(post(browser, url, {"order": {"guess": 5}}), 403, "CSRF")
    assert not Order.objects.exists()
    browser.get(reverse("games:lobby"))  # sets the csrftoken cookie
    csrf = browser.cookies["csrftoken"].value
    resp = post(browser, url, {"order": {"guess": 5}}, HTTP_X_CSRFTOKEN=csrf)
    assert resp.status_code == 200, resp.content


def test_a_body_cannot_name_another_seat(api, running_match, player2):
    """The API acts for the caller's own seat only; a "seat" field is refused, not obeyed."""
    url = reverse("games:api-order-submit", args=[running_match.pk])
    err = assert_error(post(api, url, {"order": {"guess": 5}, "seat": 1}), 400, "INVALID")
    assert err["field"] == "seat"
    assert not Order.objects.exists()
    assert post(api, url, {"order": {"guess": 5}}).status_code == 200
    assert Order.objects.get().seat.user.username == "alice"


def test_private_match_of_others_is_404(token, player2, stranger):
    match = new_match(creator=player2, players=[player2, stranger], start=True, private=True)
    c = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert_error(c.get(reverse("games:api-match", args=[match.pk])), 404)
    assert_error(post(c, reverse("games:api-order-submit", args=[match.pk]),
                      {"order": {"guess": 5}}), 404)


def test_staff_gets_the_omniscient_view(staff, running_match, player):
    order_submit(match=running_match, seat=seat_of(running_match, player), payload={"guess": 61})
    body = client_for(staff).get(reverse("games:api-match", args=[running_match.pk])).json()
    assert body["omniscient"] is True and body["view"]["guesses"] == {"0": 61}
    diary = client_for(staff).get(reverse("games:api-diary", args=[running_match.pk])).json()
    assert any("61" in e["text"] for e in diary["entries"])


def test_finished_match_outcome(api, player, player2, django_capture_on_commit_callbacks):
    from games.services.seats import seat_checkin

    match = new_match(creator=player, players=[player, player2], start=True,
                      config={"rounds": 1, "timing": "check"})
    post(api, reverse("games:api-order-submit", args=[match.pk]), {"order": {"guess": 40}})
    with django_capture_on_commit_callbacks(execute=True):
        post(api, reverse("games:api-checkin", args=[match.pk]), {})
    with django_capture_on_commit_callbacks(execute=True):
        seat_checkin(match=match, seat=seat_of(match, player2))
    body = api.get(reverse("games:api-match", args=[match.pk])).json()
    assert body["match"]["status"] == "finished" and body["phase"] is None
    assert body["outcome"]["winners"] == [0]
    assert_error(post(api, reverse("games:api-order-submit", args=[match.pk]),
                      {"order": {"guess": 5}}), 409, "MATCH_OVER")


def test_session_multipart_body_is_a_json_error_not_a_500(player, running_match):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    browser.get(reverse("games:lobby"))
    token = browser.cookies["csrftoken"].value
    # multipart form data with a valid CSRF field: the check parses it, the body is gone
    resp = browser.post(reverse("games:api-order-submit", args=[running_match.pk]),
                        {"order": '{"guess": 5}', "csrfmiddlewaretoken": token})
    assert_error(resp, 400, "BAD_JSON")
    assert not Order.objects.exists()


def test_form_encoded_body_with_a_token_is_bad_json(api, running_match):
    resp = api.post(reverse("games:api-order-submit", args=[running_match.pk]),
                    "order=5", content_type="application/x-www-form-urlencoded")
    assert_error(resp, 400, "BAD_JSON")
