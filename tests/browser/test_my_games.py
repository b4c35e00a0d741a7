"""In a real browser: the "your move" count in the nav and the title of every page, and
the "My games" page ordered by deadline; checking in on one match brings the count down
(issue #12)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import selectors
from games.models import Phase
from tests.factories import make_match, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_nav_count_and_my_games(browser, live_server):
    me, other = make_user("nora"), make_user("otto")
    later = make_match(users=[me, other], name="Later match")
    soon = make_match(users=[me, other], name="Soon match")
    deadline = selectors.current_phase(soon).deadline_at
    Phase.objects.filter(match=later, closed_at__isnull=True).update(
        deadline_at=deadline + timedelta(hours=3))
    base = live_server.url
    page = browser.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("nora")
    page.get_by_label("Password").fill("pw-nora")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    assert page.locator("#your-move-count").inner_text() == "2"
    assert page.title().startswith("(2) ")

    page.locator("#nav-my-games").click()
    page.wait_for_url(f"{base}/my/")
    assert page.title().startswith("(2) My games")
    rows = page.locator("#my-games tbody tr")
    assert rows.count() == 2
    assert "Soon match" in rows.nth(0).inner_text()  # the nearest deadline first
    assert "Later match" in rows.nth(1).inner_text()
    assert rows.nth(0).locator(".badge.move").inner_text() == "Your move"

    rows.nth(0).get_by_role("link", name="Soon match").click()
    page.get_by_role("button", name="Check in: I am done").click()
    page.locator("#phase-status", has_text="You are checked in").wait_for(timeout=10000)
    page.goto(f"{base}/my/")
    assert page.locator("#your-move-count").inner_text() == "1"
    assert page.title().startswith("(1) My games")
    first = page.locator("#my-games tbody tr").nth(0)
    assert "Soon match" in first.inner_text() and "Done" in first.inner_text()
