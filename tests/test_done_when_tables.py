"""Issue 24's "Done when", checked exactly on the ``make run`` demo (``seed_demo``):

- at 390 px the Kill Game map's scroll width fits its box, or the page offers zoom, and the
  reader's order form starts within the first two screens;
- ``WRONG_PHASE`` and ``NOT_ALLOWED_THIS_TURN`` answer 409, a dead seat's order answers
  ``403 PLAYER_DEAD``;
- the Dice Slayer home and daily board answer 200 to a visitor; ``/favicon.ico`` answers 200.

The phone check drives Debian's Chromium through Playwright (never ``playwright install``).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse

from games.management.commands.run import DEMO_PASSWORD, seed_demo
from games.models import Match, Phase, Seat
from games.registry import get_rules
from killgame.services import builtin_tables_load

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PHONE = {"width": 390, "height": 844}


def _demo_killgame() -> Match:
    builtin_tables_load()
    seed_demo(write=lambda *_: None)
    return Match.objects.get(game="killgame", status=Match.Status.RUNNING)


def _logged_in(username: str) -> Client:
    from django.contrib.auth import get_user_model

    c = Client()
    c.force_login(get_user_model().objects.get(username=username))
    return c


def _order(client: Client, match: Match, order: dict):
    return client.post(reverse("games:api-order-submit", args=[match.pk]),
                       json.dumps({"order": order}), content_type="application/json")


@pytest.mark.django_db
def test_refusal_statuses_on_the_demo():
    match = _demo_killgame()
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("number"))
    c = _logged_in(seats[0].user.username)
    # turn 1 Tactical: a move is for turn 2 on; an attack belongs to the Action phase
    resp = _order(c, match, {"type": "move", "to": "x"})
    assert resp.status_code in (400, 409)  # an unknown zone is UNKNOWN_ID first (§19 order)
    engine = get_rules("killgame")
    view = engine.player_view(engine.load(match.state), seats[0].number)
    zone = view["map"]["zones"][0]["id"]
    resp = _order(c, match, {"type": "move", "to": zone})
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "NOT_ALLOWED_THIS_TURN"
    resp = _order(c, match, {"type": "shout"})
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "WRONG_PHASE"
    # a dead seat's order: 403 PLAYER_DEAD, telling them so
    dead = seats[-1]
    state = engine.load(match.state)
    state = replace(state, players=tuple(replace(p, alive=False, energy=0, died_turn=1)
                                         if p.seat == dead.number else p
                                         for p in state.players))
    Match.objects.filter(pk=match.pk).update(state=engine.dump(state))
    phase = Phase.objects.get(match=match, closed_at__isnull=True)
    Phase.objects.filter(pk=phase.pk).update(
        awaited=[n for n in phase.awaited if n != dead.number])
    resp = _order(_logged_in(dead.user.username), match, {"type": "start_zone", "zone": zone})
    assert resp.status_code == 403
    assert resp.json()["error"]["code"] == "PLAYER_DEAD"
    assert "dead" in resp.json()["error"]["message"]


@pytest.mark.django_db
def test_public_pages_and_favicon_for_a_visitor():
    visitor = Client()
    assert visitor.get(reverse("diceslayer:home")).status_code == 200
    assert visitor.get(reverse("diceslayer:daily")).status_code == 200
    resp = visitor.get("/favicon.ico")
    assert resp.status_code == 200 and resp["Content-Type"] == "image/x-icon"
    assert resp.content[:4] == b"\x00\x00\x01\x00"  # an ICO file


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_kill_game_map_and_orders_on_a_phone(live_server):
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    match = _demo_killgame()
    player = Seat.objects.filter(match=match).order_by("number").first().user.username
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, headless=True,
                                     args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            page = browser.new_context(viewport=PHONE).new_page()
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("input[name=username]", player)
            page.fill("input[name=password]", DEMO_PASSWORD)
            page.click("button[type=submit]")
            page.goto(f"{live_server.url}{reverse('games:match-detail', args=[match.pk])}")
            box = page.evaluate("""() => { const s = document.querySelector('.kg-map-scroll');
                return [s.scrollWidth, s.clientWidth]; }""")
            zoom = page.locator("#kg-zoom")
            assert box[0] <= box[1] or zoom.is_visible(), box
            order_top = page.evaluate(
                "() => document.getElementById('order').getBoundingClientRect().top + scrollY")
            assert order_top < 2 * PHONE["height"], order_top
        finally:
            browser.close()
