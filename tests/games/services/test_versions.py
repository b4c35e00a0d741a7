"""Stale means "what I saw changed" (issue 10): another seat's private order or check-in
never makes my order stale (no side channel), my own change and a public change do, and a
poll costs nothing for another seat's private order."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.exceptions import ApplicationError
from games.models import Match, Seat
from games.services.orders import order_submit
from games.services.seats import seat_checkin
from tests.killgame.web.conftest import (client_for, close_phase, kg_match, kg_tables,  # noqa: F401
                                         open_phase, seat_of)

ZONE = {"type": "start_zone", "zone": "ceppo"}


def _read(match: Match, user) -> dict:
    match.refresh_from_db()
    return {"phase_id": open_phase(match).pk, "version": match.version,
            "seat_version": seat_of(match, user).version}


def test_another_seats_private_order_and_checkin_never_make_mine_stale(db):
    match, (a, b, c) = kg_match(3)
    seen = _read(match, a)
    order_submit(match=match, seat=seat_of(match, b), payload=ZONE, **_read(match, b))
    seat_checkin(match=match, seat=seat_of(match, c), **_read(match, c))
    match.refresh_from_db()
    assert match.version == seen["version"]  # nothing public changed
    order_submit(match=match, seat=seat_of(match, a), payload=ZONE, **seen)  # accepted
    seat_checkin(match=match, seat=seat_of(match, a),
                 **{**seen, "seat_version": seat_of(match, a).version})


def test_my_own_change_or_a_public_one_makes_my_page_stale(db):
    match, (a, b) = kg_match(2)
    seen = _read(match, a)
    order_submit(match=match, seat=seat_of(match, a), payload=ZONE, **seen)
    with pytest.raises(ApplicationError) as err:  # e.g. from another tab
        order_submit(match=match, seat=seat_of(match, a), payload=ZONE, **seen)
    assert err.value.code == "STALE_VERSION"
    seen = _read(match, a)
    Match.objects.filter(pk=match.pk).update(version=seen["version"] + 1)  # a public change
    with pytest.raises(ApplicationError) as err:
        order_submit(match=match, seat=seat_of(match, a), payload=ZONE, **seen)
    assert err.value.code == "STALE_VERSION"
    seen = _read(match, a)
    close_phase(match)
    with pytest.raises(ApplicationError) as err:
        order_submit(match=match, seat=seat_of(match, a), payload=ZONE, **seen)
    assert err.value.code == "STALE_PHASE"


def test_the_poll_ignores_another_seats_private_order(db):
    match, (a, b) = kg_match(2)
    seen = _read(match, a)
    url = reverse("games:match-poll", args=[match.pk])
    query = {"v": seen["version"], "s": seen["seat_version"], "c": 0}
    ca = client_for(a)
    assert ca.get(url, query).status_code == 204
    order_submit(match=match, seat=seat_of(match, b), payload=ZONE)
    assert ca.get(url, query).status_code == 204  # b's private order costs a poll nothing
    order_submit(match=match, seat=seat_of(match, a), payload=ZONE)
    assert ca.get(url, query).status_code == 200  # my own order: my seat version moved


def test_the_api_accepts_an_order_sent_with_what_i_read_before_another_order(db):
    match, (a, b) = kg_match(2)
    ca, cb = client_for(a), client_for(b)
    api = reverse("games:api-match", args=[match.pk])
    orders = reverse("games:api-order-submit", args=[match.pk])
    mine = ca.get(api).json()
    theirs = cb.get(api).json()
    assert mine["match"]["seat_version"] == Seat.objects.get(match=match, user=a).version

    def send(client, read):
        body = {"order": ZONE, "phase_id": read["phase"]["id"],
                "version": read["match"]["version"], "seat_version": read["match"]["seat_version"]}
        return client.post(orders, json.dumps(body), content_type="application/json")

    assert send(cb, theirs).status_code == 200
    resp = send(ca, mine)
    assert resp.status_code == 200, resp.content
    assert send(ca, mine).status_code == 409  # the same token again: my own order moved it
