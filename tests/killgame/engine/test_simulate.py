"""The bot simulation finishes for every mode and map from 2 to 100 players; the bot plays
only legal orders from its player view."""

from __future__ import annotations

import pytest

from killgame import engine
from killgame.engine.bot import bot_orders
from killgame.engine.simulate import simulate


@pytest.mark.parametrize("mode", ["ffa", "teams", "districts"])
@pytest.mark.parametrize("map_id", ["classic", "inferno"])
@pytest.mark.parametrize("players", [2, 3, 11, 30])
def test_simulation_finishes(mode, map_id, players):
    out = simulate(players, config={"mode": mode, "map": map_id}, seed=f"{mode}{players}")
    assert out["winners"]
    assert 1 <= out["turns"] <= 80
    assert sum(out["deaths_by_cause"].values()) == players - len(out["survivors"])
    assert out["orders_refused"] == 0


@pytest.mark.parametrize("map_id", ["classic", "inferno"])
def test_simulation_with_100_players_and_10_monsters(map_id):
    out = simulate(100, config={"map": map_id, "monster_count": 10}, seed="big")
    assert out["winners"] and out["monsters_created"] >= 10


def test_simulation_without_k_rations_and_a_turn_limit():
    out = simulate(6, config={"k_rations_enabled": False, "max_turns": 3}, seed="lim")
    assert out["turns"] <= 3 and out["winners"]
    assert "starvation" not in out["damage_by_source"]


def test_bot_uses_only_its_view_and_buys_a_backpack():
    s = engine.setup({}, [0, 1, 2], "b")
    orders = bot_orders(engine.player_view(s, 0), "b")
    kinds = [o["type"] for o in orders]
    assert kinds == ["cart", "start_zone"]
    for o in orders:
        engine.validate_order(s, 0, o)
    assert sum(orders[0]["items"].values()) >= 3
