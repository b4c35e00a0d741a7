"""Refusals as the rules' error table says (killgame.md §19): ``WRONG_PHASE`` and
``NOT_ALLOWED_THIS_TURN`` are 409 with a reason ("from turn 2"), a dead player's order or
check-in is ``403 PLAYER_DEAD`` telling them they are dead, a second CHECK is
``409 ALREADY_CHECKED``; through the JSON API, nothing changed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.urls import reverse

from games.models import CheckIn, Order, Phase
from games.registry import get_rules
from tests.killgame.web.conftest import (client_for, close_phase, kg_match, open_phase,
                                         seat_of, submit)

pytestmark = pytest.mark.django_db


def _api_post(client, name, match, body):
    return client.post(reverse(name, args=[match.pk]), json.dumps(body),
                       content_type="application/json")


def _refusal(resp, status, code):
    assert resp.status_code == status, resp.content
    err = resp.json()["error"]
    assert err["code"] == code
    return err["message"]


def _kill(match, user):
    """The seat of ``user`` dies (as a resolved attack would leave it) and the open phase
    no longer awaits it."""
    engine = get_rules("killgame")
    seat = seat_of(match, user)
    match.refresh_from_db()
    state = engine.load(match.state)
    players = tuple(replace(p, alive=False, energy=0, died_turn=state.turn)
                    if p.seat == seat.number else p for p in state.players)
    match.state = engine.dump(replace(state, players=players))
    match.save(update_fields=["state"])
    phase = open_phase(match)
    Phase.objects.filter(pk=phase.pk).update(
        awaited=[n for n in phase.awaited if n != seat.number])


def test_turn_1_and_phase_refusals_are_409_with_the_reason():
    match, users = kg_match(3)
    c = client_for(users[0])
    url = "games:api-order-submit"
    msg = _refusal(_api_post(c, url, match, {"order": {"type": "move", "to": "pietra_c"}}),
                   409, "NOT_ALLOWED_THIS_TURN")
    assert "from turn 2" in msg
    for u, z in zip(users, ["ponte_ovest", "ponte_ovest", "cave_sud_est"]):
        submit(match, u, {"type": "start_zone", "zone": z})
    close_phase(match)  # turn 1 Action
    msg = _refusal(_api_post(c, url, match, {"order": {"type": "grenade", "zone": "ceppo"}}),
                   409, "NOT_ALLOWED_THIS_TURN")
    assert "from turn 2" in msg
    _refusal(_api_post(c, url, match, {"order": {"type": "move", "to": "pietra_c"}}),
             409, "WRONG_PHASE")
    close_phase(match)  # turn 2 Tactical
    msg = _refusal(_api_post(c, url, match, {"order": {"type": "start_zone", "zone": "ceppo"}}),
                   409, "NOT_ALLOWED_THIS_TURN")
    assert "turn 1 only" in msg
    assert not Order.objects.filter(seat__user=users[0], phase=open_phase(match)).exists()


def test_a_dead_players_order_and_checkin_are_403_player_dead():
    match, users = kg_match(3)
    _kill(match, users[2])
    c = client_for(users[2])
    msg = _refusal(_api_post(c, "games:api-order-submit", match,
                             {"order": {"type": "start_zone", "zone": "ceppo"}}),
                   403, "PLAYER_DEAD")
    assert "dead" in msg
    _refusal(_api_post(c, "games:api-checkin", match, {}), 403, "PLAYER_DEAD")
    assert not Order.objects.filter(seat__user=users[2]).exists()
    assert not CheckIn.objects.filter(seat__user=users[2]).exists()
    # the page says it too, with the same status
    resp = c.post(reverse("killgame:order", args=[match.pk]),
                  {"phase_id": open_phase(match).pk, "kind": "start_zone",
                   "start_zone": "ceppo"})
    assert resp.status_code == 403 and "You are dead" in resp.content.decode()


def test_a_second_check_is_409_already_checked():
    match, users = kg_match(3, config={"check_enabled": True})
    c = client_for(users[0])
    assert _api_post(c, "games:api-checkin", match, {}).status_code == 200
    _refusal(_api_post(c, "games:api-checkin", match, {}), 409, "ALREADY_CHECKED")
    _refusal(_api_post(c, "games:api-order-submit", match, {"order": {"type": "check"}}),
             409, "ALREADY_CHECKED")
    assert CheckIn.objects.filter(seat__user=users[0]).count() == 1
