"""Three Kingdoms Kill end to end in four browser contexts (Debian's Chromium through
Playwright, against ``live_server``).

1. The host creates a table on the Sanguosha create page; three players sit down from the
   table page; the host deals. The lord picks a character from the engine's offer, the
   others pick theirs in secret, and the reveal shows every character.
2. A prepared position is loaded into the running match (seat 1, a Rebel Zhang Fei, is in
   his Play phase; the Lord Sun Quan is on 1 HP) so the rest is deterministic:
   a Kill → the lord's Dodge → a Duel → the lord's Negate → the Renegade's Negate on that
   Negate (a chain) → the lord is dying → a Peach pledged by the Loyalist (a rescue) → a
   second Kill (Roar) → nobody saves him → the lord dies and the Rebel wins.
   Every answer is a button click on the table; the other pages follow by htmx polling.
3. Screenshots of the table at phone (390 px) and desktop widths go to docs/screenshots/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from games.models import Match, Seat
from sanguosha import engine
from sanguosha.engine.data import CARDS
from sanguosha.engine.scenario import build
from sanguosha.services import catalogue_sync, match_load_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"
SHOTS = Path(settings.BASE_DIR) / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WAIT = 20000  # ms: the table polls every 4 s


def _cards(cid: str, k: int, used: set[int]) -> list[int]:
    out = [n for n, c in sorted(CARDS.items()) if c.id == cid and c.set == "base"
           and n not in used][:k]
    used.update(out)
    return out


def prepared_position():
    """Seat 1 (Rebel, Zhang Fei: no Kill limit) in his Play phase against the Lord on 1 HP."""
    used: set[int] = set()
    kills, dodges = _cards("slash", 2, used), _cards("jink", 2, used)
    negates, duel, peach = _cards("nullification", 2, used), _cards("duel", 1, used), \
        _cards("peach", 1, used)
    sc = {"seats": [
        {"identity": "lord", "character": "sunquan", "hp": 1, "max_hp": 4,
         "hand": [dodges[0], negates[0]]},
        {"identity": "rebel", "character": "zhangfei", "hp": 4, "hand": [kills[0], duel[0], kills[1]]},
        {"identity": "loyalist", "character": "machao", "hp": 4, "hand": [peach[0], dodges[1]]},
        {"identity": "renegade", "character": "lvmeng", "hp": 4, "hand": [negates[1]]}],
        "current": 1, "draw_pile": [n for n in sorted(CARDS) if n not in used]}
    raw = engine.dump(build(sc))
    raw.pop("scenario", None)  # from here on it plays as a real match
    cards = {"kills": kills, "dodge": dodges[0], "negates": negates, "duel": duel[0],
             "peach": peach[0]}
    return engine.load(raw), cards


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def button(page, text: str):
    return page.locator("#ask-buttons button", has_text=text).first


def version(match_id: int) -> int:
    return Match.objects.values_list("version", flat=True).get(pk=match_id)


def in_sync(pages, match_id: int) -> None:
    """Wait until every page shows the match's current version (the table polls)."""
    v = version(match_id)
    for p in pages:
        p.wait_for_function(
            f"() => {{ const t = document.querySelector('#table');"
            f" return t && Number(t.dataset.version) >= {v}; }}", timeout=WAIT)


def click_answer(page, text: str, *, target: int | None = None, match_id: int,
                 everyone=()) -> None:
    """On the current table (every page caught up by polling), tick the target seat,
    press the option; the server's answer (htmx) is the table after the ask closed (or,
    while others still answer a group ask, with this seat's answer in)."""
    in_sync([page, *everyone], match_id)
    before = version(match_id)
    b = button(page, text)
    b.wait_for(timeout=WAIT)
    if target is not None:
        page.locator(f"#seat-{target} input[name=targets]").check()
    b.click()
    # the ask closed (a new public version), or, in a group ask, this seat's own answer is
    # in (a private answer does not change the public version: issue #10's stale rule)
    page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.version) > {before}"
        " || document.querySelector('#answered') !== null",
        timeout=WAIT)
    assert page.locator("#answer-error").count() == 0, page.locator("#answer-error").inner_text()


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"sanguosha-{name}-{label}.png"), full_page=True)


def test_four_players_play_to_the_end(live_server, browser):
    catalogue_sync()  # a transactional test starts from an emptied database
    base = live_server.url
    names = ["liu", "guan", "zhang", "zhao"]
    for n in names:
        get_user_model().objects.create_user(username=n, password=PASSWORD,
                                             email=f"{n}@example.com")
    pages = {}
    for i, n in enumerate(names):
        ctx = browser.new_context(viewport=PHONE if i == 1 else DESKTOP)
        pages[n] = ctx.new_page()
        log_in(pages[n], base, n)

    # 1. the host sets the table with the sanguosha.md settings
    host = pages["liu"]
    host.goto(f"{base}/sanguosha/new/")
    host.get_by_label("Name").fill("Peach Garden")
    host.get_by_label("Maximum players").fill("4")
    host.get_by_label("Rescue", exact=True).select_option("pledge")
    host.get_by_label("Negate windows await").select_option("holders")
    host.get_by_label("Responses (hours)").fill("6")
    host.get_by_role("button", name="Set the table").click()
    host.wait_for_url(f"{base}/sanguosha/m/*/")
    match = Match.objects.get(name="Peach Garden")
    assert match.schedule["durations"]["response"] == 6 * 3600
    table = f"{base}/sanguosha/m/{match.pk}/"
    for n in names[1:]:
        pages[n].goto(table)
        pages[n].get_by_role("button", name="Sit at this table").click()
        pages[n].wait_for_url(table)
        assert "You sit at the table" in pages[n].content()
    host.goto(table)
    host.get_by_role("button", name="Deal identities and start").click()
    host.wait_for_url(table)
    assert "Identities are dealt" in host.content()

    seat_of = {s.user.username: s.number for s in Seat.objects.filter(match=match)
               .select_related("user")}
    by_seat = {seat_of[n]: pages[n] for n in names}
    for p in pages.values():
        p.goto(table)

    # the lord chooses from exactly the offered characters; the title says it is his move
    lord = by_seat[0]
    assert "(!) Your move" in lord.title()  # after the nav's "(n)" count
    assert not by_seat[1].title().startswith("(!)")
    offered = engine.load(Match.objects.get(pk=match.pk).state).raw["offers"]["0"]
    assert lord.locator("#ask-buttons button").count() == len(offered)
    lord.locator("#ask-buttons button").nth(1).click()
    for s in (1, 2, 3):
        page = by_seat[s]
        first = page.locator("#ask-buttons button").first
        first.wait_for(timeout=WAIT)
        first.click()
    # the reveal: every character is on every table
    lord.locator("#seats", has_text="Lord").wait_for(timeout=WAIT)
    for s in range(4):
        by_seat[s].locator("#seat-3 .char a").wait_for(timeout=WAIT)
    assert "character hidden" not in lord.locator("#seats").inner_text()

    # 2. the prepared position
    state, cards = prepared_position()
    match_load_state(match=Match.objects.get(pk=match.pk), state=state)
    rebel, loyalist, renegade = by_seat[1], by_seat[2], by_seat[3]
    for p in pages.values():
        p.reload()
    assert "(!) Your move" in rebel.title()  # after the nav's "(n)" count
    assert not lord.title().startswith("(!)")
    shoot(rebel, "table")

    sync = {"match_id": match.pk, "everyone": list(pages.values())}

    # a Kill on the lord (a legal target is ticked), then the lord's Dodge
    click_answer(rebel, "Use Kill", target=0, **sync)
    button(lord, "Play Dodge").wait_for(timeout=WAIT)  # by htmx polling, no reload
    assert "(!) Your move" in lord.title()  # after the nav's "(n)" count
    assert "If you do nothing by the deadline: you decline." in lord.locator("#ask").inner_text()
    shoot(lord, "ask")
    click_answer(lord, "Play Dodge", **sync)
    rebel.locator("#log", has_text="Dodge").wait_for(timeout=WAIT)

    # a Duel: the lord negates it, the renegade negates the Negate (a chain)
    click_answer(rebel, "Use Duel", target=0, **sync)
    click_answer(lord, "Negate with", **sync)
    assert renegade.locator("#ask", has_text="awaited").count() == 0  # who holds one is secret
    click_answer(renegade, "Negate with", **sync)

    # the Duel hits: the lord is dying; the rebel passes, the loyalist pledges a Peach
    click_answer(rebel, "Pass", **sync)
    click_answer(loyalist, "as Peach", **sync)
    rebel.locator("#seat-0 .hp", has_text="1/4").wait_for(timeout=WAIT)

    # a second Kill (Roar); nobody can save the lord now
    click_answer(rebel, "Use Kill", target=0, **sync)
    click_answer(loyalist, "Pass", **sync)

    # the end: the lord died, the rebel won; every hand and identity is open to all
    for p in pages.values():
        p.locator("#outcome", has_text="The game is over").wait_for(timeout=WAIT)
    text = lord.locator("#table").inner_text()
    assert "Won by zhang" in text or f"Won by {names[[seat_of[n] for n in names].index(1)]}" in text
    assert "Every hand at the end" in text and "Renegade" in text and "Loyalist" in text
    # the log names players and speaks to the reader (issue #10)
    assert "You die; the Lord." in lord.locator("#log").inner_text()
    dead_lord = names[[seat_of[n] for n in names].index(0)]
    assert f"{dead_lord} dies; the Lord." in by_seat[2].locator("#log").inner_text()
    assert not re.search(r"(?i)\bseat \d|\bAsk \d", by_seat[2].locator("#log").inner_text())
    final = Match.objects.get(pk=match.pk)
    assert final.status == Match.Status.FINISHED and final.outcome["winners"] == [1]
    shoot(by_seat[2], "end")
    for name in ("table", "ask", "end"):
        for label in ("phone", "desktop"):
            assert (SHOTS / f"sanguosha-{name}-{label}.png").stat().st_size > 5000
