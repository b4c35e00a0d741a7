"""Configuration, the opening position of each variant, and the daily seed."""

from __future__ import annotations

import pytest

import diceslayer.engine as engine
from diceslayer.engine.errors import InvalidConfig
from diceslayer.engine.rules.dice import ScriptedDice, SeededDice
from diceslayer.engine.setup import setup_with_events
from diceslayer.engine.state import Variant


def test_engine_exposes_the_protocol_constants():
    assert (engine.SLUG, engine.NAME, engine.MIN_SEATS, engine.MAX_SEATS) == \
        ("diceslayer", "Dice Slayer", 1, 2)
    for name in ("config_schema", "validate_config", "setup", "current_phase", "submit",
                 "validate_order", "default_orders", "bot_orders", "resolve", "player_view",
                 "omniscient_view", "outcome", "dump", "load", "describe", "daily_seed"):
        assert callable(getattr(engine, name)), name


def test_config_defaults_are_solo_without_target():
    assert engine.validate_config({}) == {"variant": "solo", "target_score": 0}
    keys = [f.key for f in engine.config_schema()]
    assert keys == ["variant", "target_score"]
    variant = engine.config_schema()[0]
    # versus 2 is offered before prototype 1 (issue #10)
    assert [c[0] for c in variant.choices] == ["solo", "solo_wild", "versus2", "versus1"]


@pytest.mark.parametrize("config, field", [
    ({"variant": "chess"}, "variant"),
    ({"variant": "versus2", "target_score": -5}, "target_score"),
    ({"variant": "versus2", "target_score": "300"}, "target_score"),
    ({"variant": "solo", "target_score": 300}, "target_score"),
    ({"colour": "red"}, "colour"),
])
def test_bad_config_is_refused(config, field):
    with pytest.raises(InvalidConfig) as info:
        engine.validate_config(config)
    assert info.value.field == field


def test_seat_count_must_match_the_variant():
    with pytest.raises(InvalidConfig):
        engine.setup({"variant": "versus2"}, [0], "s")
    with pytest.raises(InvalidConfig):
        engine.setup({"variant": "solo"}, [0, 1], "s")


def test_solo_starts_with_three_dice_and_an_empty_stock():
    s = engine.setup({"variant": "solo"}, [0], "a")
    p = s.players[0]
    assert len(p.plate) == 3 and p.stock == () and p.score == 0 and p.wild == 0
    assert s.to_move == 0 and s.turn == 1 and not s.over


def test_solo_wild_starts_with_one_wild_die():
    s = engine.setup({"variant": "solo_wild"}, [0], "a")
    assert s.players[0].wild == 1


def test_setup_is_deterministic_in_the_seed():
    a = engine.setup({"variant": "versus2"}, [0, 1], "same")
    b = engine.setup({"variant": "versus2"}, [0, 1], "same")
    assert a == b
    different = {engine.setup({"variant": "solo"}, [0], f"s{i}").players[0].plate
                 for i in range(30)}
    assert len(different) > 5


def test_versus1_start_rolls_become_the_fields_and_the_higher_total_moves_first():
    s, events = setup_with_events({"variant": "versus1"}, [0, 1],
                                  ScriptedDice([1, 1, 2, 6, 6, 5]))
    assert s.players[0].plate == (1, 1, 2) and s.players[1].plate == (5, 6, 6)
    assert s.to_move == 1 and s.target == 100
    assert [e.kind for e in events] == ["rolled", "rolled", "first_player"]


def test_versus_start_ties_are_rerolled():
    s, events = setup_with_events({"variant": "versus1"}, [0, 1],
                                  ScriptedDice([1, 2, 3, 3, 2, 1, 6, 6, 6, 1, 1, 1]))
    assert s.to_move == 0
    assert s.players[0].plate == (6, 6, 6)
    assert "start_tie" in [e.kind for e in events]


def test_versus2_fields_start_empty_and_the_first_mover_rolls_in_three():
    s, _ = setup_with_events({"variant": "versus2", "target_score": 200}, [0, 1],
                             ScriptedDice([1, 1, 1, 2, 2, 2, 4, 5, 6]))
    assert s.to_move == 1
    assert s.players[1].plate == (4, 5, 6) and s.players[0].plate == ()
    assert s.bomb is None and s.target == 200


def test_versus2_target_zero_means_none():
    s = engine.setup({"variant": "versus2", "target_score": 0}, [0, 1], "x")
    assert s.target is None


def test_seeded_dice_are_reproducible_per_batch():
    d = SeededDice("m")
    assert d.roll(3, 7) == SeededDice("m").roll(3, 7)
    assert all(1 <= f <= 6 for i in range(50) for f in d.roll(3, i))


def test_daily_seed_is_pure_and_per_day():
    a = engine.daily_seed("2026-11-30")
    assert a == engine.daily_seed("2026-11-30")
    assert a != engine.daily_seed("2026-12-01")
    assert engine.setup({"variant": "solo"}, [0], a) == engine.setup({"variant": "solo"}, [0], a)
    with pytest.raises(ValueError):
        engine.daily_seed("30/11/2026")


def test_daily_challenge_gives_the_same_roll_ins_for_the_same_choices():
    seed = engine.daily_seed("2026-11-30")

    def play(n):
        s = engine.setup({"variant": "solo"}, [0], seed)
        for _ in range(n):
            if s.over:
                break
            s = engine.resolve(engine.submit(s, 0, engine.default_orders(s, 0)[0]).state,
                               seed).state
        return s
    assert play(12) == play(12)
