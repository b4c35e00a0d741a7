"""Bad input (docs/diceslayer-rules.md §5) gets a clear error and changes nothing."""

from __future__ import annotations

import pytest

import diceslayer.engine as engine
from diceslayer.engine import errors as E
from diceslayer.engine.errors import IllegalOrder, InvalidOrder
from diceslayer.engine.state import Variant

from .helpers import solo, versus

SEED = "orders"


def _refused(state, seat, order, exc, code, message):
    before = engine.dump(state)
    with pytest.raises(exc) as info:
        engine.submit(state, seat, order)
    assert info.value.code == code
    assert info.value.reason == message
    with pytest.raises(exc):
        engine.validate_order(state, seat, order)
    assert engine.dump(state) == before  # nothing changed


def test_picking_a_face_absent_from_the_plate_is_refused():
    _refused(solo([1, 2, 3]), 0, {"pick": 5}, IllegalOrder, "FACE_ABSENT",
             "There is no 5 on the plate to pick.")


def test_picking_a_face_absent_from_your_own_field_is_refused():
    s = versus(Variant.VERSUS2, {"plate": [1]}, {"plate": [4]})
    _refused(s, 0, {"pick": 4}, IllegalOrder, "FACE_ABSENT", "There is no 4 on your field to pick.")


def test_picking_a_face_absent_from_the_opponent_is_refused():
    s = versus(Variant.VERSUS1, {"plate": [1]}, {"plate": [4]})
    _refused(s, 0, {"pick": 1, "from": "opponent"}, IllegalOrder, "FACE_ABSENT",
             "There is no 1 on your opponent's field to pick.")


def test_a_wild_die_when_none_is_owned_is_refused():
    _refused(solo([1, 2], wild=0, variant=Variant.SOLO_WILD), 0, {"wild": 3}, IllegalOrder,
             "NO_WILD", E.MSG_NO_WILD)


def test_a_wild_die_outside_solo_wild_is_refused():
    _refused(solo([1, 2]), 0, {"wild": 3}, IllegalOrder, "NOT_IN_VARIANT", E.MSG_NO_WILD_VARIANT)


@pytest.mark.parametrize("face", [0, 7, -1])
def test_a_wild_face_outside_1_to_6_is_refused(face):
    _refused(solo([1, 2], wild=1, variant=Variant.SOLO_WILD), 0, {"wild": face}, InvalidOrder,
             "BAD_FACE", f"A die face is a whole number from 1 to 6, not {face}.")


def test_a_bomb_owned_by_the_opponent_is_refused():
    s = versus(Variant.VERSUS2, {"plate": [3]}, {"plate": [4]}, bomb=1)
    _refused(s, 0, {"bomb": 3}, IllegalOrder, "BOMB_OWNED", E.MSG_BOMB_OPPONENT)


def test_the_bomb_outside_versus2_is_refused():
    s = versus(Variant.VERSUS1, {"plate": [3]}, {"plate": [4]})
    _refused(s, 0, {"bomb": 3}, IllegalOrder, "NOT_IN_VARIANT", E.MSG_NO_BOMB_VARIANT)


def test_the_bomb_on_an_absent_face_is_refused():
    s = versus(Variant.VERSUS2, {"plate": [3]}, {"plate": [4]})
    _refused(s, 0, {"bomb": 4}, IllegalOrder, "FACE_ABSENT", "There is no 4 on your field to bomb.")


def test_the_owner_and_a_neutral_bomb_are_accepted():
    for bomb in (None, 0):
        s = versus(Variant.VERSUS2, {"plate": [3]}, {"plate": [4]}, bomb=bomb)
        assert engine.submit(s, 0, {"bomb": 3}).done


def test_acting_out_of_turn_is_refused():
    s = versus(Variant.VERSUS2, {"plate": [3]}, {"plate": [4]}, to_move=0)
    _refused(s, 1, {"pick": 4}, IllegalOrder, "NOT_YOUR_TURN",
             "It is not your turn: your opponent is to move.")


def test_a_seat_not_in_the_game_is_refused():
    _refused(solo([1]), 1, {"pick": 1}, IllegalOrder, "NOT_A_SEAT",
             "Seat 1 does not play in this game.")


def test_acting_after_the_game_ended_is_refused():
    s = engine.setup({"variant": "solo"}, [0], SEED)
    while not s.over:
        s = engine.resolve(engine.submit(s, 0, engine.default_orders(s, 0)[0]).state, SEED).state
    _refused(s, 0, {"pick": 1}, IllegalOrder, "GAME_OVER", E.MSG_GAME_OVER)
    assert engine.current_phase(s) is None
    assert engine.default_orders(s, 0) == []


def test_a_second_order_in_the_same_turn_is_refused():
    s = engine.submit(solo([1, 2]), 0, {"pick": 1}).state
    _refused(s, 0, {"pick": 2}, IllegalOrder, "ALREADY_MOVED", E.MSG_ALREADY_MOVED)


@pytest.mark.parametrize("order, message", [
    ("pick 4", E.MSG_NOT_A_DICT),
    ({}, E.MSG_NO_ACTION),
    ({"pick": 1, "wild": 2}, E.MSG_NO_ACTION),
    ({"pick": 1, "colour": "red"}, "Unknown field(s) in the order: colour."),
    ({"pick": "1"}, "A die face is a whole number from 1 to 6, not '1'."),
    ({"pick": True}, "A die face is a whole number from 1 to 6, not True."),
    ({"pick": 1, "from": "theirs"}, "\"from\" is \"own\" or \"opponent\", not 'theirs'."),
    ({"pick": 1, "cancel": 3}, E.MSG_BAD_CANCEL_SHAPE),
    ({"wild": 1, "from": "own"}, E.MSG_FROM_ONLY_WITH_PICK),
    ({"bomb": 1, "cancel": [1]}, E.MSG_CANCEL_ONLY_WITH_PICK),
])
def test_malformed_orders_are_invalid(order, message):
    with pytest.raises(InvalidOrder) as info:
        engine.validate_order(solo([1, 2]), 0, order)
    assert info.value.reason == message


def test_cancel_outside_versus1_is_refused():
    s = versus(Variant.VERSUS2, {"plate": [3]}, {"plate": [4]})
    _refused(s, 0, {"pick": 3, "cancel": [1]}, IllegalOrder, "NOT_IN_VARIANT",
             E.MSG_CANCEL_NOT_IN_VARIANT)


def test_cancel_is_ignored_when_the_removal_covers_the_grace():
    # n = 2 >= g = 1: the whole grace is cleared, the list is not read (§3.7).
    s = versus(Variant.VERSUS1, {"plate": [2, 2, 4], "stock": [3, 5], "grace": [6]},
               {"plate": [1]})
    sub = engine.submit(s, 0, {"pick": 4, "cancel": [1, 1, 1]})
    new = engine.resolve(sub.state, SEED).state
    assert new.players[0].grace == ()
    assert len(new.players[1].grace) == 1  # sent n - g = 1


def test_errors_carry_a_json_form():
    with pytest.raises(IllegalOrder) as info:
        engine.submit(solo([1]), 0, {"pick": 6})
    assert info.value.as_dict() == {"code": "FACE_ABSENT", "field": "pick", "details": {},
                                    "message": "There is no 6 on the plate to pick."}
