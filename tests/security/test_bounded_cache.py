"""Issue 28, problem 5: clients chose fragment-cache keys (every new query string stored
12–20 KB for ten minutes). Keys now hold only what a fragment reads, normalised: unknown
parameters are ignored, a ``?diary=`` turn counts only when the match has that turn, the
press panel keys the page's own address without its query."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client

from games.lib.htmlcache import page_address
from tests.games.views.conftest import client_for, make_user, new_match

pytestmark = pytest.mark.django_db


def _keys() -> set[str]:
    return {k for k in caches["html"]._cache if ":frag:" in k}


def test_made_up_parameters_and_addresses_store_nothing_new(settings):
    alice, bob = make_user("alice"), make_user("bob")
    match = new_match(creator=alice, players=[alice, bob], start=True)
    for client in (client_for(alice), client_for(make_user("carol")), Client()):
        before = None
        url = f"/m/{match.pk}/"
        assert client.get(url).status_code == 200
        before = _keys()
        assert before, "the page stored no fragment"
        junk = [f"?diary={n}" for n in (-1, 5, 99, 10**12, "x", "")]
        junk += [f"?x={i}" for i in range(10)] + ["?diary=99&utm=1", "?press=1&before=3"]
        for query in junk:
            assert client.get(url + query).status_code == 200
        for alias in (f"/m/0{match.pk}/", f"/m/00{match.pk}/?z=1"):
            assert client.get(alias).status_code == 200
        assert _keys() == before, sorted(_keys() - before)


def test_an_older_turn_that_exists_is_its_own_entry():
    from games.models import Match
    from games.services.orders import order_submit
    from games.services.seats import seat_checkin
    from games.models import Seat

    alice, bob = make_user("alice"), make_user("bob")
    match = new_match(creator=alice, players=[alice, bob], start=True)
    for user in (alice, bob):  # the first phase closes: turn 1 opens, turn 0 is older
        seat = Seat.objects.get(match=match, user=user)
        order_submit(match=Match.objects.get(pk=match.pk), seat=seat, payload={"guess": 5})
        seat_checkin(match=Match.objects.get(pk=match.pk), seat=seat)
    from games.services.phases import phases_close_due

    phases_close_due()
    client = client_for(alice)
    client.get(f"/m/{match.pk}/")
    plain = _keys()
    client.get(f"/m/{match.pk}/?diary=0")
    assert len(_keys() - plain) >= 1  # turn 0 shown on the board: its own board entry


def test_page_address_drops_the_query_and_rebuilds_ids(rf):
    from django.urls import resolve

    request = rf.get("/m/007/?diary=3&x=1")
    request.resolver_match = resolve("/m/007/")
    assert page_address(request) == "/m/7/"


def test_the_html_cache_is_apart_from_sessions_and_throttles():
    assert set(settings.CACHES) >= {"default", "html"}
    base = __import__("config.settings.base", fromlist=["CACHES"])
    html = base.CACHES["html"]
    if "LocMem" in html["BACKEND"]:
        assert html["OPTIONS"]["MAX_ENTRIES"] > 0  # the embedded server's bound
    assert base.SESSION_ENGINE == "config.sessions"
    assert getattr(base, "SESSION_CACHE_ALIAS", "default") == "default"
