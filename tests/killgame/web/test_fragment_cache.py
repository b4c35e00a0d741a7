"""The match page's fragment cache (games/lib/htmlcache.py): a fragment rendered for
one reader never reaches another reader or another match; what changes shows at once
(orders, check-ins, names, away notes, the clock); a cached form carries the reader's own
CSRF token; the language and the code version are in the keys; with the cache down the
page is rendered as before."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.lib import htmlcache
from tests.killgame.web.conftest import (client_for, close_phase, detail_url, kg_match,
                                         make_user, open_phase, submit)
from tests.killgame.web.test_leaks import BOB_SECRETS_T1, _build

pytestmark = pytest.mark.django_db

BOB_CART = {"flamethrower": 1, "gas_launcher": 1, "c4": 3, "gas_mask": 1}


def _html(client, match, **params) -> str:
    resp = client.get(detail_url(match), params)
    assert resp.status_code == 200
    return resp.content.decode()


def _poll(client, match) -> str:
    resp = client.get(reverse("games:match-poll", args=[match.pk]), {"v": 0})
    assert resp.status_code == 200
    return resp.content.decode()


def _fragment_keys() -> list[str]:
    return [k for k in caches["html"]._cache if ":frag:" in k]  # locmem: the keys it holds


def test_a_seats_fragments_never_reach_another_seat_a_visitor_or_another_match():
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    alice, bob, _carol = users
    match = _build(users, bob_zone="cave_nord_est", seed="frag", name="Cached",
                   bob_cart=BOB_CART)
    other = _build(users, bob_zone="cave_sud_est", seed="frag", name="Cached",
                   bob_cart={"shotgun": 1})
    # Bob's own page and poll shows his secrets, and fills the cache
    bob_page = _html(client_for(bob), match) + _poll(client_for(bob), match)
    assert "× flamethrower" in bob_page and "3 × C4" in bob_page
    assert _fragment_keys(), "the page stored no fragment"
    readers = {"alice": client_for(alice), "stranger": client_for(make_user("stranger")),
               "visitor": Client()}
    for who, client in readers.items():
        for html in (_html(client, match), _poll(client, match) if who != "visitor" else "",
                     _html(client, other)):
            for secret in BOB_SECRETS_T1:
                assert secret not in html, (who, secret)
    # Alice's own page twice (the second from the cache) is hers, not Bob's
    first, second = _html(readers["alice"], match), _html(readers["alice"], match)
    assert 'id="kg-panel-h">alice' in second and 'id="kg-panel-h">bob' not in second
    assert _strip_tokens(first) == _strip_tokens(second)
    # the director (staff without a seat) sees where everybody stands, Alice does not
    close_phase(match)
    director = make_user("director")
    director.is_staff = True
    director.save()
    staff = client_for(director)
    _html(readers["alice"], match)  # Alice's fragments first, this time
    people = re.findall(r'class="kg-people">([^<]*)<', _html(staff, match))
    assert any("bob" in p for p in people), people
    assert "kg-people" not in _html(readers["alice"], match)
    assert "kg-people" not in _html(readers["visitor"], match)
    # and the director's key moves with any seat's private change (their orders bump only
    # their own seat's version)
    from games.lib.pages import seat_rows

    before = htmlcache.page_keys(match, None, True, seat_rows(match))["reader"]
    submit(match, bob, {"type": "wear", "items": ["gas_mask"]})
    assert htmlcache.page_keys(match, None, True, seat_rows(match))["reader"] != before


def _strip_tokens(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", html)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "CSRF", html)


def _form_token(html: str) -> str:
    order = re.search(r'<section id="order".*?</section>', html, re.S).group(0)
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', order).group(1)


def test_a_cached_order_form_carries_the_readers_own_csrf_token():
    match, users = kg_match(3, prefix="csrf")
    one, two = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    for client in (one, two):
        client.force_login(users[0])  # two sessions of the same player
    first = _html(one, match)
    second = _html(two, match)  # the order form comes from the cache now
    assert htmlcache.csrf_placeholder() not in first + second
    token = _form_token(second)
    phase = open_phase(match)
    match.refresh_from_db()
    resp = two.post(reverse("killgame:order", args=[match.pk]), {
        "csrfmiddlewaretoken": token, "phase_id": phase.pk, "version": match.version,
        "kind": "start_zone", "start_zone": "ponte_ovest"})
    assert resp.status_code == 302, resp.status_code  # accepted: the token is session two's
    # session one's token is refused in session two (so it was not served to it)
    cookie_one = one.cookies["csrftoken"].value
    assert cookie_one != two.cookies["csrftoken"].value
    resp = two.post(reverse("killgame:order", args=[match.pk]), {
        "csrfmiddlewaretoken": _form_token(first), "phase_id": phase.pk,
        "version": match.version, "kind": "start_zone", "start_zone": "ponte_ovest"})
    assert resp.status_code == 403


def test_what_changes_shows_at_once():
    match, users = kg_match(3, prefix="fresh")
    reader = client_for(users[0])
    html = _html(reader, match)
    assert "fresh1" in html
    # an order of my own (my seat's version)
    submit(match, users[0], {"type": "start_zone", "zone": "ponte_ovest"})
    assert "Ponte Ovest" in re.search(r'id="kg-orders".*?</section>', _html(reader, match),
                                      re.S).group(0)
    # another player's check-in: the count line
    before = re.search(r'id="checkin-count"[^>]*>([^<]+)<', _html(reader, match)).group(1)
    client_for(users[1]).post(reverse("games:checkin", args=[match.pk]),
                              {"phase_id": open_phase(match).pk})
    after = re.search(r'id="checkin-count"[^>]*>([^<]+)<', _html(reader, match)).group(1)
    assert before != after
    # a rename (no version moves): the seat list and the diary names
    users[1].username = "renamed1"
    users[1].save()
    html = _html(reader, match)
    seats = re.search(r'<section id="seats".*?</section>', html, re.S).group(0)
    assert "renamed1" in seats and "fresh1" not in seats
    # an away period declared by another player: the note under the players
    from players.away import away_declare

    today = timezone.localdate()
    away_declare(user=users[2], first=today, last=today + timedelta(days=2))
    assert "fresh2 is away until" in _html(reader, match)
    # the clock: once the period is over the note goes (the minute bucket moves with it;
    # the period's rows are kept under the public version with their bounds, so the clock
    # is what ends it, as it does: periods change in the database only with a version bump)
    import time_machine

    with time_machine.travel(timezone.now() + timedelta(days=4), tick=False):
        assert "fresh2 is away" not in _html(reader, match)
    # a phase close (the public version)
    close_phase(match)
    assert "Action" in re.search(r'id="kg-status".*?</p>', _html(reader, match), re.S).group(0)


def test_the_language_and_the_code_version_are_in_the_keys(monkeypatch):
    match, users = kg_match(3, prefix="lang")
    reader = client_for(users[0])
    english = _html(reader, match)
    users[0].profile.language = "it"
    users[0].profile.save()
    italian = _html(reader, match)
    board = re.compile(r'<section id="board".*?</section>', re.S)
    assert "What you see" in board.search(english).group(0)
    assert "What you see" not in board.search(italian).group(0)
    assert "Save my cart" in english and "Save my cart" not in italian
    users[0].profile.language = "en"
    users[0].profile.save()
    assert _strip_tokens(_html(reader, match)) == _strip_tokens(english)
    keys = htmlcache.page_keys(match, None, False, [])
    monkeypatch.setattr(htmlcache, "code_version", lambda: "another-deploy")
    assert htmlcache.page_keys(match, None, False, []) != keys


def test_the_code_version_follows_the_templates(tmp_path, settings):
    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("one")
    settings.BASE_DIR = tmp_path
    first = htmlcache.code_version.__wrapped__()
    page.write_text("two")
    assert htmlcache.code_version.__wrapped__() != first


class DownCache:
    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("redis down")
        return fail


def test_with_the_cache_down_the_page_is_rendered():
    match, users = kg_match(3, prefix="down")
    reader = client_for(users[0])
    expected = _strip_tokens(_html(reader, match))
    caches["html"].clear()
    with mock.patch.object(htmlcache, "cache", DownCache()):
        assert _strip_tokens(_html(reader, match)) == expected
        assert _poll(reader, match)
    close_phase(match)
    with mock.patch.object(htmlcache, "cache", DownCache()):
        assert "Action" in _html(reader, match)


def test_the_press_panel_follows_every_message_hide_and_mute():
    from press.services import message_hide, message_post, mute_set

    match, users = kg_match(3, prefix="press")
    alice, bob, carol = users
    pages = {u.username: client_for(u) for u in users}

    def panel(who: str) -> str:
        html = _html(pages[who], match)
        return re.search(r'<section class="card press".*?</section>', html, re.S).group(0)

    assert "No messages yet" in panel("press0") and "No messages yet" in panel("press2")
    message_post(match=match, user=bob, to="all", text="hello from bob")
    assert "hello from bob" in panel("press0")
    message_post(match=match, user=bob, to=[carol_seat(match, carol)], text="for carol only")
    assert "for carol only" in panel("press2")
    assert "for carol only" not in panel("press0")
    first = message_post(match=match, user=carol, to="all", text="carol speaks")
    assert "carol speaks" in panel("press0") and "carol speaks" in panel("press1")
    mute_set(match=match, user=alice, seat_number=carol_seat(match, carol), muted=True)
    assert "carol speaks" not in panel("press0")
    director = make_user("press-director")
    director.is_staff = True
    director.save()
    message_hide(match=match, actor=director, message_id=first.pk)
    assert "carol speaks" not in panel("press1")


def carol_seat(match, user) -> int:
    from games.models import Seat

    return Seat.objects.get(match=match, user=user).number
