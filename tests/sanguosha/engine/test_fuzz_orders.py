"""Garbage orders are refused with a RulesError (never another exception); accepted ones resolve."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RulesError
from sanguosha import engine
from tests.sanguosha.engine.randorders import random_order

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


def _states():
    out = []
    for seed in range(6):
        rng = random.Random(seed)
        state = engine.setup({}, list(range(5)), f"f{seed}")
        for step in range(rng.randint(0, 120)):
            if state.raw["over"]:
                break
            for s in engine.awaiting(state):
                state = engine.submit(state, s, random_order(engine.player_view(state, s), rng)).state
                if not engine.awaiting(state):
                    break
            state = engine.resolve(state, f"f{seed}:{step}").state
        out.append(state)
    return out


STATES = _states()


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(i=st.integers(0, len(STATES) - 1), seat=st.integers(-1, 5), order=ORDERS)
def test_garbage_orders_raise_rules_errors_only(i, seat, order):
    state = STATES[i]
    try:
        engine.validate_order(state, seat, order)
    except RulesError:
        return
    res = engine.resolve(engine.submit(state, seat, order).state, "fuzz")
    assert res.state is not None
