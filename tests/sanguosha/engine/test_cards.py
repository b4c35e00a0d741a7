"""Card effects of §7 not already covered by the worked-example scenarios."""

from __future__ import annotations

import pytest

from games.rules import IllegalOrder
from sanguosha import engine
from tests.sanguosha.engine.helpers import answer, ask, position, seat

D = [40, 41, 42, 43, 44, 45]


def hp(st, s):
    return st.raw["seats"][s]["hp"]


def test_yin_yang_swords_target_discards_or_user_draws():
    st = position([seat("lord", character="guanyu", hand=[1], equip={"weapon": 94}),
                   seat("rebel", 3, character="zhenji", hand=[46])], draw_pile=D)
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 0, {"yes": True})
    assert ask(st)["kind"] == "optional_cost" and ask(st)["awaited"] == [1]
    st = answer(st, 1, {"decline": True})
    assert st.raw["seats"][0]["hand"] == [40]
    st2 = position([seat("lord", character="guanyu", hand=[1], equip={"weapon": 94}),
                    seat("rebel", 3, character="zhenji")], draw_pile=D)
    st2 = answer(st2, 0, {"use": 1, "targets": [1]})
    st2 = answer(st2, 0, {"yes": True})  # empty hand: the user draws at once
    assert st2.raw["seats"][0]["hand"] == [40] and hp(st2, 1) == 2


def test_stone_cleaving_axe_forces_the_hit():
    st = position([seat("lord", hand=[1, 11, 12], equip={"weapon": 97}), seat("rebel", hand=[34])])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"card": 34})
    assert ask(st)["kind"] == "optional_cost" and 97 not in ask(st)["options"]["0"]["cards"]
    st = answer(st, 0, {"cards": [11, 12]})
    assert hp(st, 1) == 3


def test_sky_piercing_halberd_whole_hand_three_targets():
    st = position([seat("lord", hand=[1], equip={"weapon": 98}), seat("rebel"), seat("rebel"),
                   seat("loyalist")])
    st = answer(st, 0, {"use": 1, "targets": [3, 1, 2]})
    assert [hp(st, s) for s in (1, 2, 3)] == [3, 3, 3]
    st = position([seat("lord", hand=[1, 2], equip={"weapon": 98}), seat("rebel"), seat("rebel")])
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"use": 1, "targets": [1, 2]})


def test_serpent_spear_two_cards_colourless_kill_passes_renwang():
    st = position([seat("lord", hand=[11, 46], equip={"weapon": 96}),
                   seat("rebel", equip={"armor": 102})])
    st = answer(st, 0, {"use": [11, 46], "as": "slash", "targets": [1]})
    assert hp(st, 1) == 3
    st = position([seat("lord", hand=[11, 12], equip={"weapon": 96}),
                   seat("rebel", equip={"armor": 102})])
    st = answer(st, 0, {"use": [11, 12], "as": "slash", "targets": [1]})
    assert hp(st, 1) == 4  # two black cards: a black Kill


def test_basic_weapon_abilities_switch_off_advanced_weapons():
    st = position([seat("lord", hand=[1, 11, 12], equip={"weapon": 97}), seat("rebel", hand=[34])],
                  config={"weapon_abilities": "basic"})
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"card": 34})
    assert ask(st)["kind"] == "play" and hp(st, 1) == 4


def test_peach_only_when_wounded():
    st = position([seat("lord", hand=[46]), seat("rebel")])
    with pytest.raises(IllegalOrder, match="not wounded"):
        engine.submit(st, 0, {"use": 46})
    st = position([seat("lord", 3, max_hp=4, hand=[46]), seat("rebel")])
    st = answer(st, 0, {"use": 46})
    assert hp(st, 0) == 4


def test_lightning_only_once_per_judgment_area_and_indulgence_once():
    st = position([seat("lord", hand=[85, 86], judgment=[]), seat("rebel")])
    st = answer(st, 0, {"use": 85})
    assert st.raw["seats"][0]["judg"] == [85]
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"use": 86})
    st = position([seat("lord", hand=[87, 88]), seat("rebel")])
    st = answer(st, 0, {"use": 87, "targets": [1]})
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"use": 88, "targets": [1]})


def test_indulgence_skips_play_unless_heart():
    st = position([seat("lord"), seat("rebel", judgment=[87])], draw_pile=[1] + D)
    st = answer(st, 0, {"end": True})
    assert st.raw["current"] == 0 and st.raw["seats"][1]["hand"] == [40, 41]


def test_equipment_replaces_and_discards_the_old_card():
    st = position([seat("lord", hand=[93], equip={"weapon": 92}), seat("rebel")])
    st = answer(st, 0, {"use": 93})
    assert st.raw["seats"][0]["equip"]["weapon"] == 93 and st.raw["discard"] == [92]


def test_something_from_nothing_and_negate_window_with_no_holder():
    st = position([seat("lord", hand=[70]), seat("rebel")], draw_pile=D)
    st = answer(st, 0, {"use": 70})
    assert st.raw["seats"][0]["hand"] == [40, 41]


def test_arrow_barrage_eight_trigrams_may_answer():
    st = position([seat("lord", hand=[81]), seat("rebel", equip={"armor": 100})], draw_pile=[31] + D)
    st = answer(st, 0, {"use": 81})
    assert ask(st)["options"]["1"]["armor"]
    st = answer(st, 1, {"armor": True})
    assert hp(st, 1) == 4


def test_green_steel_sword_ignores_renwang():
    st = position([seat("lord", hand=[1], equip={"weapon": 92}), seat("rebel", equip={"armor": 102})])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    assert hp(st, 1) == 3


def test_dismantle_judgment_area_card():
    st = position([seat("lord", hand=[54]), seat("rebel", judgment=[87], hand=[11])])
    st = answer(st, 0, {"use": 54, "targets": [1]})
    slots = [x["slot"] for x in ask(st)["options"]["0"]["slots"]]
    assert slots == ["hand-1", "judgment-1"]
    st = answer(st, 0, {"slot": "judgment-1"})
    assert st.raw["seats"][1]["judg"] == [] and 87 in st.raw["discard"]


def test_blind_slots_are_shuffled_with_the_phase_seed_outside_scenarios():
    st = position([seat("lord", hand=[54]), seat("rebel", hand=[11, 12, 13, 14, 15, 16])])
    raw = engine.dump(st)
    raw["scenario"] = False
    st = engine.submit(engine.load(raw), 0, {"use": 54, "targets": [1]}).state
    maps = []
    for seed in ("a", "a", "b", "c", "d"):
        r = engine.resolve(st, seed).state
        frame = r.raw["stack"][-1]
        assert frame["t"] == "choose_card"
        maps.append([frame["map"][f"hand-{i}"] for i in range(1, 7)])
        view = engine.player_view(r, 0)
        assert all("card" not in x for x in view["legal"]["slots"])
    assert maps[0] == maps[1]
    assert len({tuple(m) for m in maps}) > 1


def test_borrowed_sword_lord_may_rouse_a_kill():
    st = position([seat("lord", character="liubei", equip={"weapon": 95}), seat("rebel", hand=[68]),
                   seat("loyalist", character="guanyu", hand=[8]), seat("renegade")], current=1)
    st = answer(st, 1, {"use": 68, "targets": [0], "sub_target": 3})
    assert ask(st)["kind"] == "borrowed_sword" and ask(st)["options"]["0"]["lord_skill"]
    st = answer(st, 0, {"lord_skill": True})
    assert ask(st)["awaited"] == [2]
    st = answer(st, 2, {"card": 8})
    assert hp(st, 3) == 3 and st.raw["seats"][0]["equip"]["weapon"] == 95


def test_borrowed_sword_rouse_fails_then_the_weapon_moves():
    st = position([seat("lord", character="liubei", equip={"weapon": 95}), seat("rebel", hand=[68]),
                   seat("loyalist", character="guanyu"), seat("renegade")], current=1)
    st = answer(st, 1, {"use": 68, "targets": [0], "sub_target": 3})
    st = answer(st, 0, {"lord_skill": True})  # Guan Yu has no card: not asked; no Kill
    assert ask(st)["kind"] == "play" and st.raw["seats"][1]["hand"] == [95]


def test_sequential_rescue_asks_in_order_and_again():
    st = position([seat("lord", hand=[1]), seat("rebel", 1, hand=[46, 47]), seat("loyalist", hand=[48])],
                  config={"rescue_mode": "sequential"}, draw_pile=D)
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"decline": True})  # no Dodge: HP 0, dying
    assert ask(st)["kind"] == "rescue" and ask(st)["awaited"] == [1]  # seat 0 has no hand card
    st = answer(st, 1, {"pass": True})
    assert ask(st)["awaited"] == [2]
    st = answer(st, 2, {"peaches": [48]})
    assert hp(st, 1) == 1 and ask(st)["kind"] == "play"


def test_pledge_rescue_with_too_many_peaches_is_refused():
    st = position([seat("lord", hand=[1]), seat("rebel", 1, hand=[46, 47])], draw_pile=D)
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"decline": True})
    with pytest.raises(IllegalOrder):
        engine.submit(st, 1, {"peaches": [46, 47]})
    with pytest.raises(IllegalOrder):
        engine.submit(st, 1, {"peaches": [1]})
