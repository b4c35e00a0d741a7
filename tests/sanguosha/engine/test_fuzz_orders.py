"""Garbage orders are refused with a RulesError (never another exception); accepted ones resolve."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RulesError
from sanguosha import engine
from tests.sanguosha.engine.randorders import random_order

pytestmark = pytest.mark.slow

KEYS = ["use", "as", "targets", "sub_target", "skill", "cards", "end", "card", "armor",
        "lord_skill", "decline", "negate", "pass", "peaches", "yes", "no", "slot", "suit", "top",
        "bottom", "give", "keep", "target", "character", "ask"]
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 110) | st.sampled_from(
        ["slash", "jink", "x", "hand-1", "weapon", "spade", "caocao", "rende", "1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["1", "40", "x"]), inner, max_size=3),
    max_leaves=6)
ORDERS = st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4)


@functools.lru_cache(maxsize=1)
def _states():
    """One state per ask kind (and a few more), from random games."""
    by_kind: dict[str, list] = {}
    for seed in range(40):
        rng = random.Random(seed)
        state = engine.setup({}, list(range(2 + seed % 7)), f"f{seed}")
        for step in range(400):
            if state.raw["over"]:
                break
            kind = state.raw["ask"]["kind"]
            if len(by_kind.setdefault(kind, [])) < 3:
                by_kind[kind].append(state)
            for s in engine.awaiting(state):
                state = engine.submit(state, s, random_order(engine.player_view(state, s), rng)).state
                if not engine.awaiting(state):
                    break
            state = engine.resolve(state, f"f{seed}:{step}").state
    return [st for sts in by_kind.values() for st in sts]


def test_states_cover_many_ask_kinds():
    kinds = {st.raw["ask"]["kind"] for st in _states()}
    assert {"play", "respond", "negate_window", "rescue", "choose_card", "invoke"} <= kinds


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(i=st.integers(0, 10**6), seat=st.integers(-1, 8), awaited=st.booleans(),
       order=ORDERS)
def test_garbage_orders_raise_rules_errors_only(i, seat, awaited, order):
    states = _states()
    state = states[i % len(states)]
    if awaited:
        seat = state.raw["ask"]["awaited"][seat % len(state.raw["ask"]["awaited"])]
    try:
        engine.validate_order(state, seat, order)
    except RulesError:
        return
    res = engine.resolve(engine.submit(state, seat, order).state, "fuzz")
    assert res.state is not None


def test_a_pass_carrying_a_choice_is_refused_not_acted_on():
    """Found by the fuzz test above: {"pass": true, "negate": []} was stored and crashed
    the resolution; a refusal may carry nothing else."""
    state = next(st for st in _states() if st.raw["ask"]["kind"] == "negate_window")
    seat = state.raw["ask"]["awaited"][0]
    with pytest.raises(RulesError):
        engine.validate_order(state, seat, {"pass": True, "negate": []})
    engine.validate_order(state, seat, {"pass": True})
