"""End to end in a real browser (Playwright + Debian Chromium): four people sign up, Alice
creates a Kill Game match on the Inferno map from the lobby, the others join, she starts
it, and the match is played through the pages only — shopping with the live budget, the
start zone picked on the map, an attack in the Action phase, a move by tapping a reachable
zone — with every phase closed by the real close service at its deadline
(``phases_close_due(now=deadline)``), until Alice wins. Along the way it checks the map
states, the diary, the public feed, the spectator page and the replay, and saves
screenshots of the main screens at phone (390 px) and desktop widths into
docs/screenshots/killgame-*.png.

The short config: 4 players, budget 400, one monster, and a closed zone that kills
(``closed_zone_damage`` 100), so three players who stay in the first zone to close die at
turn 2's Tactical close.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings

from games.models import Match, Phase
from games.services.phases import phases_close_due
from killgame.services import builtin_tables_load
from tests.browser.test_play_guess import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(settings.BASE_DIR) / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for label, vp in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(vp)
        page.screenshot(path=str(SHOTS / f"killgame-{name}-{label}.png"), full_page=True)
        assert (SHOTS / f"killgame-{name}-{label}.png").stat().st_size > 5000
    page.set_viewport_size(size)


def close_phase(match: Match) -> None:
    """The beat sweeps a minute before the deadline and again at the deadline."""
    phase = Phase.objects.get(match=match, closed_at__isnull=True)
    phases_close_due(now=phase.deadline_at - timedelta(minutes=1))
    assert phases_close_due(now=phase.deadline_at) >= 1


def save(page, button_id: str, expect: str = "Your order is saved") -> None:
    """Press an order button: htmx posts it and swaps the fragments (message included)."""
    with page.expect_response(lambda r: "/order/" in r.url and r.request.method == "POST"):
        page.locator(f"#{button_id}").click()
    page.locator("body", has_text=expect).wait_for(timeout=10000)


def zone_classes(page, zone: str) -> str:
    return page.locator(f"#zone-{zone}").get_attribute("class") or ""


def test_four_players_play_kill_game_to_the_winner(live_server, browser):
    base = live_server.url
    builtin_tables_load()  # the data migration's rows (a flush by an earlier test empties them)
    names = ["alice", "bob", "carol", "dave"]
    pages = {}
    for i, name in enumerate(names):
        ctx = browser.new_context(viewport=PHONE if i % 2 else DESKTOP)
        page = ctx.new_page()
        page.on("dialog", lambda d: d.accept())
        sign_up(page, base, name)
        pages[name] = page
    alice, bob, carol, dave = (pages[n] for n in names)

    # Alice creates the match from the generic create page (the game's config form)
    alice.get_by_role("link", name="New match").click()
    alice.get_by_role("link", name="Kill Game").click()
    alice.locator("[name=name]").fill("Island")
    alice.locator("[name=min_players]").fill("4")
    alice.locator("[name=max_players]").fill("4")
    assert alice.locator("[name=cfg_min_players]").count() == 0  # asked once (issue #10)
    alice.locator("[name=cfg_map]").select_option("inferno")
    alice.locator("[name=cfg_budget]").fill("400")
    alice.locator("[name=cfg_monster_count]").fill("1")
    alice.locator("[name=cfg_closed_zone_damage]").fill("100")
    alice.get_by_role("button", name="Create the match").click()
    alice.wait_for_load_state()
    assert alice.locator(".error").count() == 0, alice.locator(".error").all_inner_texts()
    alice.wait_for_url(f"{base}/m/*/")
    match = Match.objects.get(name="Island")
    assert match.config["map_data"]["id"] == "inferno"  # snapshotted from the admin tables
    assert match.config["min_players"] == match.min_players == 4
    assert match.schedule["windows"] == {"tactical": "13:00", "action": "21:30"}

    for name in ("bob", "carol", "dave"):
        page = pages[name]
        page.goto(f"{base}/")
        page.locator("#open-matches li", has_text="Island").get_by_role("button", name="Join").click()
        page.wait_for_url(f"{base}/m/{match.pk}/")
    alice.reload()
    with alice.expect_navigation():
        alice.get_by_role("button", name="Start now").click()
    assert "The match has started" in alice.content()

    # --- turn 1, Tactical: shopping with the live budget, start zones ------------------
    assert "Turn 1 · Tactical phase" in alice.locator("#kg-status").inner_text()
    alice.locator("#cart_sniper_rifle").fill("1")
    alice.locator("#cart_grenade").fill("1")
    alice.locator("#cart_medkit").fill("1")
    assert alice.locator("#kg-cart-total").inner_text() == "330"  # small JS, live
    assert alice.locator("#kg-cart-left").inner_text() == "70"
    alice.locator("#cart_medkit").fill("5")
    assert alice.locator("#kg-cart-left").inner_text() == "-210"
    save(alice, "btn-cart", expect="You do not have enough coins")  # the server says no
    assert "coins" in alice.locator("#err-cart").inner_text()
    alice.locator("#cart_medkit").fill("1")
    save(alice, "btn-cart")
    assert "Shopping cart: 1 × sniper rifle, 1 × grenade, 1 × medkit." in alice.locator("#kg-orders").inner_text()
    # the start zone: tap Ceppo on the map (a lit zone)
    assert "z-startable" in zone_classes(alice, "ceppo")
    assert "z-startable" not in zone_classes(alice, "cerchio_cy")  # never closes: not lit
    with alice.expect_response(lambda r: "/order/" in r.url):
        alice.locator("#zone-ceppo").click()
    alice.locator("#kg-orders").wait_for()
    assert "Start in Ceppo." in alice.locator("#kg-orders").inner_text()
    shoot(alice, "shopping")
    # Bob does not shop: the default backpack is explained to him
    bob.reload()
    assert "default backpack" in bob.locator("#kg-default-backpack").inner_text()
    for page in (bob, carol, dave):
        page.reload()
        page.locator("#start_zone").select_option("cave_nord_ovest")
        save(page, "btn-start_zone")
    dave.locator("#cart_rambo_knife").fill("1")
    save(dave, "btn-cart")
    close_phase(match)

    # --- turn 1, Action ----------------------------------------------------------------
    bob.reload()
    assert "Turn 1 · Action phase" in bob.locator("#kg-status").inner_text()
    assert "sniper rifle" in bob.locator("#kg-backpack").inner_text()  # the default backpack
    roster = bob.locator("#kg-roster").inner_text()
    assert "carol" in roster and "dave" in roster and "alice" not in roster
    assert "z-here" in zone_classes(bob, "cave_nord_ovest")
    assert "z-closing-next" in zone_classes(bob, "cave_nord_ovest")
    bob.locator("#attack_weapon").select_option("sniper_rifle")
    bob.locator("#kg-board, #order").get_by_label("carol", exact=True).check()
    save(bob, "btn-attack")
    assert "Attack with the sniper rifle: carol." in bob.locator("#kg-orders").inner_text()
    # the wrong target is refused next to the targets (Alice is not in Bob's zone)
    shoot(bob, "action")
    alice.reload()
    assert "z-here" in zone_classes(alice, "ceppo")
    assert "Energy 25 / 25" in alice.locator("#kg-energy").inner_text()
    assert alice.locator(".kg-face").count() == 6  # three green, three red faces
    close_phase(match)

    # --- turn 2, Tactical: the closed zone, moves, the market --------------------------
    carol.reload()
    diary = carol.locator("#kg-diary").inner_text()
    assert "bob attacked you with the sniper rifle for 3" in diary, diary
    assert "closed-here" in zone_classes(carol, "cave_nord_ovest")
    # 25 less bob's 3; the one monster, placed by the match's random seed, may have hit too
    match.refresh_from_db()
    carol_seat = match.seats.get(user__username="carol").number
    energy = next(p["energy"] for p in match.state["players"] if p["seat"] == carol_seat)
    assert energy <= 22
    assert f"Energy {energy} / 25" in carol.locator("#kg-energy").inner_text()
    feed = carol.locator("#kg-feed").inner_text()
    assert "Cave Nord-Ovest" in feed  # the closure is public
    shoot(carol, "closed-zone")
    alice.reload()
    assert "Market" in alice.locator("#kg-market").inner_text()
    assert "z-reachable" in zone_classes(alice, "cerchio_cy")
    assert "z-reachable" not in zone_classes(alice, "cave_sud_est")
    with alice.expect_response(lambda r: "/order/" in r.url):
        alice.locator("#zone-cerchio_cy").click()  # tap a reachable zone: move there
    alice.locator("#kg-orders", has_text="Move to").wait_for()
    assert "Move to Cerchio CY." in alice.locator("#kg-orders").inner_text()
    shoot(alice, "tactical")

    # a spectator (not logged in) sees the map states and the feed, nothing private
    spectator = browser.new_context(viewport=PHONE).new_page()
    spectator.goto(f"{base}/killgame/m/{match.pk}/watch/")
    assert "closed" in (spectator.locator("#zone-cave_nord_ovest").get_attribute("class") or "")
    assert "Cave Nord-Ovest" in spectator.locator("#kg-feed").inner_text()
    assert "Energy" not in spectator.content() and "Move to" not in spectator.content()
    shoot(spectator, "spectator")
    close_phase(match)

    # --- the end: three stayed in the closed zone and died; Alice wins ------------------
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    alice.reload()
    assert "alice won" in alice.locator("#kg-status").inner_text()
    feed = alice.locator("#kg-feed").inner_text()
    for name in ("bob", "carol", "dave"):
        assert name in feed
    shoot(alice, "winner")
    # the replay: every position, turn by turn
    with alice.expect_navigation():
        alice.locator("#kg-replay-link").click()
    assert "replay" in alice.title().lower() or "Replay" in alice.content()
    with alice.expect_navigation():
        alice.locator("#replay-first").click()
    assert "Start" in alice.locator("#replay-label").inner_text()
    with alice.expect_navigation():
        alice.locator("#replay-next").click()
    assert "Turn 1, tactical phase closed" in alice.locator("#replay-label").inner_text()
    people = alice.locator("#replay-people").inner_text()
    assert "Ceppo" in people and "Cave Nord-Ovest" in people
    shoot(alice, "replay")
