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


def test_eye_for_an_eye_cost_reaches_the_discard_pile_before_the_judgment_card():
    """§8 steps 3–5: the effect completes while the judgment card is still on the table."""
    st = position([seat("lord", hand=[1, 12, 13]), seat("rebel", character="xiahoudun")],
                  draw_pile=[20, 40, 41])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"yes": True})  # judgment: Kill ♣9, not ♥
    assert ask(st)["kind"] == "optional_cost"
    assert 20 in st.raw["proc"] and 20 not in st.raw["discard"]  # seen while the source decides
    st = answer(st, 0, {"cards": [12, 13]})
    discard = st.raw["discard"]
    assert discard.index(12) < discard.index(20) and discard.index(13) < discard.index(20)


def test_eye_for_an_eye_damage_is_dealt_before_the_judgment_card_leaves():
    st = position([seat("lord", 1, max_hp=4, hand=[1, 46]),
                   seat("rebel", character="xiahoudun")], draw_pile=[20, 40])
    st = answer(st, 0, {"use": 1, "targets": [1]})
    st = answer(st, 1, {"yes": True})  # one hand card left: the lord must take the damage
    assert ask(st)["kind"] == "rescue" and hp(st, 0) == 0  # dying inside the judgment's effect
    assert 20 in st.raw["proc"] and 20 not in st.raw["discard"]
    st = answer(st, 0, {"peaches": [46]})
    assert hp(st, 0) == 1 and st.raw["discard"][-3:] == [46, 20, 1]
