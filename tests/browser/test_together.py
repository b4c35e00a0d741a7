"""In a real browser (issue 10): two players give their Kill Game orders within the same
second and both are accepted (another seat's private order never makes mine stale), then
every player checks in and the scheduled (wall-clock) phase closes early: each page moves
on to the Action phase by itself."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Match, Phase
from games.services.matches import match_create, match_join, match_start
from killgame.services import builtin_tables_load

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _context(browser, live_server, user):
    c = Client()
    c.force_login(user)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": c.cookies[settings.SESSION_COOKIE_NAME].value,
                          "domain": host, "path": "/"}])
    return context


def test_orders_in_the_same_second_and_the_early_close_of_a_scheduled_phase(live_server,
                                                                             browser):
    builtin_tables_load()
    User = get_user_model()
    users = [User.objects.create_user(f"tg{i}", f"tg{i}@example.com", "pw") for i in range(3)]
    match = match_create(game="killgame", name="Together", created_by=users[0],
                         config={"map": "inferno", "monster_count": 1, "budget": 1000})
    assert match.schedule["mode"] == "windows"  # wall-clock Tactical / Action windows
    for u in users:
        match_join(match=match, user=u)
    match_start(match=match)
    url = f"{live_server.url}/m/{match.pk}/"
    pages = []
    for u in users:
        page = _context(browser, live_server, u).new_page()
        page.goto(url)
        page.locator("#btn-start_zone").wait_for()
        pages.append(page)
    a, b, c = pages
    for page in (a, b):
        page.select_option("#start_zone", index=1)
    # both press within the same second, on pages read before either order
    with a.expect_response(lambda r: "/order/" in r.url) as ra, \
            b.expect_response(lambda r: "/order/" in r.url) as rb:
        a.locator("#btn-start_zone").click(no_wait_after=True)
        b.locator("#btn-start_zone").click(no_wait_after=True)
    assert ra.value.status == 200 and rb.value.status == 200
    for page in (a, b):
        page.locator("body", has_text="Your order is saved").wait_for(timeout=15000)
        assert page.locator("[role=alert].error").count() == 0
    phase = Phase.objects.get(match=match, closed_at__isnull=True)
    assert phase.kind == "tactical"
    for page in pages:  # the last check-in completes the awaited set
        with page.expect_response(lambda r: "/checkin/" in r.url) as done:
            page.get_by_role("button", name="Check in: I am done").click()
        assert done.value.status == 200
    phase.refresh_from_db()
    assert phase.closed_at is not None and phase.closed_at < phase.deadline_at
    # every page moves on by itself (the poll): the Action phase is open
    for page in pages:
        page.locator("#phase-h", has_text="Action").wait_for(timeout=20000)
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
