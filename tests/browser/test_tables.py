"""The tables players see (issue 24), in Debian's Chromium through Playwright:

- the Kill Game map at 390 px fits its box, "Zoom the map" doubles it inside its own frame
  (which then scrolls sideways and says so), and the orders start within two screens;
- a keyboard-only turn of each game: Kill Game (start zone, then the check-in), Dice Slayer
  (a pick), Three Kingdoms Kill (tick the target, press Kill) — Tab, Space and Enter only;
- after a Three Kingdoms Kill answer the focus goes to what comes next (the turn banner or
  the next ask), not back to the top of the page.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import CheckIn, Match, Order, Seat
from games.services.matches import match_create, match_join, match_start
from killgame.services import builtin_tables_load
from tests.browser.test_sanguosha_play import prepared_position

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WAIT = 20000


def _users(*names):
    return [get_user_model().objects.create_user(username=n, password=PASSWORD,
                                                 email=f"{n}@example.com") for n in names]


def _log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def _tab_to(page, selector: str, text: str = "", limit: int = 250) -> None:
    """Press Tab until the element matching ``selector`` (and holding ``text``) has the
    focus (keyboard only)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("([s, t]) => { const a = document.activeElement;"
                         " return !!a && a.matches(s) && a.textContent.includes(t); }",
                         [selector, text]):
            return
    raise AssertionError(f"Tab never reached {selector} {text}")


def _killgame(names):
    builtin_tables_load()
    users = _users(*names)
    match = match_create(game="killgame", name="Phone table", created_by=users[0],
                         config={"map": "inferno", "monster_count": 1, "budget": 1000},
                         min_players=2, max_players=10)
    for u in users:
        match_join(match=match, user=u)
    return match_start(match=match), users


def test_the_phone_map_fits_and_zooms(live_server, browser):
    match, users = _killgame(["ann", "ben", "cat"])
    page = browser.new_context(viewport=PHONE).new_page()
    _log_in(page, live_server.url, "ann")
    page.goto(live_server.url + reverse("games:match-detail", args=[match.pk]))
    frame = "() => { const s = document.getElementById('kg-map-scroll'); return [s.scrollWidth, s.clientWidth]; }"
    wide, box = page.evaluate(frame)
    assert wide <= box  # the whole map is in view
    assert not page.locator("#kg-scroll-cue").is_visible()
    zoom = page.locator("#kg-zoom")
    assert zoom.is_visible() and zoom.get_attribute("aria-pressed") == "false"
    zoom.click()
    wide, box = page.evaluate(frame)
    assert wide > box and zoom.get_attribute("aria-pressed") == "true"
    assert page.locator("#kg-scroll-cue").is_visible()  # "scroll the map sideways"
    top = page.evaluate("() => document.getElementById('order').getBoundingClientRect().top + scrollY")
    assert top < 2 * PHONE["height"]
    # the jump link reaches the orders too
    assert page.locator("#kg-jump a[href='#order']").count() == 1


def test_a_keyboard_only_kill_game_turn(live_server, browser):
    match, users = _killgame(["dan", "eve"])
    page = browser.new_context(viewport=DESKTOP).new_page()
    _log_in(page, live_server.url, "dan")
    page.goto(live_server.url + reverse("games:match-detail", args=[match.pk]))
    _tab_to(page, "#start_zone")
    page.keyboard.press("ArrowDown")  # the first start zone
    _tab_to(page, "#btn-start_zone")
    with page.expect_response(lambda r: "/order/" in r.url and r.request.method == "POST"):
        page.keyboard.press("Enter")
    page.locator("body", has_text="Your order is saved").wait_for(timeout=WAIT)
    seat = Seat.objects.get(match=match, user__username="dan")
    assert Order.objects.filter(seat=seat, payload__type="start_zone").exists()
    page.keyboard.press("Control+Home")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    _tab_to(page, "#checkin-button")
    with page.expect_response(lambda r: "/checkin/" in r.url and r.request.method == "POST"):
        page.keyboard.press("Enter")
    page.locator("#my-checkin").wait_for(timeout=WAIT)
    assert CheckIn.objects.filter(seat=seat).exists()


def test_a_keyboard_only_dice_slayer_move(live_server, browser):
    from diceslayer import services

    (fay,) = _users("fay")
    match = services.solo_start(user=fay, variant="solo")
    page = browser.new_context(viewport=DESKTOP).new_page()
    _log_in(page, live_server.url, "fay")
    page.goto(live_server.url + reverse("diceslayer:play", args=[match.pk]))
    _tab_to(page, "#ds-pick-form button[name=pick]")
    with page.expect_response(lambda r: "/pick/" in r.url and r.request.method == "POST"):
        page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#ds-board') !== null", timeout=WAIT)
    assert Order.objects.filter(phase__match=match).count() == 1


def test_a_keyboard_only_three_kingdoms_answer_moves_the_focus_on(live_server, browser):
    from sanguosha.services import catalogue_sync, match_load_state

    catalogue_sync()
    users = _users("liu", "guan", "zhang", "zhao")
    match = match_create(game="sanguosha", name="Focus", created_by=users[0],
                         min_players=4, max_players=4)
    for u in users:
        match_join(match=match, user=u)
    match = match_start(match=match)
    state, _ = prepared_position()
    match_load_state(match=Match.objects.get(pk=match.pk), state=state)
    rebel = Seat.objects.get(match=match, number=1).user.username
    page = browser.new_context(viewport=DESKTOP).new_page()
    _log_in(page, live_server.url, rebel)
    page.goto(live_server.url + reverse("sanguosha:table", args=[match.pk]))
    before = Match.objects.values_list("version", flat=True).get(pk=match.pk)
    _tab_to(page, "#seat-0 input[name=targets]")
    page.keyboard.press("Space")
    _tab_to(page, "#ask-buttons button", "Use Kill")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.version) > {before}",
        timeout=WAIT)
    assert page.locator("#answer-error").count() == 0
    focused = page.evaluate("() => document.activeElement && document.activeElement.id")
    assert focused in ("turn-banner", "ask-h"), focused
