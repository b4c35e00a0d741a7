"""Each standard character's skills (§11), beyond the worked examples of §14."""

from __future__ import annotations

import pytest

from games.rules import IllegalOrder
from sanguosha import engine
from sanguosha.engine.data import CHARACTERS
from sanguosha.engine.skills import ACTIVES, CONVERSIONS, TRIGGER_BY_SKILL
from tests.sanguosha.engine.helpers import answer, ask, position, seat

D = [40, 41, 42, 43, 44, 45, 27, 28, 29]


def hand(st, s):
    return st.raw["seats"][s]["hand"]


def hp(st, s):
    return st.raw["seats"][s]["hp"]


def test_every_character_has_a_module_and_every_skill_is_implemented():
    import importlib
    inline = {"hujia", "guicai", "paoxiao", "kongcheng", "mashu", "qicai", "jiuyuan", "qianxun",
              "wushuang"}
    registered = set(ACTIVES) | set(TRIGGER_BY_SKILL) | {c.skill for c in CONVERSIONS} | inline
    for cid, info in CHARACTERS.items():
        importlib.import_module(f"sanguosha.engine.characters.{cid}")
        for sk in info.skills:
            assert sk in registered, sk


def test_royal_escort_wei_helper_gives_the_dodge():
    st = position([seat("lord", character="caocao"), seat("rebel", hand=[1]),
                   seat("loyalist", character="zhenji", hp=3, hand=[2])], current=1)
    st = answer(st, 1, {"use": 1, "targets": [0]})
    assert ask(st)["kind"] == "respond" and ask(st)["options"]["0"]["lord_skill"]
    st = answer(st, 0, {"lord_skill": True})
    assert ask(st)["awaited"] == [2]
    st = answer(st, 2, {"card": 2, "as": "jink"})  # Beauty: a black card as a Dodge
    assert hp(st, 0) == 4 and 2 in st.raw["discard"]


def test_royal_escort_nobody_helps_lord_may_still_answer():
    st = position([seat("lord", character="caocao", hand=[34]), seat("rebel", hand=[1]),
                   seat("loyalist", character="xuchu", hand=[11])], current=1)
    st = answer(st, 1, {"use": 1, "targets": [0]})
    st = answer(st, 0, {"lord_skill": True})
    st = answer(st, 2, {"decline": True})
    assert ask(st)["awaited"] == [0] and not ask(st)["options"]["0"]["lord_skill"]
    st = answer(st, 0, {"card": 34})
    assert hp(st, 0) == 4


def test_retaliation_takes_a_card_from_the_source():
    st = position([seat("lord", hand=[1], equip={"weapon": 92}), seat("rebel", 3, character="simayi")])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"yes": True})
    assert hand(st, 1) == [92] and st.raw["seats"][0]["equip"]["weapon"] is None


def test_eye_for_an_eye_source_takes_damage_or_discards():
    st = position([seat("lord", hand=[1, 11, 12, 13]), seat("rebel", character="xiahoudun")],
                  draw_pile=[2, 3])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"yes": True})  # judgment Kill ♠8: not ♥
    assert ask(st)["kind"] == "optional_cost" and ask(st)["awaited"] == [0]
    st = answer(st, 0, {"cards": [11, 12]})
    assert hp(st, 0) == 4 and hand(st, 0) == [13]
    st2 = position([seat("lord", hand=[1, 11]), seat("rebel", character="xiahoudun")], draw_pile=[2])
    st2 = answer(st2, 0, {"use": 1, "targets": [1]})
    st2 = answer(st2, 1, {"yes": True})
    assert hp(st2, 0) == 3  # fewer than 2 hand cards: must take the damage


def test_sudden_strike_takes_instead_of_drawing():
    st = position([seat("lord", character="zhangliao"), seat("rebel", hand=[11, 12]),
                   seat("renegade", hand=[13])], current=2, draw_pile=D)
    st = answer(st, 2, {"end": True})
    assert ask(st)["kind"] == "invoke" and ask(st)["options"]["0"]["targets"] == [1, 2]
    st = answer(st, 0, {"yes": True, "targets": [1, 2]})
    assert ask(st)["kind"] == "choose_card"  # seat 1 has 2 hand cards
    st = answer(st, 0, {"slot": "hand-2"})
    assert sorted(hand(st, 0)) == [12, 13] and st.raw["draw"][:1] == [40]


def test_envy_of_heaven_and_bequeathed_strategy():
    st = position([seat("lord", hand=[1]), seat("rebel", 3, character="guojia",
                                                  equip={"armor": 100})], draw_pile=[31, 40, 41])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"armor": True})  # judgment ♥2 red: dodged
    assert ask(st)["kind"] == "invoke" and ask(st)["info"]["skill"] == "tiandu"
    st = answer(st, 1, {"yes": True})
    assert hand(st, 1) == [31] and hp(st, 1) == 3
    st = position([seat("lord", hand=[1]), seat("rebel", 3, character="guojia")], draw_pile=[40, 41])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    assert ask(st)["kind"] == "distribute"
    st = answer(st, 1, {"give": {"40": 0, "41": 1}})
    assert hand(st, 0) == [40] and hand(st, 1) == [41] and hp(st, 1) == 2


def test_goddess_luo_keeps_black_until_red():
    st = position([seat("lord", character="zhenji", hp=3), seat("rebel")], current=1,
                  draw_pile=[1, 2, 31, 40, 41, 42])
    st = answer(st, 1, {"end": True})
    st = answer(st, 0, {"yes": True})
    st = answer(st, 0, {"yes": True})
    st = answer(st, 0, {"yes": True})  # third judgment ♥2: red, discarded
    assert hand(st, 0) == [1, 2, 40, 41] and 31 in st.raw["discard"]


def test_roar_lifts_the_kill_limit():
    st = position([seat("lord", character="zhangfei", hand=[1, 2]), seat("rebel")])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 0, {"use": 2, "targets": [1]})
    assert hp(st, 1) == 2


def test_stargazing_arranges_the_top():
    st = position([seat("lord", character="zhugeliang", hp=3), seat("rebel")], current=1,
                  draw_pile=[40, 41, 42, 43])
    st = answer(st, 1, {"end": True})
    assert ask(st)["kind"] == "arrange" and ask(st)["options"]["0"]["cards"] == [40, 41]
    st = answer(st, 0, {"top": [41], "bottom": [40]})
    assert hand(st, 0) == [41, 42] and st.raw["draw"] == [43, 40]


def test_iron_cavalry_black_allows_dodge_and_horsemanship():
    st = position([seat("lord", character="machao", hand=[1]), seat("rebel"), seat("loyalist", hand=[34])],
                  draw_pile=[2])
    st = answer(st, 0, {"use": 1, "targets": [2]})  # d(0,2)=1 with Horsemanship
    st = answer(st, 0, {"yes": True})
    assert ask(st)["kind"] == "respond"
    st = answer(st, 2, {"card": 34})
    assert hp(st, 2) == 4


def test_genius_snatch_ignores_distance():
    st = position([seat("lord", character="huangyueying", hp=3, hand=[60]), seat("rebel"),
                   seat("loyalist", hand=[11]), seat("rebel")], draw_pile=D)
    st = answer(st, 0, {"use": 60, "targets": [2]})
    st = answer(st, 0, {"no": True})  # Wisdom declined
    assert 11 in hand(st, 0)


def test_balance_of_power_once_per_phase():
    st = position([seat("lord", character="sunquan", hand=[1, 2], equip={"weapon": 92}), seat("rebel")],
                  draw_pile=D)
    st = answer(st, 0, {"skill": "zhiheng", "cards": [1, 92]})
    assert hand(st, 0) == [2, 40, 41] and st.raw["discard"] == [1, 92]
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"skill": "zhiheng", "cards": [2]})


def test_surprise_raid_black_equipment_as_dismantle():
    st = position([seat("lord", character="ganning", equip={"weapon": 92}), seat("rebel", hand=[11])])
    st = answer(st, 0, {"use": 92, "as": "dismantlement", "targets": [1]})
    assert hand(st, 1) == [] and st.raw["discard"] == [11, 92]


def test_national_beauty_diamond_as_indulgence():
    st = position([seat("lord", character="daqiao", hp=3, hand=[34]), seat("rebel")])
    st = answer(st, 0, {"use": 34, "as": "indulgence", "targets": [1]})
    assert st.raw["seats"][1]["judg"] == [34]


def test_humility_blocks_snatch_and_indulgence():
    st = position([seat("lord", hand=[60, 87]), seat("rebel", 3, character="luxun", hand=[11])])
    with pytest.raises(IllegalOrder, match="Humility"):
        engine.submit(st, 0, {"use": 60, "targets": [1]})
    with pytest.raises(IllegalOrder, match="Humility"):
        engine.submit(st, 0, {"use": 87, "targets": [1]})


def test_linked_camps_draws_when_the_hand_empties():
    st = position([seat("lord", character="luxun", hp=3, hand=[70]), seat("rebel")], draw_pile=D)
    st = answer(st, 0, {"use": 70})
    assert ask(st)["info"]["skill"] == "lianying"
    st = answer(st, 0, {"yes": True})
    assert hand(st, 0) == [40, 41, 42]  # Linked Camps first, then Something from Nothing


def test_warrior_lady_draws_when_equipment_leaves():
    st = position([seat("lord", hand=[54]), seat("rebel", 3, character="sunshangxiang",
                                                   equip={"weapon": 92})], draw_pile=D)
    st = answer(st, 0, {"use": 54, "targets": [1]})
    st = answer(st, 1, {"yes": True})
    assert hand(st, 1) == [40, 41]


def test_marriage_heals_both():
    st = position([seat("lord", 2, max_hp=3, character="sunshangxiang", hand=[11, 12]),
                   seat("rebel", 2, max_hp=4, character="guanyu")])
    st = answer(st, 0, {"skill": "jieyin", "cards": [11, 12], "targets": [1]})
    assert hp(st, 0) == 3 and hp(st, 1) == 3


def test_green_satchel_and_first_aid():
    st = position([seat("lord", 2, max_hp=4, hand=[11]), seat("rebel", 3, character="huatuo", hand=[12])])
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"skill": "qingnang", "cards": [11], "targets": [0]})
    st = position([seat("lord", 3, character="huatuo", hand=[11]), seat("rebel", 2, max_hp=4)])
    st = answer(st, 0, {"skill": "qingnang", "cards": [11], "targets": [1]})
    assert hp(st, 1) == 3
    st = position([seat("lord", hand=[1]), seat("rebel", 1, max_hp=3, character="huatuo",
                                                    equip={"weapon": 99})])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    assert ask(st)["kind"] == "rescue" and ask(st)["options"]["1"]["cards"] == [99]
    st = answer(st, 1, {"peaches": [99]})
    assert hp(st, 1) == 1


def test_sow_dissension():
    st = position([seat("lord", 3, character="zhouyu", hand=[46, 1]), seat("rebel")])
    st = answer(st, 0, {"skill": "fanjian", "targets": [1]})
    assert ask(st)["kind"] == "choose_option"
    st = answer(st, 1, {"suit": "heart"})
    st = answer(st, 1, {"slot": "hand-2"})  # Kill ♠7: not ♥
    assert hand(st, 1) == [1] and hp(st, 1) == 3


def test_handsome_draws_three():
    st = position([seat("lord", 3, character="zhouyu"), seat("rebel")], current=1, draw_pile=D)
    st = answer(st, 1, {"end": True})
    st = answer(st, 0, {"yes": True})
    assert hand(st, 0) == [40, 41, 42]


def test_eclipse_the_moon():
    st = position([seat("lord", 3, character="diaochan"), seat("rebel")], draw_pile=D)
    st = answer(st, 0, {"end": True})
    st = answer(st, 0, {"yes": True})
    assert hand(st, 0) == [40]


def test_sow_discord_needs_two_men_and_a_legal_duel_target():
    st = position([seat("lord", 3, character="diaochan", hand=[47]),
                   seat("rebel", 3, character="zhugeliang"), seat("loyalist", character="guanyu")])
    with pytest.raises(IllegalOrder, match="Empty City"):
        engine.submit(st, 0, {"skill": "lijian", "cards": [47], "targets": [1, 2]})
    st = position([seat("lord", 3, character="diaochan", hand=[47]),
                   seat("rebel", 3, character="zhenji"), seat("loyalist", character="guanyu")])
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"skill": "lijian", "cards": [47], "targets": [1, 2]})


def test_dragon_heart_kill_as_dodge():
    st = position([seat("lord", hand=[1]), seat("rebel", character="zhaoyun", hand=[2])])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"card": 2, "as": "jink"})
    assert hp(st, 1) == 4


def test_warrior_saint_red_equipment_as_kill_recomputes_range():
    st = position([seat("lord", character="guanyu", equip={"minus_horse": 106}), seat("rebel"),
                   seat("loyalist"), seat("rebel")])
    with pytest.raises(IllegalOrder):
        engine.submit(st, 0, {"use": 106, "as": "slash", "targets": [2]})
    st = answer(st, 0, {"use": 106, "as": "slash", "targets": [1]})
    assert hp(st, 1) == 3


def test_self_mastery_only_without_kill():
    st = position([seat("lord", 1, character="lvmeng", hand=[1, 11, 12]), seat("rebel", 4)],
                  draw_pile=D)
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 0, {"end": True})
    assert ask(st)["kind"] == "discard"


def test_national_beauty_indulgence_is_judged_as_indulgence():
    st = position([seat("lord", character="daqiao", hp=3, hand=[34]), seat("rebel")],
                  draw_pile=[1, 40, 41, 42, 43])
    st = answer(st, 0, {"use": 34, "as": "indulgence", "targets": [1]})
    view = engine.player_view(st, None)
    assert view["seats"][1]["judgment"] == [34] and view["seats"][1]["judgment_as"] == ["indulgence"]
    st = answer(st, 0, {"end": True})
    # seat 1: judgment Kill ♠7 is not ♥ → Play skipped; the ♦ card is discarded
    assert st.raw["current"] == 0 and 34 in st.raw["discard"] and st.raw["virtual"] == {}


def test_bequeathed_strategy_refuses_malformed_gifts():
    st = position([seat("lord", hand=[1]), seat("rebel", 3, character="guojia")], draw_pile=[40, 41])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    for bad in ({"give": {"x": 0, "41": 1}}, {"give": {"40": 0}}, {"give": {"40": 9, "41": 1}},
                {"give": [40]}):
        with pytest.raises((IllegalOrder, engine.InvalidOrder)):
            engine.submit(st, 1, bad)
    st = answer(st, 1, {"keep": True})
    assert hand(st, 1) == [40, 41]


def test_linked_camps_after_a_failed_rescue_comes_before_death():
    st = position([seat("lord"), seat("rebel", 2, max_hp=3, character="luxun", hand=[46],
                                        judgment=[85]), seat("loyalist"), seat("renegade")],
                  draw_pile=[104, 40, 41, 42])
    st = answer(st, 0, {"end": True})  # Lightning hits Lu Xun: HP -1, needs 2 Peaches
    assert ask(st)["kind"] == "rescue" and ask(st)["awaited"] == [1]
    st = answer(st, 1, {"peaches": [46]})  # HP 0, hand empty: Linked Camps first
    assert ask(st)["kind"] == "invoke" and ask(st)["info"]["skill"] == "lianying"
    assert st.raw["seats"][1]["alive"] and hp(st, 1) == 0
    st = answer(st, 1, {"yes": True})
    assert not st.raw["seats"][1]["alive"] and 40 in st.raw["discard"]
