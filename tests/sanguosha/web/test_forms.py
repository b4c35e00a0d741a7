"""``order_from_post``: each meta key of a button turns the ticked boxes into the order the
engine expects; junk is refused with a message (pure: no database)."""

from __future__ import annotations

import json

import pytest
from django import forms
from django.http import QueryDict

from sanguosha.forms import order_from_post, schedule_for


def post(pick, **fields) -> QueryDict:
    q = QueryDict(mutable=True)
    if pick is not None:
        q["pick"] = pick if isinstance(pick, str) else json.dumps(pick)
    for k, v in fields.items():
        q.setlist(k, v if isinstance(v, list) else [v])
    return q


def test_targets_cards_and_the_ask_number_are_added_only_where_the_button_takes_them():
    assert order_from_post(post({"end": True}, targets=["2"], cards=["5"], ask="7")) == \
        {"end": True, "ask": 7}
    assert order_from_post(post({"use": 5, "as": "slash", "_t": 1}, targets=["2"])) == \
        {"use": 5, "as": "slash", "targets": [2]}
    assert order_from_post(post({"use": 5, "as": "slash", "_t": 1, "_auto": [3]})) == \
        {"use": 5, "as": "slash", "targets": [3]}
    assert order_from_post(post({"skill": "zhiheng", "_c": 1}, cards=["4", "9"])) == \
        {"skill": "zhiheng", "cards": [4, 9]}
    assert order_from_post(post({"_p": 1}, cards=["46", "47"])) == {"peaches": [46, 47]}
    assert order_from_post(post({"as": "slash", "_u": 1, "_t": 1}, cards=["1", "2"],
                                targets=["0"])) == {"as": "slash", "use": [1, 2], "targets": [0]}
    assert order_from_post(post({"use": 69, "as": "collateral", "_t": 1, "_s": 1},
                                targets=["4"], sub_target="0")) == \
        {"use": 69, "as": "collateral", "targets": [4], "sub_target": 0}
    assert order_from_post(post({"_c": 1, "_tt": 1}, cards=["72"], targets=["3"])) == \
        {"cards": [72], "target": 3}


def test_sow_discord_puts_the_challenged_player_first():
    assert order_from_post(post({"skill": "lijian", "_c": 1, "_t": 1, "_o": 1}, cards=["8"],
                                targets=["0", "3"], first_target="3")) == \
        {"skill": "lijian", "cards": [8], "targets": [3, 0]}


def test_stargazing_and_bequeathed_strategy_build_their_lists():
    q = post({"_arr": [10, 20, 30]}, place_10="bottom", pos_10="1", place_20="top",
             pos_20="2", place_30="top", pos_30="1")
    assert order_from_post(q) == {"top": [30, 20], "bottom": [10]}
    assert order_from_post(post({"_give": [1, 2]}, give_1="3", give_2="0")) == \
        {"give": {"1": 3, "2": 0}}


@pytest.mark.parametrize("pick,fields,message", [
    (None, {}, "Choose one of the offered answers"),
    ("", {}, "Choose one of the offered answers"),
    ("{", {}, "This answer is damaged"),
    ("3", {}, "This answer is damaged"),
    ({"end": True}, {"ask": "x"}, "The ask number must be whole numbers"),
    ({"_t": 1}, {"targets": ["one"]}, "Targets must be whole numbers"),
    ({"_tt": 1}, {"targets": ["1", "2"]}, "Choose exactly one player"),
    ({"_give": [1]}, {}, "Say who gets each card"),
])
def test_junk_is_refused_with_a_message(pick, fields, message):
    with pytest.raises(forms.ValidationError) as exc:
        order_from_post(post(pick, **fields))
    assert message in " ".join(exc.value.messages)


def test_schedule_turns_duration_classes_in_hours_into_seconds():
    sched = schedule_for({"durations": {"setup": 24, "play": 12, "response": 1.5, "window": 0.25}})
    assert sched["durations"] == {"setup": 86400, "play": 43200, "response": 5400, "window": 900}
    assert schedule_for({})["durations"]["window"] == 8 * 3600
