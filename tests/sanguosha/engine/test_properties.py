"""Property tests: random games with random legal answers keep every invariant."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanguosha import engine
from sanguosha.engine.simulate import invariants
from tests.sanguosha.engine.randorders import random_order

pytestmark = pytest.mark.slow

CONFIGS = [{}, {"rescue_mode": "sequential", "negate_privacy": "everyone"},
           {"deck": "standard", "weapon_abilities": "basic"}]


def _play(players: int, seed: int, cfg: dict, max_asks: int, check_views: bool):
    rng = random.Random(seed)
    state = engine.setup(cfg, list(range(players)), f"p{seed}")
    log = []
    events = []
    for step in range(max_asks):
        if state.raw["over"]:
            break
        for s in engine.awaiting(state):
            if rng.random() < 0.1:
                continue  # absent: the default applies at resolve
            order = random_order(engine.player_view(state, s), rng)
            state = engine.submit(state, s, order).state
            log.append((step, s, order))
            if not engine.awaiting(state):
                break
        res = engine.resolve(state, f"r{seed}:{step}")
        state = res.state
        events.extend(e.to_json() for e in res.events)
        log.append((step, None, None))
        bad = invariants(state)
        assert not bad, bad
        assert engine.load(engine.dump(state)) == state
        if check_views:
            _check_views(state)
    return state, log, events


def _check_views(state):
    raw = state.raw
    public = set(raw["discard"]) | set(raw["proc"])
    for p in raw["seats"]:
        public |= {c for c in p["equip"].values() if c is not None} | set(p["judg"])
    for viewer in [None] + list(range(len(raw["seats"]))):
        view = engine.player_view(state, viewer)
        text = json.dumps(view)
        assert "draw_pile" not in view and "stack" not in view
        own = set(raw["seats"][viewer]["hand"]) if viewer is not None else set()
        legal_cards: set[int] = set()
        _collect(view.get("legal"), legal_cards)
        shown = {int(k) for k in view["cards"]}
        assert shown <= public | own | legal_cards, (viewer, shown - public - own - legal_cards)
        for p in view["seats"]:
            real = raw["seats"][p["seat"]]
            if p["seat"] != viewer:
                assert "hand" not in p
                if real["alive"] and real["identity"] != "lord" and not raw["over"]:
                    assert p["identity"] is None
        if view["answered"] is not None:
            assert viewer is not None and str(viewer) in raw["answers"]
        for other, ans in raw["answers"].items():
            if viewer is None or int(other) != viewer:
                assert view["answered"] is None or int(other) == viewer
        if raw["ask"] and raw["ask"]["kind"] == "negate_window":
            assert view["ask"]["awaited"] is None
        assert "offers" not in view
        del text


def _collect(obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("card", "use", "negate") and isinstance(v, int):
                out.add(v)
            elif isinstance(v, list) and k in ("cards", "negates", "use_pair", "pair"):
                for x in v:
                    if isinstance(x, int):
                        out.add(x)
                    else:
                        _collect(x, out)
            else:
                _collect(v, out)
    elif isinstance(obj, list):
        for x in obj:
            _collect(x, out)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 10), seed=st.integers(0, 10**9), cfg=st.sampled_from(CONFIGS))
def test_random_games_keep_invariants_and_views_private(players, seed, cfg):
    _play(players, seed, cfg, max_asks=250, check_views=True)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 8), seed=st.integers(0, 10**9))
def test_replay_from_seed_and_answers_is_identical(players, seed):
    state1, log, events1 = _play(players, seed, {}, max_asks=300, check_views=False)
    # replay: setup from the same seed, then the recorded answers and resolves
    state = engine.setup({}, list(range(players)), f"p{seed}")
    events2 = []
    for step, s, order in log:
        if s is None:
            res = engine.resolve(state, f"r{seed}:{step}")
            state = res.state
            events2.extend(e.to_json() for e in res.events)
        else:
            state = engine.submit(state, s, order).state
    assert state == state1
    assert events2 == events1


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(4, 10), seed=st.integers(0, 10**6))
def test_bot_games_finish_cleanly(players, seed):
    from sanguosha.engine.simulate import play_game
    r = play_game(players, f"b{seed}")
    assert r["over"] and not r["violations"]
