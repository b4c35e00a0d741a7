"""End to end in two real browsers: Alice and Bob hold a private exchange in a running
match through the press panel (htmx), and Bob's unread count in the nav appears by polling
and goes when he reads; Carol, the third seat, never gets the private messages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from press import selectors
from tests.games.views.conftest import PASSWORD, new_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").last.click()
    page.wait_for_url(f"{base}/")


def test_two_players_hold_a_private_exchange_and_see_the_unread_count_change(live_server,
                                                                             browser):
    base = live_server.url
    User = get_user_model()
    alice_u, bob_u, carol_u = (User.objects.create_user(n, f"{n}@example.com", PASSWORD)
                               for n in ("alice", "bob", "carol"))
    match = new_match(creator=alice_u, players=[alice_u, bob_u, carol_u], start=True,
                      name="Whispers")
    bob_seat = match.seats.get(user=bob_u).number
    alice_seat = match.seats.get(user=alice_u).number
    alice = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    log_in(alice, base, "alice")
    log_in(bob, base, "bob")
    assert bob.locator("#press-unread-count").count() == 0

    # Alice writes to Bob only, from the match page (htmx: no navigation)
    alice.goto(f"{base}/m/{match.pk}/")
    url = alice.url
    alice.locator(f"#press-form input[name=seats][value='{bob_seat}']").check()
    alice.locator("#press-text").fill("Truce until turn 4? <b>not bold</b>")
    alice.locator("#press-send").click()
    alice.locator("#press-list", has_text="Truce until turn 4?").wait_for(timeout=10000)
    assert alice.url == url
    assert alice.locator("#press-list b").count() == 0  # markup arrives as text

    # Bob's nav badge shows it without a reload (htmx polling), then the lobby per match
    bob.locator("#press-unread-count", has_text="1").wait_for(timeout=20000)
    bob.reload()
    assert bob.locator(".press-unread", has_text="1 unread").count() == 1
    assert selectors.unread_counts(carol_u, [match.pk]) == {}

    # Bob reads and answers; the count is gone
    bob.goto(f"{base}/m/{match.pk}/")
    bob.locator("#press-list", has_text="Truce until turn 4?").wait_for(timeout=10000)
    assert bob.locator("#press-unread-count").count() == 0
    bob.locator(f"#press-form input[name=seats][value='{alice_seat}']").check()
    bob.locator("#press-text").fill("Deal.")
    bob.locator("#press-send").click()
    bob.locator("#press-list", has_text="Deal.").wait_for(timeout=10000)

    # Alice's panel picks the answer up by polling, without a reload
    alice.locator("#press-list", has_text="Deal.").wait_for(timeout=15000)
    assert alice.url == url

    # Carol, on the same match page, reads none of it
    carol = browser.new_context().new_page()
    log_in(carol, base, "carol")
    carol.goto(f"{base}/m/{match.pk}/")
    html = carol.content()
    assert "Truce until turn 4?" not in html and "Deal." not in html
    assert carol.locator("#press").count() == 1
