"""Dice Slayer end to end in Debian's Chromium (Playwright, never ``playwright install``):

- a player plays today's daily challenge to game over with the keyboard only (1–6 pick,
  S shows the scoring picks, H asks the bot), copies the shareable result, steps through
  the replay with the arrow keys;
- two players in two browser contexts play a versus match (low target score): the waiting
  page updates itself by htmx polling, turns alternate, and both see the end.

Screenshots (phone 390 px and desktop) go to docs/screenshots/diceslayer-*.png.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings

from diceslayer import engine
from diceslayer.models import DailyAttempt
from games.models import Match
from tests.games.views.conftest import PASSWORD, make_user

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(settings.BASE_DIR) / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MAX_ROUNDS = 300


@pytest.fixture
def chromium(chromium_path):
    path = chromium_path
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, headless=True,
                                     args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"diceslayer-{name}-{label}.png"), full_page=True)
        assert (SHOTS / f"diceslayer-{name}-{label}.png").stat().st_size > 5000


def board_version(page) -> str:
    """Mark the board on screen as old (an htmx swap replaces the whole element)."""
    page.evaluate("document.getElementById('ds-board').dataset.old = '1'")
    return ""


def wait_new_board(page, version: str = "") -> None:
    page.wait_for_function(
        "() => { const b = document.getElementById('ds-board'); return b && !b.dataset.old; }",
        timeout=15000)


def focus_in_board(page) -> bool:
    return page.evaluate("() => { const a = document.activeElement;"
                         " return !!(a && a.closest && a.closest('#ds-board')); }")


def tab_into_board(page) -> None:
    """Shortcuts act only while the focus is on the board (WCAG 2.1.4): Tab there first.
    After an htmx swap the focus stays on the board (it returns to the control that acted)."""
    for _ in range(80):
        if focus_in_board(page):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the board")


def press_and_wait(page, key: str) -> None:
    tab_into_board(page)
    version = board_version(page)
    page.keyboard.press(key)
    wait_new_board(page, version)


def wait_focus_in_board(page) -> None:
    """Wait until the focus is inside the board: a11y.js gives it back once htmx has
    settled the swap (a shortcut pressed in between would land outside the board)."""
    page.wait_for_function(
        "() => { const a = document.activeElement;"
        " return !!(a && a.closest && a.closest('#ds-board')); }", timeout=5000)


def test_solo_daily_to_game_over_with_the_keyboard(live_server, chromium):
    base = live_server.url
    make_user("alice")
    context = chromium.new_context(viewport=DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    log_in(page, base, "alice")

    page.goto(f"{base}/diceslayer/")
    page.get_by_role("button", name="Play today's challenge").click()
    page.wait_for_url(re.compile(r".*/diceslayer/m/\d+/$"))
    assert "press 1–6 to pick a die of that face" in page.locator("#ds-keys").inner_text()
    assert page.locator("#ds-panel-0 svg.die").count() == 3

    # single-key shortcuts do nothing while the focus is elsewhere on the page …
    page.locator("a.brand").focus()
    page.keyboard.press("h")
    page.wait_for_timeout(300)
    assert page.locator("#ds-hint-box").count() == 0
    # … and act once the keyboard has moved into the board
    tab_into_board(page)
    url = page.url
    page.keyboard.press("h")
    page.locator("#ds-hint-box").wait_for()
    assert "The bot suggests:" in page.locator("#ds-hint-box").inner_text()
    assert page.url == url
    shoot(page, "solo")
    page.set_viewport_size(DESKTOP)

    rounds = 0
    scoring_seen = False
    while page.locator("#ds-over").count() == 0:
        rounds += 1
        assert rounds < MAX_ROUNDS, "the game should end"
        # S: light up the picks that score; press the digit of a lit die if there is one
        wait_focus_in_board(page)  # the last move's answer has settled (a key pressed before is lost)
        press_and_wait(page, "s")
        hot = page.locator("#ds-panel-0 button.ds-die.hot")
        if hot.count():
            scoring_seen = True
            key = hot.first.get_attribute("value")
        else:
            key = page.locator("#ds-panel-0 button[data-key]").first.get_attribute("data-key")
        before = page.locator("#ds-round").inner_text()
        # after a move the focus comes back to the board (a11y.js, once htmx has settled)
        wait_focus_in_board(page)
        press_and_wait(page, key)
        if page.locator("#ds-over").count() == 0:
            assert int(page.locator("#ds-round").inner_text()) == int(before) + 1
    assert page.locator("#ds-error").count() == 0

    match = Match.objects.get(game="diceslayer")
    state = engine.load(match.state)
    assert match.status == Match.Status.FINISHED and state.over
    final = page.locator("#ds-final-score").inner_text()
    assert int(final) == state.players[0].score
    assert DailyAttempt.objects.get().score == state.players[0].score
    if state.players[0].score:
        assert scoring_seen
    share = page.locator("#ds-share").input_value()
    assert share.startswith(f"Dice Slayer daily ") and f"{final} points" in share
    page.get_by_role("button", name="Copy result").click()
    page.locator("[data-copied]").wait_for(state="visible")
    assert page.evaluate("navigator.clipboard.readText()") == share
    shoot(page, "solo-over")

    # the replay steps with the arrow keys
    page.set_viewport_size(DESKTOP)
    page.get_by_role("link", name="Replay the game").click()
    page.wait_for_url(re.compile(r".*/replay/$"))
    last = int(page.locator("#ds-step").inner_text())
    assert last == rounds
    page.goto(page.url + "?step=0")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r".*step=1$"))
    assert page.locator("#ds-step").inner_text() == "1"
    shoot(page, "replay")

    # the day's leaderboard has the score
    page.goto(f"{base}/diceslayer/daily/")
    assert re.search(rf"1\s+alice\s+{final}", page.locator("#ds-daily-table").inner_text())
    shoot(page, "daily")
    page.goto(f"{base}/diceslayer/")
    assert f"Your score today: {final}" in page.locator("#ds-daily").inner_text()
    shoot(page, "home")
    context.close()


def play_turn(page) -> None:
    """The player to move presses S, then the digit of a lit die of their own, or clicks a
    lit die of the opponent's, else presses the first key of their own field (or takes
    from the opponent when their own field is empty)."""
    press_and_wait(page, "s")
    tab_into_board(page)
    mine = page.locator(".ds-panel.mine button.ds-die.hot")
    theirs = page.locator(".ds-panel:not(.mine) button.ds-die.hot")
    version = board_version(page)
    if mine.count():
        page.keyboard.press(mine.first.get_attribute("value"))
    elif theirs.count():
        page.keyboard.press("Shift+" + theirs.first.get_attribute("value"))
    elif page.locator(".ds-panel.mine button[data-key]").count():
        page.keyboard.press(page.locator(".ds-panel.mine button[data-key]").first.get_attribute("data-key"))
    else:
        page.locator(".ds-panel:not(.mine) button.ds-die").first.click()
    wait_new_board(page, version)


def test_versus_between_two_browsers_to_the_end(live_server, chromium):
    base = live_server.url
    make_user("alice")
    make_user("bob")
    alice = chromium.new_context(viewport=DESKTOP).new_page()
    bob = chromium.new_context(viewport=PHONE).new_page()
    log_in(alice, base, "alice")
    log_in(bob, base, "bob")

    alice.goto(f"{base}/diceslayer/versus/new/")
    alice.get_by_label("Player's username").fill("bob")
    alice.get_by_label("Time per turn").select_option("12")
    alice.get_by_label("Target score").fill("10")
    alice.get_by_role("button", name="Create the game").click()
    alice.wait_for_url(re.compile(r".*/diceslayer/m/\d+/$"))
    match = Match.objects.get(game="diceslayer")
    assert match.config == {"variant": "versus2", "target_score": 10}

    # the challenge waits for bob's answer (issue #10): alice sees it, bob accepts it
    assert "Waiting for bob to accept or decline." in alice.locator("#ds-challenge").inner_text()
    bob.goto(f"{base}/diceslayer/")
    assert "alice challenges you" in bob.locator("#ds-challenges-in").inner_text()
    bob.locator("#ds-challenges-in").get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(rf".*/diceslayer/m/{match.pk}/$"))
    alice.reload()
    pages = {"alice": alice, "bob": bob}

    def mover() -> str:
        state = engine.load(Match.objects.get(pk=match.pk).state)
        return match.seats.get(number=state.to_move).user.username

    # first turn: the waiting page updates itself (htmx poll) without a reload
    first = mover()
    waiting = "bob" if first == "alice" else "alice"
    assert "Waiting for" in pages[waiting].locator("#ds-turn").inner_text()
    assert "Your turn" in pages[first].locator("#ds-turn").inner_text()
    assert "deadline" in pages[first].locator("#ds-board").inner_text()
    play_turn(pages[first])
    pages[waiting].locator("#ds-turn", has_text="Your turn").wait_for(timeout=15000)
    shoot(pages[waiting], "versus")

    turns = 1
    while Match.objects.get(pk=match.pk).status == Match.Status.RUNNING:
        turns += 1
        assert turns < 200, "the match should end"
        who = mover()
        page = pages[who]
        page.reload()
        assert "Your turn" in page.locator("#ds-turn").inner_text()
        play_turn(page)

    match.refresh_from_db()
    state = engine.load(match.state)
    winner = match.seats.get(number=state.winner).user.username
    for name, page in pages.items():
        page.reload()
        over = page.locator("#ds-over").inner_text()
        assert ("You won!" if name == winner else f"{winner} won.") in over
    shoot(pages[winner], "versus-over")
