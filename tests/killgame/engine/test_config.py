"""Configuration (§3): every key with its default, validation, and the engine constants."""

from __future__ import annotations

import pytest

from games.rules import InvalidConfig
from killgame import engine
from killgame.engine import maps

SECTION_3_KEYS = {
    "mode", "team_count", "min_players", "max_players", "map", "max_energy", "budget",
    "timezone", "tactical_opens_at", "action_opens_at", "check_enabled",
    "check_phase_max_hours", "k_rations_enabled", "k_rations_free", "k_rations_central_gain",
    "starvation_damage", "central_expulsion_damage", "closed_zone_damage", "weapons",
    "crossbow_poison_damage", "crossbow_poison_turns", "grenade_damage", "c4_damage",
    "explosives_cap_per_zone", "smoke_duration", "gas_damage", "gas_duration",
    "monster_count", "monster_damage_min", "monster_damage_max",
    "monster_spawn_stop_at_living", "double_damage_threshold", "medkit_heal_pct",
    "approval_threshold", "shout_approval", "persuasion_start", "persuasion_shout_decrease",
    "persuasion_rest_increase", "market_regime_weights", "sell_pct", "market_purchase_limit",
    "prices", "rewards", "punishments", "max_turns",
}


def test_engine_constants():
    assert engine.SLUG == "killgame" and engine.NAME == "Kill Game"
    assert engine.MIN_SEATS == 2 and engine.MAX_SEATS == 100


def test_schema_lists_every_section_3_key_with_the_rule_defaults():
    schema = {f.key: f for f in engine.config_schema()}
    assert set(schema) == SECTION_3_KEYS
    cfg = engine.validate_config({})
    assert cfg["mode"] == "ffa" and cfg["team_count"] == 2 and cfg["map"] == "classic"
    assert (cfg["min_players"], cfg["max_players"], cfg["budget"]) == (6, 30, 1000)
    assert cfg["gas_duration"] == 2 and cfg["persuasion_shout_decrease"] == 50
    assert cfg["double_damage_threshold"] == 3 and cfg["closed_zone_damage"] == 10
    assert cfg["weapons"]["machine_gun"] == {"damage": 2, "shots": 2}
    assert cfg["prices"]["flamethrower"] == 350 and cfg["max_turns"] == 0
    assert cfg["market_regime_weights"] == [8, 17, 50, 25]


@pytest.mark.parametrize("bad", [
    {"mode": "solo"}, {"team_count": 1}, {"map": "atlantis"}, {"budget": -1},
    {"check_enabled": "yes"}, {"tactical_opens_at": "25:00"}, {"timezone": "Mars/Olympus"},
    {"weapons": {"pistol": {"damage": 1}}}, {"weapons": {"shotgun": {"shots": 0}}},
    {"prices": {"vest": -5}}, {"rewards": []}, {"punishments": [[1, 0]]},
    {"mode": "teams", "team_count": 4, "min_players": 6}, {"min_players": 10, "max_players": 5},
    {"unknown_key": 1}, {"monster_damage_min": 9},
])
def test_invalid_configs_are_refused(bad):
    with pytest.raises(InvalidConfig):
        engine.validate_config(bad)


def test_partial_weapon_table_keeps_the_other_defaults():
    cfg = engine.validate_config({"weapons": {"shotgun": {"damage": 8}}})
    assert cfg["weapons"]["shotgun"] == {"damage": 8, "shots": 1}
    assert cfg["weapons"]["sniper_rifle"] == {"damage": 3, "shots": 1}


def test_configured_damage_is_used():
    s = engine.setup({"weapons": {"fists": {"damage": 4}}, "monster_count": 0,
                      "double_damage_threshold": 0}, [0, 1, 2, 3], "cfg")
    for p in s.players:
        s = engine.submit(s, p.seat, {"type": "cart", "items": {}}).state
        s = engine.submit(s, p.seat, {"type": "start_zone", "zone": "campi"}).state
    s = engine.resolve(s, "cfg").state
    a, b = s.players[0], s.players[1]
    s = engine.submit(s, a.seat, {"type": "attack", "weapon": "fists", "targets": [b.pid]}).state
    s = engine.resolve(s, "cfg").state
    assert s.player_by_pid(b.pid).energy == 21


def test_maps_satisfy_section_20():
    classic, inferno = maps.MAPS["classic"], maps.MAPS["inferno"]
    assert len(classic.zones) == 19 and len(inferno.zones) == 14
    assert sum(len(v) for v in classic.adjacent.values()) == 64
    assert sum(len(v) for v in inferno.adjacent.values()) == 42
    assert classic.adjacent["paese"] == ("balle_di_paglia", "depositi", "sentiero", "strada")
    assert classic.central == "paese" and inferno.central == "cerchio_cy"
    assert classic.default_start == "ingresso" and inferno.default_start == "er_cristallo"


def test_map_check_refuses_a_closure_that_cuts_the_open_region():
    raw = {"id": "bad", "central": "c", "default_start": "a",
           "closure_order": ["a", "f", "b"], "never_close": ["c", "d", "e"],
           "zones": {z: {} for z in "abcdef"},
           "edges": [["a", "b"], ["a", "f"], ["f", "b"], ["b", "c"], ["c", "d"], ["d", "e"],
                     ["e", "c"]]}
    assert maps.build_map(raw).adjacent["b"] == ("a", "f", "c")
    # closing b first leaves a and f cut off from the never-closing zones
    with pytest.raises(maps.MapError, match="cuts the open region"):
        maps.build_map(dict(raw, closure_order=["b", "a", "f"]))


SMALL = {"id": "tiny", "name": "Tiny", "central": "c", "default_start": "a",
         "closure_order": ["a", "f", "b"], "never_close": ["c", "d", "e"],
         "zones": {z: {"name": z.upper()} for z in "abcdef"},
         "edges": [["a", "b"], ["a", "f"], ["f", "b"], ["b", "c"], ["c", "d"], ["d", "e"],
                   ["e", "c"]]}


def test_an_admin_made_map_in_the_config_is_played():
    cfg = engine.validate_config({"map": "tiny", "map_data": SMALL, "monster_count": 1})
    assert cfg["map"] == "tiny"
    s = engine.setup(cfg, [0, 1, 2], "tiny")
    assert s.gmap.id == "tiny" and s.gmap.central == "c"
    v = engine.player_view(s, 0)
    assert v["start_zones"] == ["a", "f", "b"]
    for _ in range(12):
        if s.over:
            break
        s = engine.resolve(s, "tiny").state
    assert s.closed_count == 3
    assert engine.load(engine.dump(s)) == s


@pytest.mark.parametrize("bad", [
    {"map_data": dict(SMALL, closure_order=["b", "a", "f"])},
    {"map_data": dict(SMALL, edges=[["a", "zz"]])},
    {"map_data": {"id": "x"}},
    {"map_data": "classic"},
    {"map": "other", "map_data": SMALL},
])
def test_bad_map_data_is_refused(bad):
    with pytest.raises(InvalidConfig):
        engine.validate_config(bad)
