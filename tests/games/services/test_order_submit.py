"""order_submit: accepted into the engine state, recorded, diary rows; every refusal is a
precise ApplicationError and changes nothing."""

from __future__ import annotations

import pytest

from games import selectors
from games.exceptions import ApplicationError
from games.models import CheckIn, DiaryEntry, Match, Order
from games.services.matches import match_end, match_pause
from games.services.orders import order_submit
from games.services.seats import seat_checkin
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def _refused(code, status, **kwargs):
    before = (Order.objects.count(), DiaryEntry.objects.count())
    match = kwargs["match"]
    version = Match.objects.get(pk=match.pk).version
    with pytest.raises(ApplicationError) as err:
        order_submit(**kwargs)
    assert (err.value.code, err.value.status) == (code, status)
    assert (Order.objects.count(), DiaryEntry.objects.count()) == before
    assert Match.objects.get(pk=match.pk).version == version
    return err.value


def test_an_order_goes_into_the_state_and_bumps_the_version():
    match = make_match(players=2)
    seat = match.seats.get(number=0)
    order = order_submit(match=match, seat=seat, payload={"guess": 42},
                         phase_id=selectors.current_phase(match).pk, version=match.version)
    match.refresh_from_db()
    assert match.state["guesses"] == [[0, 42]]
    assert order.seat == seat and order.payload == {"guess": 42} and not order.is_default
    assert selectors.player_view_for(match, seat)["my_guess"] == 42
    assert selectors.player_view_for(match, match.seats.get(number=1))["my_guess"] is None
    # a changed order replaces the earlier one in the state
    order_submit(match=match, seat=seat, payload={"guess": 43})
    match.refresh_from_db()
    assert match.state["guesses"] == [[0, 43]]
    assert [line.text for line in selectors.diary_for_seat(match, 0)] == [
        "You guessed 42.", "You guessed 43."]
    assert selectors.diary_for_seat(match, 1) == []


def test_engine_refusals_map_to_400_and_422_with_the_field():
    match = make_match(players=1)
    seat = match.seats.get()
    err = _refused("MALFORMED", 400, match=match, seat=seat, payload={"guess": "x"})
    assert err.field == "guess"
    _refused("OUT_OF_RANGE", 422, match=match, seat=seat, payload={"guess": 101})
    _refused("MALFORMED", 400, match=match, seat=seat, payload=["not", "a", "dict"])


def test_stale_phase_or_version_is_refused():
    match = make_match(players=1)
    seat = match.seats.get()
    phase = selectors.current_phase(match)
    _refused("STALE_PHASE", 409, match=match, seat=seat, payload={"guess": 1},
             phase_id=phase.pk + 1000)
    _refused("STALE_VERSION", 409, match=match, seat=seat, payload={"guess": 1},
             version=match.version - 1)


def test_paused_finished_foreign_and_checked_in_seats_are_refused():
    match = make_match(players=2)
    s0, s1 = match.seats.order_by("number")
    other = make_match(players=1)
    _refused("NOT_A_PARTICIPANT", 403, match=match, seat=other.seats.get(), payload={"guess": 1})
    seat_checkin(match=match, seat=s0)
    _refused("ALREADY_CHECKED", 409, match=match, seat=s0, payload={"guess": 1})
    match_pause(match=match)
    _refused("MATCH_PAUSED", 409, match=match, seat=s1, payload={"guess": 1})
    match_end(match=match, actor=make_user(staff=True), reason="test")
    _refused("MATCH_OVER", 409, match=match, seat=s1, payload={"guess": 1})


def test_a_seat_not_awaited_is_refused():
    match = make_match(players=2)
    seat = match.seats.get(number=1)
    phase = selectors.current_phase(match)
    phase.awaited = [0]
    phase.save()
    _refused("NOT_AWAITED", 409, match=match, seat=seat, payload={"guess": 1})
    assert not CheckIn.objects.exists()


def test_a_forming_match_takes_no_orders():
    match = make_match(players=1, start=False)
    seat = match.seats.get()
    _refused("MATCH_NOT_STARTED", 409, match=match, seat=seat, payload={"guess": 1})
