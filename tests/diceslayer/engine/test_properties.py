"""Invariants over random games (hypothesis): faces, stock, score, replay, round-trip."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceslayer.engine as engine
from diceslayer.engine.orders import legal_orders, order_to_json
from diceslayer.engine.state import State, Variant

VARIANTS = [v.value for v in Variant]


def _play(variant: str, seed: str, choices: list[int], target: int = 0):
    """Play a game choosing legal order ``choices[i] % len(legal)``; yield every state."""
    config = {"variant": variant}
    if variant == "versus2":
        config["target_score"] = target
    seats = [0] if variant.startswith("solo") else [0, 1]
    s = engine.setup(config, seats, seed)
    states, orders = [s], []
    for c in choices:
        if s.over:
            break
        legal = legal_orders(s, s.to_move)
        assert legal, "a live game always offers the mover a move"
        order = order_to_json(legal[c % len(legal)])
        orders.append(order)
        s = engine.resolve(engine.submit(s, s.to_move, order).state, seed).state
        states.append(s)
    return states, orders


def _faces(s: State):
    for p in s.players:
        yield from p.plate
        yield from p.stock
        yield from p.grace


game = st.tuples(st.sampled_from(VARIANTS), st.text(min_size=1, max_size=8),
                 st.lists(st.integers(0, 50), min_size=1, max_size=60),
                 st.sampled_from([0, 0, 50, 200]))
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(game)
def test_no_face_outside_1_to_6_and_stock_never_above_3(g):
    states, _ = _play(*g)
    for s in states:
        assert all(1 <= f <= 6 for f in _faces(s))
        assert all(len(p.stock) <= 3 for p in s.players)
        assert all(p.wild >= 0 for p in s.players)
        if s.variant.is_solo and not s.over:
            assert 2 <= len(s.players[0].plate) <= 9


@SETTINGS
@given(game)
def test_score_never_falls(g):
    states, _ = _play(*g)
    for a, b in zip(states, states[1:]):
        for pa, pb in zip(a.players, b.players):
            assert pb.score >= pa.score


@SETTINGS
@given(game)
def test_replay_from_seed_and_moves_is_identical(g):
    variant, seed, _, target = g
    states, orders = _play(*g)
    config = {"variant": variant}
    if variant == "versus2":
        config["target_score"] = target
    s = engine.setup(config, [0] if variant.startswith("solo") else [0, 1], seed)
    replayed = [s]
    for order in orders:
        s = engine.resolve(engine.submit(s, s.to_move, order).state, seed).state
        replayed.append(s)
    assert replayed == states


@SETTINGS
@given(game)
def test_load_dump_round_trips_every_state(g):
    states, _ = _play(*g)
    for s in states:
        raw = json.loads(json.dumps(engine.dump(s)))
        assert engine.load(raw) == s
        json.dumps(engine.player_view(s, None))
    # a pending order survives the round trip too
    last = states[-1]
    if not last.over:
        order = order_to_json(legal_orders(last, last.to_move)[0])
        pending = engine.submit(last, last.to_move, order).state
        assert engine.load(engine.dump(pending)) == pending


@SETTINGS
@given(game)
def test_finished_games_have_a_consistent_outcome(g):
    states, _ = _play(*g)
    s = states[-1]
    out = engine.outcome(s)
    if not s.over:
        assert out is None and engine.current_phase(s) is not None
        return
    assert engine.current_phase(s) is None
    if s.variant.is_solo:
        assert out.winners == frozenset()
    else:
        assert out.winners == (frozenset() if s.winner is None else frozenset({s.winner}))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["solo", "solo_wild"]), st.text(min_size=1, max_size=8))
def test_solo_default_game_ends_by_the_plate_limit(variant, seed):
    s = engine.setup({"variant": variant}, [0], seed)
    for _ in range(500):
        if s.over:
            break
        s = engine.resolve(engine.submit(s, 0, engine.default_orders(s, 0)[0]).state, seed).state
    assert s.over and s.end_reason == "plate_full"
    assert len(s.players[0].plate) >= (8 if variant == "solo" else 7)


face = st.integers(-1, 8)
scenario_player = st.fixed_dictionaries(
    {"plate": st.lists(face, max_size=12), "stock": st.lists(face, max_size=4)},
    optional={"score": st.integers(-1, 400), "wild": st.integers(0, 2),
              "grace": st.lists(face, max_size=4)})
move = st.one_of(
    st.fixed_dictionaries({"pick": face}, optional={"from": st.sampled_from(["own", "opponent"]),
                                                    "cancel": st.lists(face, max_size=3)}),
    st.fixed_dictionaries({"wild": face}), st.fixed_dictionaries({"bomb": face}))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VARIANTS), st.lists(scenario_player, min_size=1, max_size=2),
       st.integers(0, 1), st.sampled_from(["neutral", 0, 1]),
       st.lists(st.integers(1, 6), max_size=20), st.lists(move, max_size=6))
def test_scenario_runner_never_crashes(variant, players, to_move, bomb, rolls, moves):
    import io

    from diceslayer.engine import scenario as runner
    doc = {"variant": variant, "players": players, "to_move": to_move, "rolls": rolls,
           "moves": moves}
    if variant == "versus2":
        doc["bomb"] = bomb
    out, err = io.StringIO(), io.StringIO()
    status = runner.main(io.StringIO(json.dumps(doc)), out, err)
    assert status in (0, 2)
    if status == 0:
        result = json.loads(out.getvalue())
        assert set(result) == {"over", "winner", "to_move", "bomb", "players", "error",
                               "error_at"}
    else:
        assert "Traceback" not in err.getvalue() and "Error:" not in err.getvalue()
