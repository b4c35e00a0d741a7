"""In a real browser, by keyboard only (issue 32): from the match page, Tab to "Previous
phase" and press Enter (the address says ?phase=<n>), Tab to the phase list, pick an older
phase with the arrow keys and press Enter on "Show", then "Next phase" and "Back to now"."""

from __future__ import annotations

import pytest

from games.models import Phase
from games.services.phases import phase_close
from tests.browser.test_together import _context
from tests.factories import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tab_to(page, ident: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == ident:
            return
    raise AssertionError(f"#{ident} is not reachable by Tab")


def test_the_phase_selector_works_by_keyboard(live_server, browser):
    match = make_match(game="guess", players=2, config={"rounds": 6})
    for _ in range(3):
        phase_close(phase_id=Phase.objects.get(match=match, closed_at__isnull=True).pk)
    user = match.seats.order_by("number").first().user
    page = _context(browser, live_server, user).new_page()
    base = f"{live_server.url}/m/{match.pk}/"
    page.goto(base)

    _tab_to(page, "lookback-prev")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("?phase=3")
    assert page.locator("#past-h").inner_text().startswith("Phase 3")

    _tab_to(page, "lookback-select")
    page.keyboard.press("ArrowDown")  # newest first: down is older
    page.keyboard.press("ArrowDown")
    _tab_to(page, "lookback-go")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("?phase=1")
    assert page.locator("#past-h").inner_text().startswith("Phase 1")

    _tab_to(page, "lookback-next")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("?phase=2")

    _tab_to(page, "lookback-now")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == base


def test_axe_finds_no_serious_violation_on_past_phase_pages(live_server, browser):
    """The selector and a past Kill Game board (map, panel, diary), as a player and as a
    visitor, on a phone and a desktop, light and dark."""
    from axe_playwright_python.sync_playwright import Axe

    from killgame.services import builtin_tables_load
    from tests.browser.test_accessibility import SIZES, audit
    from tests.games.lookback.test_killgame_lookback import _match

    builtin_tables_load()
    match, (alice, _bob, _carol) = _match()
    base = f"{live_server.url}/m/{match.pk}/"
    axe, problems = Axe(), []
    for who in (alice, None):
        for scheme in ("light", "dark"):
            context = (_context(browser, live_server, who) if who is not None
                       else browser.new_context())
            page = context.new_page()
            page.emulate_media(color_scheme=scheme)
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                # (the live page is the demo audit's: tests/browser/test_accessibility.py)
                for url in (f"{base}?phase=1", f"{base}?phase=3", f"{base}?phase=x"):
                    audit(page, url, f"{getattr(who, 'username', 'visitor')} {size} {scheme}",
                          problems, axe)
            context.close()
    assert not problems, "\n".join(problems)
