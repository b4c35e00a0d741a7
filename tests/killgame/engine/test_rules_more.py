"""More rule corners: stuck players and monsters in closed zones, monster creation limits,
reward tables without K-rations, CHECK-mode phases, turn-1 fighting, the antidote."""

from __future__ import annotations

from killgame import engine

from .helpers import NODD, code_of, play, player, position

CL6 = ["landa_del_sud", "ingresso", "ruderi", "cimitero_del_vampire", "sede_cubota", "campi"]


def test_player_stuck_in_a_closed_zone_may_move_to_any_neighbour():
    s = position([{"id": "a", "zone": "landa_del_sud"}, {"id": "b", "zone": "paese"}],
                 turn=7, phase="tactical", closed=CL6, market="unchanged")
    assert code_of(s, "a", {"type": "move", "to": "campi"}) == "OK"
    assert code_of(s, "a", {"type": "move", "to": "paese"}) == "ZONE_NOT_ADJACENT"
    v = engine.player_view(s, player(s, "a").seat)
    assert v["moves"] == ["ingresso", "sede_cubota", "campi"]
    st = engine.resolve(play(s, "a", {"type": "move", "to": "campi"}), "x").state
    assert player(st, "a").zone == "campi" and player(st, "a").energy == 15


def test_monster_stuck_in_a_closed_zone_moves_to_a_free_neighbour():
    s = position([{"id": "a", "zone": "paese"}, {"id": "b", "zone": "strada"}],
                 turn=7, phase="tactical", closed=CL6, market="unchanged",
                 monsters=[{"id": "m1", "zone": "landa_del_sud", "energy": 7},
                           {"id": "m2", "zone": "ingresso", "energy": 7}])
    st = engine.resolve(s, "x").state
    m1, m2 = st.monsters
    # m1 moves first: its neighbours are all closed, ingresso holds m2
    assert m1.zone in ("sede_cubota", "campi")
    # m2 has open neighbours (strada, grandi_pianure)
    assert m2.zone in ("grandi_pianure", "strada")


def test_monster_that_cannot_move_stays():
    s = position([{"id": "a", "zone": "paese"}, {"id": "b", "zone": "strada"}],
                 turn=3, phase="tactical", closed=["landa_del_sud", "ingresso"],
                 market="unchanged",
                 monsters=[{"id": "m1", "zone": "cimitero_del_vampire", "energy": 7},
                           {"id": "m2", "zone": "foresta_del_nord", "energy": 7},
                           {"id": "m3", "zone": "ponte_ovest", "energy": 7}])
    st = engine.resolve(s, "x").state
    # m1's only neighbours hold m2 and m3 when it moves
    assert st.monsters[0].zone == "cimitero_del_vampire"


def test_more_monsters_than_zones_are_not_created():
    s = engine.setup({"map": "inferno", "monster_count": 40}, [0, 1], "many")
    st = engine.resolve(s, "many").state
    assert len(st.monsters) == 14 and len({m.zone for m in st.monsters}) == 14


def test_reward_rows_needing_rations_are_removed_when_rations_are_off():
    cfg = dict(NODD, rewards=[["2 K-rations", {"k_ration": 2}, 99], ["1 gas mask",
                                                                     {"gas_mask": 1}, 1]])
    s = position([{"id": "a", "zone": "strada", "approval": 2},
                  {"id": "b", "zone": "strada"}], config=cfg)
    s = play(s, "a", {"type": "attack", "weapon": "fists", "targets": ["b"]})
    st = engine.resolve(s, "r").state
    assert player(st, "a").items == {"gas_mask": 1} and player(st, "a").approval == 0


def test_check_mode_phase_spec():
    s = engine.setup({"check_enabled": True}, [0, 1, 2], "c")
    spec = engine.current_phase(s)
    assert spec.kind == "tactical" and spec.timing == "check" and spec.turn == 1
    assert spec.close_when_all_checked_in and spec.checkin_final
    assert spec.awaited == {0, 1, 2}
    plain = engine.current_phase(engine.setup({}, [0, 1], "c"))
    # scheduled mode closes early too once every living player checked in (issue 10)
    assert plain.timing == "schedule" and plain.close_when_all_checked_in
    assert not plain.checkin_final
    assert engine.default_orders(s, 0) == []


def test_turn1_action_allows_fighting_and_counts_approval():
    s = position([{"id": "a", "zone": "campi", "knife": "rambo_knife"},
                  {"id": "b", "zone": "campi"}, {"id": "c", "zone": "strada"}], turn=1)
    s = play(s, "a", {"type": "attack", "weapon": "rambo_knife", "targets": ["b"]})
    st = engine.resolve(s, "t").state
    assert player(st, "b").energy == 22
    assert [player(st, x).approval for x in "abc"] == [1, -1, 0]
    # no +20 persuasion in turn 1 (no shout was possible)
    assert player(st, "a").persuasion == 40


def test_antidote_is_consumed_and_clears_poison():
    s = position([{"id": "a", "zone": "strada", "items": {"antidote": 2}, "poison_until": 5},
                  {"id": "b", "zone": "paese"}], phase="tactical", turn=4, market="unchanged",
                 closed=["landa_del_sud", "ingresso", "ruderi"])
    st = engine.resolve(play(s, "a", {"type": "antidote"}), "x").state
    assert player(st, "a").poison_until == 0 and player(st, "a").items == {"antidote": 1}


def test_smoke_twice_in_one_turn_adds_nothing_and_later_extends():
    s = position([{"id": "a", "zone": "strada", "items": {"smoke_grenade": 1}},
                  {"id": "b", "zone": "paese", "items": {"smoke_grenade": 1}}],
                 phase="tactical", market="unchanged", closed=["landa_del_sud", "ingresso"])
    s = play(s, "a", {"type": "smoke", "zone": "paese"})
    s = play(s, "b", {"type": "smoke", "zone": "paese"})
    st = engine.resolve(s, "x").state
    assert st.smoke == {"paese": 4}


def test_vest_reward_is_reinforced_by_the_option():
    s = position([{"id": "a", "zone": "strada", "firearm": "shotgun"},
                  {"id": "b", "zone": "strada", "items": {"vest": 1},
                   "options": ["reinforced_vests"]}])
    s = play(s, "a", {"type": "attack", "weapon": "shotgun", "targets": ["b"]})
    s = play(s, "b", {"type": "wear", "items": ["vest"]})
    assert player(engine.resolve(s, "v").state, "b").energy == 25
