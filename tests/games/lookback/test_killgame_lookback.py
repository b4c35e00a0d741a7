"""Looking back in Kill Game (issue 32): every past phase × every seat shows that seat's own
player view of the snapshot the phase opened with, never another seat's secrets (Bob's
backpack and start zone), in the page and the API; a past view does not change when later
phases close."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.lib import lookback
from games.models import DiaryEntry, Match, Phase, Seat
from games.registry import get_rules
from games.services.matches import match_create, match_join, match_start
from tests.killgame.web.conftest import SMALL, client_for, close_phase, make_user, submit

pytestmark = pytest.mark.django_db

BOB_SECRETS = ["flamethrower", "Flamethrower", "lanciafiamme", "Gas launcher", "gas launcher",
               "gas_launcher", "Lanciagas", "3 × C4", "Wear: gas mask", "Cave Nord-Est with"]


def _match():
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    alice, bob, carol = users
    match = match_create(game="killgame", name="Look back", created_by=alice,
                         config={**SMALL, "monster_count": 0}, min_players=2, max_players=10)
    Match.objects.filter(pk=match.pk).update(seed="lookback-seed")
    for u in users:
        match_join(match=match, user=u)
    match_start(match=match)
    match.refresh_from_db()
    submit(match, alice, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, carol, {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, bob, {"type": "start_zone", "zone": "cave_nord_est"})
    submit(match, bob, {"type": "cart", "items": {"flamethrower": 1, "gas_launcher": 1,
                                                  "c4": 3}})
    for _ in range(3):
        close_phase(match)
    return match, users


def _page(client, match, n):
    return client.get(reverse("games:match-detail", args=[match.pk]), {"phase": n})


def _api(client, match, n):
    return client.get(reverse("games:api-phase", args=[match.pk, n]))


def _expected(match, number, seat):
    phase = Phase.objects.get(match=match, number=number)
    snap = lookback.opening_snapshot(match, phase)
    engine = get_rules(match.game)
    return engine.player_view(engine.load(snap.state), seat)


def _diary_is_the_seats_own(match, number, seat, entries):
    """Every API diary entry is a row of that phase the seat may read (public or its own),
    and every such row is there."""
    phase = Phase.objects.get(match=match, number=number)
    readable = [r.seq for r in DiaryEntry.objects.filter(match=match, phase=phase).order_by("seq")
                if r.is_public or (seat is not None and f",{seat}," in r.audience)]
    assert [e["seq"] for e in entries] == readable


def test_every_past_phase_for_every_seat_is_that_seats_view_and_leaks_nothing():
    match, (alice, bob, carol) = _match()
    closed = [p.number for p in Phase.objects.filter(match=match, closed_at__isnull=False)]
    assert len(closed) == 3
    spectator = make_user("watcher")
    for user in (alice, carol, spectator, None):
        client = client_for(user)
        seat = Seat.objects.filter(match=match, user=user).first() if user else None
        for n in closed:
            resp = _page(client, match, n)
            assert resp.status_code == 200, (n, resp.status_code)
            html = resp.content.decode()
            assert 'id="past-phase"' in html
            for secret in BOB_SECRETS:
                assert secret not in html, (getattr(user, "username", None), n, secret)
            if user is None:
                continue
            data = _api(client, match, n).json()
            assert data["ok"] and data["phase"]["number"] == n
            assert data["view"] == _expected(match, n, seat.number if seat else None)
            _diary_is_the_seats_own(match, n, seat.number if seat else None, data["diary"])
    # bob sees his own past: his backpack after the shopping phase
    data = _api(client_for(bob), match, closed[-1]).json()
    bob_seat = Seat.objects.get(match=match, user=bob).number
    assert data["view"] == _expected(match, closed[-1], bob_seat)
    assert "flamethrower" in str(data["view"])


def test_a_past_view_does_not_change_when_later_phases_close():
    match, (alice, bob, carol) = _match()
    first_page = _page(client_for(alice), match, 2).content.decode()
    first_api = _api(client_for(alice), match, 2).json()
    from django.core.cache import caches
    for alias in ("default", "html"):
        try:
            caches[alias].clear()
        except Exception:  # noqa: BLE001
            pass
    close_phase(match)
    close_phase(match)
    assert _api(client_for(alice), match, 2).json() == first_api
    assert _page(client_for(alice), match, 2).content.decode().replace(
        "csrfmiddlewaretoken", "") .split('id="past-phase"')[1] == first_page.split(
        'id="past-phase"')[1]


def test_the_live_page_offers_the_selector_and_the_previous_phase():
    match, (alice, bob, carol) = _match()
    html = client_for(alice).get(reverse("games:match-detail", args=[match.pk])).content.decode()
    assert 'id="lookback-select"' in html and f'href="/m/{match.pk}/?phase=3"' in html


@pytest.mark.parametrize("raw, status", [("-1", 400), ("0", 400), ("abc", 400), ("", 400),
                                         ("99999999999999999999", 400), ("1.5", 400),
                                         ("500", 404), ("٣", 400)])
def test_bad_phase_values_are_clear_4xx_never_500(raw, status):
    match, (alice, bob, carol) = _match()
    resp = _page(client_for(alice), match, raw)
    assert resp.status_code == status
    assert 'id="lookback-error"' in resp.content.decode()
    if raw:
        api = client_for(alice).get(f"/api/matches/{match.pk}/phases/{raw}/")
        assert api.status_code in (400, 404), (raw, api.status_code)
        assert api.json()["ok"] is False


def test_the_open_phase_is_the_live_page():
    match, (alice, bob, carol) = _match()
    open_n = Phase.objects.get(match=match, closed_at__isnull=True).number
    resp = _page(client_for(alice), match, open_n)
    assert resp.status_code == 302 and resp["Location"].endswith(f"/m/{match.pk}/")
    api = _api(client_for(alice), match, open_n)
    assert api.status_code == 409 and api.json()["error"]["code"] == "PHASE_OPEN"


def test_the_poll_brings_the_selector_and_the_history_rows_link_their_phase():
    match, (alice, bob, carol) = _match()
    c = client_for(alice)
    html = c.get(reverse("games:match-poll", args=[match.pk]), {"v": 0}).content.decode()
    assert 'id="lookback"' in html and 'hx-swap-oob="true"' in html.split('id="lookback"')[1][:200]
    page = c.get(reverse("games:match-detail", args=[match.pk])).content.decode()
    history = page.split('id="history"')[1]
    for n in (1, 2, 3):
        assert f'href="/m/{match.pk}/?phase={n}"' in history


def test_a_past_phase_is_rendered_once_then_read_from_the_cache():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.lib import htmlcache
    from games.models import DiaryEntry as Diary, Snapshot

    match, (alice, bob, carol) = _match()
    c = client_for(alice)
    heavy = (Snapshot._meta.db_table, Diary._meta.db_table)
    for fetch in (_page, _api):
        with CaptureQueriesContext(connection) as first:
            one = fetch(c, match, 2).content
        assert any(t in q["sql"] for q in first.captured_queries for t in heavy)
        with CaptureQueriesContext(connection) as second:
            two = fetch(c, match, 2).content
        assert not [q["sql"] for q in second.captured_queries
                    if any(t in q["sql"] for t in heavy)], fetch.__name__
        if fetch is _api:
            assert one == two
    # the live page announces the selector in its one prefetch round trip
    from django.test import RequestFactory

    from games.lib import pages

    request = RequestFactory().get(f"/m/{match.pk}/")
    request.user = alice
    announced = pages.match_context(request, match)[htmlcache.PREFETCH_NAME]
    assert ("lookback", "public", []) in announced
