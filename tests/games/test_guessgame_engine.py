"""The test game honours the engine protocol (so framework tests stand on solid ground)."""

from __future__ import annotations

import pytest

from games.rules import IllegalOrder, InvalidOrder
from tests.games import guessgame as g


def test_round_trip_and_resolution():
    s = g.setup({"rounds": 2}, [0, 1], "seed")
    assert g.load(g.dump(s)) == s
    s = g.submit(s, 0, {"guess": 10}).state
    s = g.submit(s, 1, {"guess": 90}).state
    assert g.player_view(s, 1)["my_guess"] == 90
    assert "10" not in str(g.player_view(s, 1)["my_guess"])
    res = g.resolve(s, "seed")
    assert res.state.round == 2 and g.outcome(res.state) is None
    secret = res.events[-1].data["secret"]
    assert 1 <= secret <= 100
    res2 = g.resolve(res.state, "seed")
    assert g.outcome(res2.state) is not None and g.current_phase(res2.state) is None


def test_bad_orders_are_refused():
    s = g.setup({}, [0], "seed")
    with pytest.raises(InvalidOrder):
        g.submit(s, 0, {"guess": "x"})
    with pytest.raises(IllegalOrder):
        g.submit(s, 0, {"guess": 101})
