"""Accessibility in Debian's Chromium (Playwright):

- axe-core (WCAG 2.1 A/AA rules, shipped by the axe-playwright-python package) finds no
  serious or critical violation on the pages of every game of the demo site (the data
  ``manage.py run`` seeds), as the player demo1 and as a visitor, at phone (390 px) and
  desktop (1440 px) widths, in light and dark schemes; no page scrolls sideways on a phone;
- a Kill Game turn (Tactical and Action) is played with the keyboard alone: Tab to a zone
  of the map, Enter, Tab to "Check in", Enter — focus stays where the player acted.
"""

from __future__ import annotations

import io
import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.management.commands.run import DEMO_PASSWORD, Command
from games.models import Match, Phase
from games.services.seats import seat_checkin
from killgame.services import builtin_tables_load

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


def seed_demo() -> None:
    builtin_tables_load()
    command = Command(stdout=io.StringIO())
    command._seed_admin()
    command._seed_matches()


def log_in(page, base: str, username: str, password: str = DEMO_PASSWORD) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def audit(page, url: str, label: str, problems: list[str], axe: Axe) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    result = axe.run(page, options=WCAG)
    for v in result.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = "; ".join(str(n["target"]) for n in v["nodes"][:3])
            problems.append(f"{label} {url}: {v['id']} ({v['impact']}) at {nodes}")
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        problems.append(f"{label} {url}: the page scrolls sideways ({scroll}px > {width}px)")


def demo_pages(base: str) -> tuple[list[str], list[str]]:
    """(pages every combination checks: home, login and demo1's match pages; the rest of
    every game's pages, checked at phone/dark and desktop/light)."""
    mine = list(Match.objects.filter(seats__user__username="demo1").order_by("pk"))
    assert {m.game for m in mine} >= {"killgame", "diceslayer", "sanguosha"}
    core = [f"{base}/", *[f"{base}/m/{m.pk}/" for m in mine]]
    by_game = {m.game: m for m in mine}
    kg, ds, sgs = by_game["killgame"], by_game["diceslayer"], by_game["sanguosha"]
    rest = [f"{base}/sanguosha/m/{sgs.pk}/", f"{base}/diceslayer/m/{ds.pk}/",
            f"{base}/killgame/m/{kg.pk}/watch/", f"{base}/diceslayer/",
            f"{base}/diceslayer/daily/", f"{base}/diceslayer/leaderboard/",
            f"{base}/diceslayer/versus/new/", f"{base}/sanguosha/cards/",
            f"{base}/sanguosha/new/", f"{base}/m/new/", f"{base}/m/new/killgame/",
            f"{base}/accounts/profile/", f"{base}/players/u/demo1/",
            f"{base}/players/m/{kg.pk}/seats/", f"{base}/players/away/",
            f"{base}/players/leaderboard/killgame/", f"{base}/players/open-seats/"]
    return core, rest


def test_axe_finds_no_serious_violation_on_the_demo_site(live_server, browser):
    seed_demo()
    base = live_server.url
    axe = Axe()
    problems: list[str] = []
    core, rest = demo_pages(base)
    for size_name, size in SIZES.items():
        for scheme in ("light", "dark"):
            label = f"[{size_name}/{scheme}]"
            visitor = browser.new_context(viewport=size, color_scheme=scheme).new_page()
            for url in (f"{base}/", f"{base}/accounts/login/", f"{base}/accounts/signup/"):
                audit(visitor, url, label + " visitor", problems, axe)
            visitor.context.close()
            page = browser.new_context(viewport=size, color_scheme=scheme).new_page()
            log_in(page, base, "demo1")
            pages = core + (rest if (size_name, scheme) in (("phone", "dark"),
                                                            ("desktop", "light")) else [])
            for url in pages:
                audit(page, url, label, problems, axe)
            page.context.close()
    assert not problems, "\n".join(problems)


def tab_to(page, selector: str, limit: int = 200) -> None:
    """Press Tab until the focused element matches ``selector`` (keyboard only)."""
    for _ in range(limit):
        if page.evaluate("s => !!(document.activeElement && document.activeElement.matches(s))",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def check_in_by_keyboard(page) -> None:
    tab_to(page, "#checkin-button")
    with page.expect_response(lambda r: "/checkin/" in r.url and r.request.method == "POST"):
        page.keyboard.press("Enter")
    try:
        page.locator("#my-checkin").wait_for(timeout=10000)
    except Exception:
        print("PHASE STATUS:", page.locator("#phase-status").inner_text(), page.locator("#messages").inner_text())
        raise
    # focus stays on the control that acted (now "Withdraw check-in"), not the page top
    assert page.evaluate("document.activeElement.id") == "checkin-button"


def test_a_kill_game_turn_by_keyboard_alone(live_server, browser):
    seed_demo()
    base = live_server.url
    match = Match.objects.get(game="killgame")
    page = browser.new_context(viewport=SIZES["desktop"]).new_page()
    page.on("dialog", lambda d: d.accept())
    log_in(page, base, "demo1")
    page.goto(f"{base}/m/{match.pk}/")
    others = list(match.seats.exclude(user__username="demo1"))

    # Tactical, turn 1: a start zone chosen on the map (a named control) with Enter
    assert "Tactical phase" in page.locator("#kg-status").inner_text()
    tab_to(page, ".kg-zone.z-startable")
    zone = page.evaluate("document.activeElement.id")
    name = page.evaluate("document.activeElement.querySelector('title').textContent")
    assert "you can" in name or "open" in name
    with page.expect_response(lambda r: "/order/" in r.url and r.request.method == "POST"):
        page.keyboard.press("Enter")
    page.locator("body", has_text="Your order is saved").wait_for(timeout=10000)
    assert page.evaluate("document.activeElement.id") == zone  # focus did not jump away
    check_in_by_keyboard(page)
    phase = Phase.objects.get(match=match, closed_at__isnull=True)
    for seat in others:
        seat_checkin(match=match, seat=seat, phase_id=phase.pk)

    # Action, turn 1: every check-in closes the phase early; check in by keyboard again
    page.wait_for_function(
        "() => document.querySelector('#kg-status').textContent.includes('Action phase')",
        timeout=20000)
    page.reload()
    check_in_by_keyboard(page)
    phase = Phase.objects.get(match=match, closed_at__isnull=True)
    for seat in others:
        seat_checkin(match=match, seat=seat, phase_id=phase.pk)

    # Tactical, turn 2: a move to a reachable zone, keyboard only
    page.wait_for_function(
        "() => /Turn 2/.test(document.querySelector('#kg-status').textContent)", timeout=20000)
    page.reload()
    tab_to(page, ".kg-zone.z-reachable")
    with page.expect_response(lambda r: "/order/" in r.url and r.request.method == "POST"):
        page.keyboard.press("Enter")
    page.locator("#kg-orders", has_text=re.compile("Move", re.I)).wait_for(timeout=10000)
    # the map and its list say the same things: every zone is named in the list
    rows = page.locator("#kg-zone-list tbody tr").count()
    assert rows == page.locator(".kg-zone").count() and rows > 0
    page.context.close()
