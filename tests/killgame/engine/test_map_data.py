"""A map snapshot in ``config["map_data"]`` (admin-edited maps, issue #4) replaces the
built-in map: validated with the §20 checks, used by setup, orders and resolution."""

from __future__ import annotations

import copy
import json

import pytest

from games.rules import InvalidConfig
from killgame import engine
from killgame.engine.maps import DATA

TINY = {
    "id": "tiny", "name": "Tiny", "central": "c", "default_start": "a",
    "closure_order": ["a", "b"], "never_close": ["c", "d", "e"],
    "zones": {z: {"name": z.upper(), "gloss": ""} for z in "abcde"},
    "edges": [["a", "b"], ["a", "c"], ["b", "d"], ["c", "d"], ["d", "e"], ["c", "e"]],
}


def test_map_data_is_used_by_setup_and_orders():
    cfg = engine.validate_config({"map_data": TINY, "min_players": 2})
    assert cfg["map"] == "tiny"
    state = engine.setup(cfg, [0, 1], "seed")
    assert state.gmap.id == "tiny"
    view = engine.player_view(state, 0)
    assert [z["id"] for z in view["map"]["zones"]] == ["a", "b", "c", "d", "e"]
    assert view["start_zones"] == ["a", "b"]
    state = engine.submit(state, 0, {"type": "start_zone", "zone": "b"}).state
    with pytest.raises(Exception) as exc:
        engine.submit(state, 1, {"type": "start_zone", "zone": "paese"})
    assert getattr(exc.value, "code", "") == "UNKNOWN_ID"
    state = engine.resolve(state, "s1").state
    assert engine.load(engine.dump(state)) == state
    assert state.player_by_seat(0).zone == "b"
    assert state.player_by_seat(1).zone == "a"  # the snapshot's default start


def test_map_data_failing_the_map_checks_is_refused():
    # a - b - c and a - e: closing b first keeps a connected through e
    ok = copy.deepcopy(TINY)
    ok["edges"] = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["c", "e"], ["a", "e"]]
    ok["closure_order"] = ["b", "a"]
    assert engine.validate_config({"map_data": ok})["map"] == "tiny"
    # a - b - f, a - f: closing b first leaves {a, f} cut off from c, d, e
    cut = copy.deepcopy(TINY)
    cut["zones"]["f"] = {"name": "F"}
    cut["edges"] = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["c", "e"], ["b", "f"],
                    ["a", "f"]]
    cut["closure_order"] = ["b", "a", "f"]
    with pytest.raises(InvalidConfig, match="cuts the open region"):
        engine.validate_config({"map_data": cut})
    island = copy.deepcopy(TINY)
    island["edges"] = [["a", "b"], ["c", "d"], ["d", "e"], ["c", "e"], ["b", "a"]]
    with pytest.raises(InvalidConfig) as exc:
        engine.validate_config({"map_data": island})
    assert exc.value.field == "map_data"
    with pytest.raises(InvalidConfig):
        engine.validate_config({"map_data": {"id": "x"}})
    with pytest.raises(InvalidConfig):
        engine.validate_config({"map_data": TINY, "map": "classic"})
    with pytest.raises(InvalidConfig):
        engine.validate_config({"map_data": "classic"})


def test_builtin_map_data_gives_the_same_map():
    raw = json.loads((DATA / "classic.json").read_text())
    cfg = engine.validate_config({"map_data": raw})
    plain = engine.setup(engine.validate_config({}), [0, 1], "s")
    snap = engine.setup(cfg, [0, 1], "s")
    assert snap.gmap.adjacent == plain.gmap.adjacent
    assert "map_data" not in engine.validate_config({})
