"""Resolution steps of §16: setup and turn 1, Tactical close, Action close, victory."""

from __future__ import annotations

import random

from killgame import engine
from killgame.engine.rng import sample
from killgame.engine.setup import team_for

from .helpers import NODD, play, player, position, seat


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def test_seat_shuffle_follows_the_seats_stream():
    s = engine.setup({}, [10, 11, 12, 13, 14, 15], "abc")
    drawn = sample(random.Random("abc|0|setup|seats"), [10, 11, 12, 13, 14, 15], 6)
    assert [p.seat for p in s.players] == drawn
    assert [p.rseat for p in s.players] == [1, 2, 3, 4, 5, 6]
    assert s.turn == 1 and s.phase == "tactical"


def test_team_balance_example_18():
    cfg = engine.validate_config({"mode": "teams", "team_count": 3})
    teams = {s: team_for(cfg, s, 11) for s in range(1, 12)}
    assert [s for s, t in teams.items() if t == 1] == [1, 4, 7, 10]
    assert [s for s, t in teams.items() if t == 2] == [2, 5, 8, 11]
    assert [s for s, t in teams.items() if t == 3] == [3, 6, 9]
    dcfg = engine.validate_config({"mode": "districts"})
    assert [team_for(dcfg, s, 5) for s in range(1, 6)] == [1, 1, 2, 2, 3]


def test_turn1_close_default_backpack_carts_zones_and_monsters():
    s = engine.setup({}, [0, 1, 2], "t1")
    s = play_seat(s, 0, {"type": "cart", "items": {}}, {"type": "start_zone", "zone": "campi"})
    s = play_seat(s, 1, {"type": "cart", "items": {"shotgun": 1, "k_ration": 2}})
    res = engine.resolve(s, "t1")
    st = res.state
    p0, p1, p2 = (st.player_by_seat(i) for i in range(3))
    assert p0.zone == "campi" and p0.coins == 1000 and p0.items == {"k_ration": 5}
    assert p0.firearm is None and p0.knife is None
    assert p1.firearm == "shotgun" and p1.coins == 680 and p1.items == {"k_ration": 7}
    assert p1.zone == "ingresso"
    assert p2.firearm == "sniper_rifle" and p2.coins == 350
    assert p2.items == {"amulet": 1, "antidote": 1, "c4": 1, "gas_canister": 1, "gas_mask": 1,
                        "grenade": 1, "k_ration": 5, "medkit": 1,
                        "smoke_grenade": 1, "vest": 1}
    assert len(st.monsters) == 2 and st.monsters[0].zone != st.monsters[1].zone
    for m in st.monsters:
        assert 6 <= m.damage <= 8 and m.energy == m.damage
    assert st.phase == "action" and st.turn == 1
    assert kinds(res.events, "action_opened")[0].visible_to is None


def play_seat(state, s, *orders):
    for o in orders:
        state = engine.submit(state, s, o).state
    return state


def test_districts_partner_revealed_when_turn1_action_opens():
    s = engine.setup({"mode": "districts"}, [0, 1, 2], "d")
    v = engine.player_view(s, s.players[0].seat)
    assert v["allies"] == []
    res = engine.resolve(s, "d")
    rev = kinds(res.events, "partner_revealed")
    assert len(rev) == 3
    first = res.state.players[0]
    v = engine.player_view(res.state, first.seat)
    assert [a["id"] for a in v["allies"]] == [res.state.players[1].pid]


def test_zones_close_one_per_turn_until_three_remain():
    s = position([{"id": "a", "zone": "paese"}, {"id": "b", "zone": "strada"}], turn=1)
    for _ in range(40):
        s = engine.resolve(s, "z").state
    assert s.closed_count == 16
    assert s.gmap.zones[s.closed_count:] == ("sentiero", "strada", "paese")


def test_medkit_heals_another_player_in_the_zone_and_sold_items_void_orders():
    s = position([{"id": "a", "zone": "strada", "items": {"medkit": 1, "smoke_grenade": 1}},
                  {"id": "b", "zone": "strada", "energy": 12}],
                 phase="tactical", market="unchanged")
    s = play(s, "a", {"type": "medkit", "target": "b"}, {"type": "smoke", "zone": "paese"},
             {"type": "sell", "item": "smoke_grenade"})
    res = engine.resolve(s, "m")
    assert player(res.state, "b").energy == 18
    healed = kinds(res.events, "healed")[0]
    assert healed.visible_to == {seat(s, "a"), seat(s, "b")}
    voided = kinds(res.events, "order_voided")
    assert voided and voided[0].data["code"] == "ITEM_NOT_OWNED"
    assert "paese" not in res.state.smoke


def test_moves_are_simultaneous_and_monsters_keep_one_per_zone():
    s = position([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"}],
                 phase="tactical", monsters=[{"id": "m1", "zone": "campi", "energy": 7},
                                             {"id": "m2", "zone": "balle_di_paglia",
                                              "energy": 7}])
    s = play(s, "a", {"type": "move", "to": "paese"})
    s = play(s, "b", {"type": "move", "to": "strada"})
    st = engine.resolve(s, "mv").state
    assert player(st, "a").zone == "paese" and player(st, "b").zone == "strada"
    zones = [m.zone for m in st.monsters]
    assert len(set(zones)) == 2
    assert zones[0] in s.gmap.adjacent["campi"] and zones[1] in s.gmap.adjacent["balle_di_paglia"]


def test_teammate_attack_is_not_an_attack_for_approval():
    cfg = dict(NODD, mode="teams", min_players=4)
    s = position([{"id": "a", "zone": "strada", "team": 1},
                  {"id": "b", "zone": "strada", "team": 1},
                  {"id": "c", "zone": "strada", "team": 2}, {"id": "d", "zone": "paese",
                                                              "team": 2}], config=cfg)
    s = play(s, "a", {"type": "attack", "weapon": "fists", "targets": ["b"]})
    s = play(s, "c", {"type": "attack", "weapon": "fists", "targets": ["a"]})
    st = engine.resolve(s, "ap").state
    assert player(st, "a").approval == -1
    assert player(st, "c").approval == 1
    assert player(st, "d").approval == 0


def test_hearing_counts_shots_in_adjacent_zones_but_not_knives():
    s = position([{"id": "a", "zone": "strada", "firearm": "machine_gun"},
                  {"id": "b", "zone": "strada", "knife": "rambo_knife"},
                  {"id": "c", "zone": "paese"}, {"id": "d", "zone": "grotta"}])
    s = play(s, "a", {"type": "attack", "weapon": "machine_gun", "targets": ["b", "b"]})
    s = play(s, "b", {"type": "attack", "weapon": "rambo_knife", "targets": ["a"]})
    res = engine.resolve(s, "h")
    heard = kinds(res.events, "heard_gunfire")
    assert [(e.data["player"], e.data["zone"], e.data["shots"]) for e in heard] == \
        [("c", "strada", 2)]
    attacks = kinds(res.events, "attack")
    private = [e for e in attacks if e.data["amount"] is not None]
    assert all(e.visible_to <= {seat(s, "a"), seat(s, "b")} for e in private)


def test_death_clears_inventory_and_dead_cannot_act():
    s = position([{"id": "a", "zone": "strada", "firearm": "shotgun"},
                  {"id": "b", "zone": "strada", "energy": 5, "items": {"medkit": 3}},
                  {"id": "c", "zone": "paese"}])
    s = play(s, "a", {"type": "attack", "weapon": "shotgun", "targets": ["b"]})
    res = engine.resolve(s, "d")
    b = player(res.state, "b")
    assert not b.alive and b.items == {} and b.zone is None and b.energy == 0
    deaths = kinds(res.events, "deaths")
    assert deaths[0].visible_to is None and deaths[0].data["players"] == ["b"]
    assert "zone" not in deaths[0].data
    assert engine.current_phase(res.state).awaited == {seat(s, "a"), seat(s, "c")}
    try:
        engine.validate_order(res.state, seat(s, "b"), {"type": "move", "to": "paese"})
    except engine.errors.RefusedOrder as exc:
        assert exc.code == "PLAYER_DEAD"
    else:
        raise AssertionError("a dead player gave an order")


def test_shout_location_is_public_even_if_the_shouter_dies():
    s = position([{"id": "a", "zone": "strada", "firearm": "shotgun"},
                  {"id": "b", "zone": "strada", "energy": 5}, {"id": "c", "zone": "paese"}])
    s = play(s, "a", {"type": "attack", "weapon": "shotgun", "targets": ["b"]})
    s = play(s, "b", {"type": "shout"})
    res = engine.resolve(s, "sh")
    shout = kinds(res.events, "shout")[0]
    assert shout.visible_to is None and shout.data == {"player": "b", "zone": "strada"}
    assert not player(res.state, "b").alive


def test_double_damage_flag_opens_with_the_action_phase():
    s = position([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"},
                  {"id": "c", "zone": "campi"}], phase="tactical", market="unchanged",
                 config={"monster_count": 0, "k_rations_enabled": False})
    res = engine.resolve(s, "dd")
    assert res.state.double_damage
    assert kinds(res.events, "action_opened")[0].data["double_damage"] is True


def test_market_regime_is_drawn_from_the_next_turn_stream():
    s = position([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"}])
    st = engine.resolve(s, "mk").state
    roll = random.Random("mk|4|T|market").randrange(100)
    expected = "discounted" if roll < 8 else "unchanged" if roll < 25 else \
        "raised" if roll < 75 else "crazy"
    assert st.market == expected and st.turn == 4 and st.phase == "tactical"


def test_max_turns_all_living_sides_share_the_win():
    cfg = dict(NODD, max_turns=3)
    s = position([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"},
                  {"id": "c", "zone": "campi", "energy": 1}], config=cfg,
                 closed=["landa_del_sud", "ingresso"])
    st = engine.resolve(s, "mt").state
    assert st.over and set(st.winners) == {"a", "b", "c"}
    assert engine.current_phase(st) is None
    out = engine.outcome(st)
    assert out is not None and out.winners == {0, 1, 2}


def test_closed_zone_monster_moves_out_and_no_monster_replacement_at_four_living():
    s = position([{"id": f"p{i}", "zone": "strada", "firearm": "shotgun"} for i in range(4)],
                 monsters=[{"id": "m1", "zone": "strada", "energy": 6}])
    for i in range(4):
        s = play(s, f"p{i}", {"type": "attack", "weapon": "shotgun", "targets": ["m1"]})
    st = engine.resolve(s, "r").state
    assert [m.alive for m in st.monsters] == [False]
    s5 = position([{"id": f"p{i}", "zone": "strada", "firearm": "shotgun"} for i in range(5)],
                  monsters=[{"id": "m4", "zone": "strada", "energy": 6}])
    s5 = play(s5, "p0", {"type": "attack", "weapon": "shotgun", "targets": ["m4"]})
    st5 = engine.resolve(s5, "r").state
    assert [m.mid for m in st5.monsters] == ["m4", "m5"] and st5.monsters[1].alive
