"""End to end in a real browser: two people sign up, create and join a guess match, the
match starts, each submits a guess through the no-JS form and checks in, the last check-in
closes the phase through the backend, and the first player's page updates its diary by
htmx polling without a reload. Screenshots of the lobby and the match page at phone
(390 px) and desktop widths go to docs/screenshots/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail

from games.models import Match, Phase

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"
SHOTS = Path(settings.BASE_DIR) / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def sign_up(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(f"{base}/accounts/signup/sent/")
    assert "Check your email" in page.content()
    # the confirmation link from the email (the live server shares this process's outbox)
    body = next(m.body for m in reversed(mail.outbox) if m.to == [f"{username}@example.com"])
    page.goto(base + re.search(r"https?://[^/\s]+(/accounts/verify/\S+)", body).group(1))
    page.wait_for_url(f"{base}/")
    assert f"Welcome, {username}!" in page.content()


def submit_guess(page, guess: int) -> None:
    """The order form posts with htmx (hx-post) and the fragments swap in place."""
    url = page.url
    page.get_by_label("Your order (JSON)").fill(f'{{"guess": {guess}}}')
    page.get_by_role("button", name="Save order").click()
    page.locator("#messages", has_text="Your order is saved").wait_for(timeout=10000)
    page.locator("#diary", has_text=f"You guessed {guess}.").wait_for(timeout=10000)
    assert page.url == url  # no navigation: htmx swapped the fragments


def check_in(page) -> None:
    page.get_by_role("button", name="Check in: I am done").click()
    page.locator("#phase-status", has_text="You are checked in").wait_for(timeout=10000)


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)


def test_two_players_play_a_round_of_guess(live_server, browser):
    base = live_server.url
    alice = browser.new_context(viewport=DESKTOP).new_page()
    bob = browser.new_context(viewport=PHONE).new_page()

    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")

    # alice creates a public match of the guess game (the form comes from config_schema)
    alice.get_by_role("link", name="New match").click()
    alice.get_by_role("link", name="Guess a Number").click()
    alice.get_by_label("Name").fill("Browser match")
    alice.get_by_label("Minimum players").fill("2")
    alice.get_by_label("Rounds").fill("2")
    alice.get_by_label("Deadlines").select_option("check")
    alice.get_by_role("button", name="Create the match").click()
    alice.wait_for_url(f"{base}/m/*/")
    match = Match.objects.get(name="Browser match")

    # bob joins from the lobby
    bob.goto(f"{base}/")
    row = bob.locator("#open-matches li", has_text="Browser match")
    row.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"{base}/m/{match.pk}/")
    assert "You joined the match" in bob.content()

    # alice starts it by hand
    alice.reload()
    alice.get_by_role("button", name="Start now").click()
    alice.wait_for_load_state()
    assert "The match has started" in alice.content()
    assert "0 of 2 checked in" in alice.locator("#phase-status").inner_text()
    first_phase = Phase.objects.get(match=match, number=1) if Phase.objects.filter(
        match=match, number=1).exists() else Phase.objects.filter(match=match).first()

    # a bad order gets its message next to the form, nothing saved
    alice.get_by_label("Your order (JSON)").fill('{"guess": 500}')
    alice.get_by_role("button", name="Save order").click()
    alice.locator("#order-error", has_text="Guess a number from 1 to 100.").wait_for(timeout=10000)

    submit_guess(alice, 25)
    check_in(alice)
    assert "1 of 2 checked in" in alice.locator("#phase-status").inner_text()

    bob.goto(f"{base}/m/{match.pk}/")
    assert "You guessed 25" not in bob.content()  # alice's guess stays hers
    submit_guess(bob, 75)
    bob.get_by_role("button", name="Check in: I am done").click()

    # bob's check-in completed the awaited set: the backend closed the phase at once
    bob.locator("#diary", has_text="Round 1: the number was").wait_for(timeout=10000)
    first_phase.refresh_from_db()
    assert first_phase.closed_at is not None

    # alice did not reload: her page polls /m/<id>/poll/?v=… and swaps the fragments in
    alice.locator("#diary", has_text="Round 1: the number was").wait_for(timeout=15000)
    assert "Your guess was 25." in alice.locator("#diary").inner_text()
    assert "Seat 1 guessed 75" not in alice.locator("#diary").inner_text()
    alice.locator("#phase-status", has_text="0 of 2 checked in").wait_for(timeout=15000)
    assert "Check in: I am done" in alice.locator("#phase-status").inner_text()
    assert alice.locator("#history td", has_text="Guess").count() == 1

    # without JavaScript the same forms post and redirect (Post/Redirect/Get)
    nojs = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    nojs.goto(f"{base}/accounts/login/")
    nojs.get_by_label("Username").fill("bob")
    nojs.get_by_label("Password").fill(PASSWORD)
    nojs.get_by_role("button", name="Log in").click()
    nojs.goto(f"{base}/m/{match.pk}/")
    nojs.get_by_label("Your order (JSON)").fill('{"guess": 11}')
    nojs.get_by_role("button", name="Save order").click()
    nojs.wait_for_load_state()
    assert "Your order is saved" in nojs.locator("#messages").inner_text()
    assert "You guessed 11." in nojs.locator("#diary").inner_text()
    assert nojs.locator(".countdown").count() == 0  # plain time, no script

    # the countdown script ran
    assert "left" in alice.locator(".countdown").first.inner_text()

    # alice sets her time zone on the profile page: deadlines follow it
    alice.goto(f"{base}/accounts/profile/")
    alice.get_by_label("Time zone").select_option("Europe/Rome")
    alice.get_by_role("button", name="Save preferences").click()
    alice.locator("#messages", has_text="Your preferences are saved").wait_for()
    alice.goto(f"{base}/m/{match.pk}/")
    deadline = alice.locator("#phase-status time").inner_text()
    assert deadline.endswith(("CET", "CEST")), deadline

    shoot(alice, "match")
    from tests.games.views.conftest import new_match
    from django.contrib.auth import get_user_model

    bob_user = get_user_model().objects.get(username="bob")
    new_match(creator=bob_user, players=[bob_user], name="Sunday guess")
    alice.goto(f"{base}/")
    assert alice.locator("#open-matches li", has_text="Sunday guess").get_by_role(
        "button", name="Join").count() == 1
    assert "Your move" in alice.locator("body").inner_text()
    shoot(alice, "lobby")
    for name in ("match", "lobby"):
        for label in ("phone", "desktop"):
            assert (SHOTS / f"{name}-{label}.png").stat().st_size > 5000
