"""Looking back in Three Kingdoms Kill and Dice Slayer (issue 32): for every closed phase ×
every seat (and a spectator), the past page and API answer show that seat's own
``player_view`` of the snapshot the phase opened with — no other seat's hand, hidden
identity or draw pile (Sanguosha's own leak checks reused), no diary row of another seat —
and a past view does not change when later phases close."""

from __future__ import annotations

import json

import pytest
from django.core.cache import caches
from django.urls import reverse

from games.lib import lookback
from games.models import DiaryEntry, Match, Phase, Seat, Snapshot
from games.registry import get_rules
from games.services.phases import phase_close

pytestmark = pytest.mark.django_db


def _page(client, match, n):
    return client.get(reverse("games:match-detail", args=[match.pk]), {"phase": n})


def _api(client, match, n):
    return client.get(reverse("games:api-phase", args=[match.pk, n]))


def _opening_state(match, number):
    phase = Phase.objects.get(match=match, number=number)
    return lookback.opening_snapshot(match, phase).state


def _expected_view(match, number, seat):
    engine = get_rules(match.game)
    return engine.player_view(engine.load(_opening_state(match, number)), seat)


def _readable(match, number, seat):
    phase = Phase.objects.get(match=match, number=number)
    return [r.seq for r in DiaryEntry.objects.filter(match=match, phase=phase).order_by("seq")
            if r.is_public or (seat is not None and f",{seat}," in r.audience)]


def _closed(match):
    return list(Phase.objects.filter(match=match, closed_at__isnull=False)
                .order_by("number").values_list("number", flat=True))


def _clear_caches():
    for alias in ("default", "html"):
        caches[alias].clear()


# --- Three Kingdoms Kill ---------------------------------------------------------------

def _sanguosha_match(phases: int = 5) -> Match:
    from tests.sanguosha.web.conftest import new_table, open_phase

    match = new_table(4, seed="lookback-sgs")
    for _ in range(phases):
        phase = open_phase(match)
        if phase is None:
            break
        phase_close(phase_id=phase.pk)
    match.refresh_from_db()
    return match


def test_sanguosha_every_past_phase_for_every_seat_leaks_nothing():
    from sanguosha import engine
    from tests.sanguosha.web.conftest import client_for, make_player, seat_client
    from tests.sanguosha.web.test_leaks import _check_html_numbers, _check_json, _check_text, _secrets

    match = _sanguosha_match()
    closed = _closed(match)
    assert len(closed) >= 3
    seats = sorted(Seat.objects.filter(match=match).values_list("number", flat=True))
    viewers = [(s, seat_client(match, s)) for s in seats]
    viewers.append((None, client_for(make_player("spectator-lookback"))))
    for number in closed:
        st = engine.load(_opening_state(match, number)).raw
        after = engine.load(Snapshot.objects.get(phase__match=match, phase__number=number)
                            .state).raw
        for viewer, client in viewers:
            # the board is the opening one; the diary tells what happened in the phase (a
            # card the seat drew then is its own): hidden = hidden at both ends
            tokens_open, hidden_open = _secrets(st, viewer)
            tokens_after, hidden_after = _secrets(after, viewer)
            tokens = [t for t in tokens_open if t in set(tokens_after)]
            hidden = hidden_open & hidden_after
            where = f"phase {number} for seat {viewer}"
            resp = _page(client, match, number)
            assert resp.status_code == 200, where
            html = resp.content.decode()
            assert 'id="past-phase"' in html
            _check_text(html, tokens, "page " + where)
            _check_html_numbers(html, hidden, "page " + where)
            data = _api(client, match, number).json()
            assert data["view"] == _expected_view(match, number, viewer), where
            _check_json(data, st, viewer, hidden_open, "api " + where)
            _check_text(json.dumps(data["diary"], ensure_ascii=False), tokens, "diary " + where)
            assert [e["seq"] for e in data["diary"]] == _readable(match, number, viewer), where


def test_sanguosha_a_past_view_does_not_change_when_later_phases_close():
    from tests.sanguosha.web.conftest import open_phase, seat_client

    match = _sanguosha_match(3)
    number = _closed(match)[-1]
    client = seat_client(match, 1)
    before = _api(client, match, number).json()
    page_before = _page(client, match, number).content.decode().split('id="past-phase"')[1]
    _clear_caches()
    for _ in range(3):
        phase = open_phase(match)
        if phase is not None:
            phase_close(phase_id=phase.pk)
    assert len(_closed(match)) > number
    after = _api(client, match, number).json()
    assert after["next"] == number + 1 and before["next"] is None
    assert {**after, "next": None} == before
    assert _page(client, match, number).content.decode().split('id="past-phase"')[1] == page_before


# --- Dice Slayer -----------------------------------------------------------------------

def _diceslayer_versus(moves: int = 6):
    from diceslayer import engine, services
    from tests.factories import make_user

    alice, bob = make_user("ds-alice"), make_user("ds-bob")
    match = services.versus_create(challenger=alice, opponent=bob)
    match = services.challenge_accept(match=match, user=bob)
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING:
            break
        state = engine.load(match.state)
        seat = match.seats.get(number=state.to_move)
        services.move_play(match=match, seat=seat,
                           payload=engine.default_orders(state, state.to_move)[0])
    match.refresh_from_db()
    return match, alice, bob


def test_diceslayer_every_past_phase_for_every_seat_is_that_seats_own_view():
    from tests.factories import make_user
    from tests.games.views.conftest import client_for

    match, alice, bob = _diceslayer_versus()
    closed = _closed(match)
    assert len(closed) >= 3
    seat_of = {u.pk: Seat.objects.get(match=match, user=u).number for u in (alice, bob)}
    viewers = [(seat_of[u.pk], client_for(u)) for u in (alice, bob)]
    viewers.append((None, client_for(make_user("ds-watcher"))))
    for number in closed:
        for viewer, client in viewers:
            where = f"phase {number} for seat {viewer}"
            resp = _page(client, match, number)
            if viewer is None and match.is_private:
                assert resp.status_code == 404, where  # a private match stays private
                assert _api(client, match, number).status_code == 404
                continue
            assert resp.status_code == 200, where
            data = _api(client, match, number).json()
            view = data["view"]
            assert view == _expected_view(match, number, viewer), where
            assert view["you"] == viewer
            assert [e["seq"] for e in data["diary"]] == _readable(match, number, viewer), where


def test_diceslayer_a_past_view_does_not_change_when_later_phases_close():
    from diceslayer import engine, services
    from tests.games.views.conftest import client_for

    match, alice, bob = _diceslayer_versus(3)
    number = _closed(match)[-1]
    before = _api(client_for(alice), match, number).json()
    _clear_caches()
    for _ in range(3):
        match.refresh_from_db()
        state = engine.load(match.state)
        services.move_play(match=match, seat=match.seats.get(number=state.to_move),
                           payload=engine.default_orders(state, state.to_move)[0])
    assert len(_closed(match)) > number
    after = _api(client_for(alice), match, number).json()
    assert after["next"] == number + 1 and before["next"] is None
    assert {**after, "next": None} == before
