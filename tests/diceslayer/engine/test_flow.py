"""The framework's view of a match: submit → resolve → next phase, outcome, defaults."""

from __future__ import annotations

import diceslayer.engine as engine
from diceslayer.engine.state import Bomb, Pick, Source, Variant

from .helpers import solo, versus

SEED = "flow"


def test_submit_is_the_whole_move_and_resolve_plays_it():
    s = solo([6, 6, 2, 2, 2, 1, 4], [5, 3])
    sub = engine.submit(s, 0, {"pick": 4})
    assert sub.done and sub.events == ()
    assert sub.state.pending == Pick(4)
    res = engine.resolve(sub.state, SEED)
    kinds = [e.kind for e in res.events]
    assert kinds == ["picked", "matched", "rolled"]
    new = res.state
    assert new.pending is None and new.turn == 2 and new.moves == 1
    assert new.players[0].score == 25 and len(new.players[0].plate) == 3
    assert all(e.visible_to is None for e in res.events)  # all public


def test_resolve_without_a_pending_move_plays_the_default():
    s = solo([1, 3, 3])
    res = engine.resolve(s, SEED)
    assert res.events[0].data["face"] == 1


def test_phase_spec_solo_has_no_deadline_and_versus_a_normal_one():
    ph = engine.current_phase(solo([1, 2]))
    assert ph.kind == "turn" and ph.awaited == frozenset({0}) and ph.timing == "none"
    assert ph.turn == 1 and ph.default_text
    s = versus(Variant.VERSUS2, {"plate": [1]}, {"plate": [2]}, to_move=1, turn=7)
    ph = engine.current_phase(s)
    assert ph.awaited == frozenset({1}) and ph.timing == "normal" and ph.turn == 7
    assert "lowest" in ph.default_text


def test_outcome_solo_has_no_winner_and_versus_names_one():
    assert engine.outcome(solo([1])) is None
    s = solo([1, 1, 2, 4, 4, 5, 6, 6, 6], [1, 3], score=17)
    over = engine.resolve(engine.submit(s, 0, {"pick": 6}).state, SEED).state
    out = engine.outcome(over)
    assert over.over and out.winners == frozenset() and out.scores == {0: 17}
    v = versus(Variant.VERSUS2, {"plate": [1, 1, 2, 2, 3, 3, 5, 5, 6, 6, 6]}, {"plate": [4]})
    lost = engine.resolve(engine.submit(v, 0, {"pick": 1}).state, SEED).state
    assert engine.outcome(lost).winners == frozenset({1})
    assert "10 or more dice on the field" in engine.outcome(lost).summary  # says why


def test_default_prefers_the_most_removed_then_the_lowest_face():
    # 4 makes run 3-4-5 (removes 2s, 6s: 3 dice); 2 makes nothing.
    s = solo([2, 2, 4, 6], [3, 5])
    assert engine.default_orders(s, 0) == [{"pick": 4}]


def test_default_picks_the_lowest_own_face_when_nothing_removes():
    s = versus(Variant.VERSUS2, {"plate": [5, 3]}, {"plate": [1]})
    assert engine.default_orders(s, 0) == [{"pick": 3}]


def test_default_uses_the_opponents_field_when_yours_is_empty():
    s = versus(Variant.VERSUS1, {"plate": []}, {"plate": [4, 2]})
    assert engine.default_orders(s, 0) == [{"pick": 2, "from": "opponent"}]


def test_default_takes_from_the_opponent_when_only_that_removes():
    s = versus(Variant.VERSUS2, {"plate": [1, 1, 6], "stock": [2, 3]}, {"plate": [4]})
    assert engine.default_orders(s, 0) == [{"pick": 4, "from": "opponent"}]


def test_default_never_uses_wild_or_bomb_and_only_for_the_mover():
    s = solo([1, 5], [3, 5], wild=1, variant=Variant.SOLO_WILD)
    assert engine.default_orders(s, 0) == [{"pick": 1}]
    v = versus(Variant.VERSUS2, {"plate": [1] * 11}, {"plate": [2]})
    assert engine.default_orders(v, 0) == [{"pick": 1}]
    assert engine.default_orders(v, 1) == []


def test_bomb_passes_ownership_each_use():
    s = versus(Variant.VERSUS2, {"plate": [3, 3, 5]}, {"plate": [2, 2]})
    s = engine.resolve(engine.submit(s, 0, {"bomb": 3}).state, SEED).state
    assert s.bomb == 1 and s.to_move == 1
    face = s.players[1].plate[0]
    s = engine.resolve(engine.submit(s, 1, {"bomb": face}).state, SEED).state
    assert s.bomb == 0


def test_versus_turns_alternate_and_roll_in_for_the_next_mover():
    s = engine.setup({"variant": "versus2"}, [0, 1], SEED)
    first = s.to_move
    s2 = engine.resolve(engine.submit(s, first, engine.default_orders(s, first)[0]).state,
                        SEED).state
    assert s2.to_move == 1 - first
    assert len(s2.players[1 - first].plate) >= 3


def test_omniscient_view_includes_the_raw_state():
    s = solo([1, 2])
    assert engine.omniscient_view(s)["state"] == engine.dump(s)


def test_bot_orders_are_legal_and_empty_out_of_turn():
    s = versus(Variant.VERSUS2, {"plate": [3, 3, 5]}, {"plate": [2, 2]})
    orders = engine.bot_orders(s, 0, SEED)
    assert len(orders) == 1
    engine.validate_order(s, 0, orders[0])
    assert engine.bot_orders(s, 1, SEED) == []


def test_registry_accepts_the_engine_module():
    from games import registry
    previous = registry._GAMES.get("diceslayer")
    registry.register(engine)
    try:
        entry = registry.get_game("diceslayer")
        assert entry.engine is engine and (entry.min_seats, entry.max_seats) == (1, 2)
    finally:
        if previous is None:
            registry.unregister("diceslayer")
        else:
            registry._GAMES["diceslayer"] = previous


def test_orders_round_trip_through_json():
    from diceslayer.engine.orders import order_to_json, parse_order
    for o in (Pick(3), Pick(2, Source.OPPONENT), Pick(5, Source.OWN, (1, 2)), Bomb(4)):
        assert parse_order(order_to_json(o)) == o


def test_default_schedule_gives_versus_turns_24_hours():
    from diceslayer.services import default_schedule  # the GameHooks.default_schedule of the app

    sched = default_schedule({"variant": "versus2"})
    assert sched["durations"]["normal"] == 24 * 3600
    assert engine.current_phase(solo([1, 2])).timing == "none"
