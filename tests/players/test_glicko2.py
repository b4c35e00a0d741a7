"""Glicko-2 against Glickman's published worked example, and its invariants."""

import pytest
from hypothesis import given, settings, strategies as st

from players.glicko2 import Rating, Result, placement_results, rate


def test_glickman_worked_example():
    player = Rating(1500, 200, 0.06)
    results = [Result(Rating(1400, 30), 1.0), Result(Rating(1550, 100), 0.0),
               Result(Rating(1700, 300), 0.0)]
    new = rate(player, results, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation():
    new = rate(Rating(1600, 100, 0.06), [])
    assert new.rating == 1600
    assert new.rd > 100


def test_placement_results_are_pairwise_and_antisymmetric():
    res = placement_results({1: 1, 2: 2, 3: 2})
    assert sorted(res[1]) == [(2, 1.0), (3, 1.0)]
    assert sorted(res[2]) == [(1, 0.0), (3, 0.5)]


@settings(deadline=None)  # a loaded CI machine must not fail a pure arithmetic check
@given(st.floats(1000, 2000), st.floats(40, 350), st.floats(1000, 2000), st.floats(40, 350))
def test_a_win_never_lowers_and_a_loss_never_raises(r, rd, opp, opp_rd):
    me = Rating(r, rd)
    won = rate(me, [Result(Rating(opp, opp_rd), 1.0)])
    lost = rate(me, [Result(Rating(opp, opp_rd), 0.0)])
    assert won.rating >= r - 1e-9
    assert lost.rating <= r + 1e-9
    # a game never widens the deviation past the period's own drift (phi* of step 6)
    bound = (rd ** 2 + (0.06 * 173.7178) ** 2) ** 0.5 + 1e-6
    assert won.rd <= bound and lost.rd <= bound
