"""Redis is optional for correctness (docs/operations.md "Outages"): with the cache
unreachable, the cache backend answers misses (``config.cache``), pages and the API keep
answering, orders, check-ins and press posts succeed, a right API token works, and what a
throttle guards fails closed with a clear 503 (logins, a wrong token, sign-ups)."""

from __future__ import annotations

import json
import socket

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from config import cache as cache_backend
from games.models import CheckIn, Order
from press.models import Message
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again: nothing listens there


def _redis_cache(url: str) -> dict:
    return {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": url,
                        "KEY_PREFIX": "pbwtest-outage",
                        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}


@pytest.fixture
def redis_down(settings):
    cache_backend.reset_outage_state()
    settings.CACHES = _redis_cache(f"redis://127.0.0.1:{_dead_port()}/0")
    yield
    cache_backend.reset_outage_state()


@pytest.fixture(autouse=True)
def _empty_cache():  # overrides the suite's: clearing a dead cache must not be the test
    yield


def test_the_backend_answers_misses_and_says_it_is_down(redis_down):
    cache = caches["default"]
    assert cache.get("k", "default") == "default"
    assert cache_backend.cache_down()
    cache.set("k", 1)
    assert cache.add("k", 1) is False
    assert cache.get_many(["a", "b"]) == {}
    cache.set_many({"a": 1})
    cache.delete("k")
    with pytest.raises(ValueError):
        cache.incr("k")
    assert cache.get_or_set("k", 5) == 5


def test_keys_written_during_an_outage_are_dropped_when_redis_is_back(settings):
    import redis

    url = "redis://127.0.0.1:6379/13"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    cache_backend.reset_outage_state()
    settings.CACHES = _redis_cache(url)
    live = caches["default"]
    live.set("session-x", "old")
    settings.CACHES = _redis_cache(f"redis://127.0.0.1:{_dead_port()}/0")
    caches["default"].delete("session-x")  # a logout while Redis is unreachable
    assert cache_backend.cache_down()
    cache_backend._down_until = 0.0  # the pause is over
    settings.CACHES = _redis_cache(url)
    try:
        assert caches["default"].get("session-x") is None  # not the stale "old"
    finally:
        caches["default"].delete("session-x")
        cache_backend.reset_outage_state()


def _api(client: Client, method: str, url: str, body: dict | None = None, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    if method == "get":
        return client.get(url, **headers)
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


def test_play_goes_on_with_the_cache_down(redis_down):
    match = make_match(players=2)
    ann, ben = [s.user for s in match.seats.order_by("number")]
    token = ApiToken.objects.create(user=ann, name="bot")
    api = Client(raise_request_exception=False)
    # a right token: the match, an order, a check-in
    assert _api(api, "get", reverse("games:api-match", args=[match.pk]), token=token.key
                ).status_code == 200
    resp = _api(api, "post", reverse("games:api-order-submit", args=[match.pk]),
                {"order": {"guess": 7}}, token=token.key)
    assert resp.status_code == 200, resp.content
    resp = _api(api, "post", reverse("games:api-checkin", args=[match.pk]), token=token.key)
    assert resp.status_code == 200, resp.content
    assert Order.objects.filter(seat__user=ann).count() == 1
    assert CheckIn.objects.filter(seat__user=ann).count() == 1
    # a press post through the API
    resp = _api(api, "post", reverse("press:api-messages", args=[match.pk]),
                {"to": "all", "text": "still here"}, token=token.key)
    assert resp.status_code == 201, resp.content
    assert Message.objects.filter(text="still here").exists()
    # a logged-in player's pages
    page = Client(raise_request_exception=False)
    page.force_login(ben)
    for url in (reverse("games:lobby"), reverse("games:match-detail", args=[match.pk]),
                reverse("games:match-poll", args=[match.pk]), reverse("accounts:profile")):
        assert page.get(url).status_code < 500, url
    resp = page.post(reverse("games:order-submit", args=[match.pk]), {"order": '{"guess": 9}'})
    assert resp.status_code < 500
    assert Order.objects.filter(seat__user=ben).exists()


def test_what_a_throttle_guards_fails_closed_with_a_503(redis_down):
    match = make_match(players=1)
    ann = match.seats.get().user
    client = Client(raise_request_exception=False)
    # a wrong API token cannot be counted: 503 in the API's error shape
    resp = _api(client, "get", reverse("games:api-matches"), token="pbw_wrong")
    assert resp.status_code == 503
    assert resp.json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert resp["Retry-After"]
    # a login cannot be counted either: the 503 page, and nobody is logged in
    resp = client.post(reverse("accounts:login"), {"username": ann.username,
                                                   "password": "pw-" + ann.username})
    assert resp.status_code == 503
    assert "_auth_user_id" not in client.session
    resp = client.post(reverse("accounts:signup"), {"username": "newbie", "email": "n@x.org",
                                                    "password1": "long enough pass 1",
                                                    "password2": "long enough pass 1"})
    assert resp.status_code == 503
