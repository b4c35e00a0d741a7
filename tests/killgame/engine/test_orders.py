"""Every §19 error code, the §19 priority order, order slots, withdraw, CHECK and the market."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.rules import IllegalOrder, InvalidOrder
from killgame import engine
from killgame.engine import errors

from .helpers import NODD, code_of, play, player, position, seat

CL = ["landa_del_sud", "ingresso"]


def tactical(players, **kw):
    kw.setdefault("market", "unchanged")
    return position(players, phase="tactical", closed=kw.pop("closed", CL), **kw)


def action(players, **kw):
    return position(players, phase="action", closed=kw.pop("closed", CL), **kw)


def turn1(n=2, **kw):
    return position([{"id": f"p{i}"} for i in range(n)], turn=1, phase="tactical", **kw)


def test_error_codes_are_the_section_19_list_in_priority_order():
    assert errors.CODES[0] == "MALFORMED" and errors.CODES[-1] == "NO_EFFECT"
    assert len(errors.CODES) == 25


@pytest.mark.parametrize("order", [
    None, {}, {"type": "dance"}, {"type": "move"}, {"type": "move", "to": 3},
    {"type": "move", "to": "paese", "extra": 1},
    {"type": "withdraw", "slot": "medkit"},
])
def test_malformed(order):
    s = tactical([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"}])
    assert code_of(s, "a", order) == "MALFORMED"


def test_malformed_errors_are_invalid_order_and_others_illegal_order():
    s = tactical([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"}])
    with pytest.raises(InvalidOrder) as exc:
        engine.submit(s, 0, {"type": "nope"})
    assert exc.value.code == "MALFORMED" and exc.value.reason
    with pytest.raises(IllegalOrder) as exc2:
        engine.submit(s, 0, {"type": "move", "to": "grotta"})
    assert exc2.value.code == "ZONE_NOT_ADJACENT"
    err = exc2.value.as_dict()
    assert err["field"] == "to" and err["message"] == errors.MSG_MOVE_NOT_ADJACENT
    assert err["details"] == {"from": "strada", "to": "grotta",
                              "adjacent": ["campi", "ponte_est", "paese"]}


def test_cart_shape_errors():
    s = turn1()
    assert code_of(s, "p0", {"type": "cart", "items": {"fists": 1}}) == "MALFORMED"
    assert code_of(s, "p0", {"type": "cart", "items": {"vest": 0}}) == "MALFORMED"
    assert code_of(s, "p0", {"type": "cart", "items": {"gas_launcher": 2}}) == "SLOT_OCCUPIED"
    assert code_of(s, "p0", {"type": "cart", "items": {"shotgun": 1, "sniper_rifle": 1}}) == \
        "SLOT_OCCUPIED"
    assert code_of(s, "p0", {"type": "cart", "items": {"pistol": 1}}) == "UNKNOWN_ID"
    assert code_of(s, "p0", {"type": "cart", "items": {"flamethrower": 1, "vest": 14}}) == \
        "OVER_BUDGET"
    with pytest.raises(IllegalOrder) as exc:
        engine.submit(s, 0, {"type": "cart", "items": {"flamethrower": 1, "vest": 14}})
    assert exc.value.details == {"total": 1050, "available": 1000}
    assert code_of(s, "p0", {"type": "cart", "items": {"flamethrower": 1, "vest": 13}}) == "OK"


def test_cart_k_rations_disabled_is_feature_disabled():
    s = turn1(config=dict(NODD))
    assert code_of(s, "p0", {"type": "cart", "items": {"k_ration": 1}}) == "FEATURE_DISABLED"


def test_unknown_ids():
    s = action([{"id": "a", "zone": "strada", "firearm": "sniper_rifle"},
                {"id": "b", "zone": "strada"}])
    assert code_of(s, "a", {"type": "attack", "weapon": "sniper_rifle", "targets": ["zz"]}) == \
        "UNKNOWN_ID"
    assert code_of(s, "a", {"type": "attack", "weapon": "pistol", "targets": ["b"]}) == \
        "UNKNOWN_ID"
    assert code_of(s, "a", {"type": "grenade", "zone": "atlantis"}) == "UNKNOWN_ID"
    assert code_of(s, "a", {"type": "wear", "items": ["helmet"]}) == "UNKNOWN_ID"


def test_not_a_participant_match_not_running_and_player_dead():
    s = action([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "strada"}])
    with pytest.raises(IllegalOrder) as exc:
        engine.validate_order(s, 99, {"type": "shout"})
    assert exc.value.code == "NOT_A_PARTICIPANT"
    over = replace(s, over=True)
    assert code_of(over, "a", {"type": "shout"}) == "MATCH_NOT_RUNNING"
    dead = replace(s, players=(replace(s.players[0], alive=False, energy=0), s.players[1]))
    # PLAYER_DEAD comes before WRONG_PHASE
    assert code_of(dead, "a", {"type": "move", "to": "paese"}) == "PLAYER_DEAD"


def test_wrong_phase():
    a = action([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "strada"}])
    assert code_of(a, "a", {"type": "move", "to": "paese"}) == "WRONG_PHASE"
    assert code_of(a, "a", {"type": "buy", "item": "vest"}) == "WRONG_PHASE"
    t = tactical([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "strada"}])
    assert code_of(t, "a", {"type": "attack", "weapon": "fists", "targets": ["b"]}) == \
        "WRONG_PHASE"
    assert code_of(t, "a", {"type": "shout"}) == "WRONG_PHASE"


def test_already_checked_locks_orders_and_market():
    cfg = dict(NODD, check_enabled=True)
    s = tactical([{"id": "a", "zone": "strada", "coins": 500}, {"id": "b", "zone": "paese"}],
                 config=cfg)
    sub = engine.submit(s, seat(s, "a"), {"type": "check"})
    assert sub.done
    s2 = sub.state
    assert code_of(s2, "a", {"type": "move", "to": "paese"}) == "ALREADY_CHECKED"
    assert code_of(s2, "a", {"type": "buy", "item": "vest"}) == "ALREADY_CHECKED"
    assert code_of(s2, "a", {"type": "check"}) == "ALREADY_CHECKED"


def test_check_without_check_mode_is_feature_disabled():
    s = tactical([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"}])
    assert code_of(s, "a", {"type": "check"}) == "FEATURE_DISABLED"


@pytest.mark.parametrize("order", [
    {"type": "move", "to": "paese"}, {"type": "medkit", "target": "self"},
    {"type": "antidote"}, {"type": "smoke", "zone": "strada"}, {"type": "gas", "zone": "strada"},
    {"type": "buy", "item": "vest"}, {"type": "sell", "item": "vest"},
])
def test_turn1_tactical_forbidden(order):
    assert code_of(turn1(), "p0", order) == "NOT_ALLOWED_THIS_TURN"


def test_turn1_action_forbidden_and_later_turn_shopping():
    s = position([{"id": "a", "zone": "strada", "items": {"grenade": 1}},
                  {"id": "b", "zone": "strada"}], turn=1, phase="action")
    assert code_of(s, "a", {"type": "grenade", "zone": "paese"}) == "NOT_ALLOWED_THIS_TURN"
    assert code_of(s, "a", {"type": "c4", "zone": "paese"}) == "NOT_ALLOWED_THIS_TURN"
    assert code_of(s, "a", {"type": "shout"}) == "NOT_ALLOWED_THIS_TURN"
    assert code_of(s, "a", {"type": "attack", "weapon": "fists", "targets": ["b"]}) == "OK"
    t = tactical([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "paese"}])
    assert code_of(t, "a", {"type": "cart", "items": {}}) == "NOT_ALLOWED_THIS_TURN"
    assert code_of(t, "a", {"type": "start_zone", "zone": "campi"}) == "NOT_ALLOWED_THIS_TURN"


def test_not_sellable_and_feature_disabled():
    s = tactical([{"id": "a", "zone": "strada", "options": ["gas_launcher"]},
                  {"id": "b", "zone": "paese"}])
    assert code_of(s, "a", {"type": "sell", "item": "fists"}) == "NOT_SELLABLE"
    assert code_of(s, "a", {"type": "sell", "item": "gas_launcher"}) == "NOT_SELLABLE"
    assert code_of(s, "a", {"type": "sell", "item": "vest"}) == "ITEM_NOT_OWNED"
    assert code_of(s, "a", {"type": "buy", "item": "k_ration"}) == "FEATURE_DISABLED"
    assert code_of(s, "a", {"type": "buy", "item": "fists"}) == "MALFORMED"
    k = tactical([{"id": "a", "zone": "strada", "items": {"k_ration": 3}},
                  {"id": "b", "zone": "paese"}], config={"monster_count": 0})
    assert code_of(k, "a", {"type": "sell", "item": "k_ration"}) == "NOT_SELLABLE"


def test_item_not_owned():
    s = action([{"id": "a", "zone": "strada", "knife": "small_knife"},
                {"id": "b", "zone": "strada"}])
    assert code_of(s, "a", {"type": "attack", "weapon": "shotgun", "targets": ["b"]}) == \
        "ITEM_NOT_OWNED"
    assert code_of(s, "a", {"type": "attack", "weapon": "fists", "targets": ["b"]}) == \
        "ITEM_NOT_OWNED"
    assert code_of(s, "a", {"type": "wear", "items": ["vest"]}) == "ITEM_NOT_OWNED"
    assert code_of(s, "a", {"type": "grenade", "zone": "paese"}) == "ITEM_NOT_OWNED"
    t = tactical([{"id": "a", "zone": "strada", "items": {"medkit": 1}, "energy": 10},
                  {"id": "b", "zone": "paese"}])
    t = play(t, "a", {"type": "medkit", "target": "self"})
    assert code_of(t, "a", {"type": "medkit", "target": "self"}) == "ITEM_NOT_OWNED"


def test_weapon_reloading_only_blocks_machine_gun_and_shotgun():
    s = action([{"id": "a", "zone": "strada", "firearm": "shotgun", "reload_turn": 3},
                {"id": "b", "zone": "strada"}])
    assert code_of(s, "a", {"type": "attack", "weapon": "shotgun", "targets": ["b"]}) == \
        "WEAPON_RELOADING"
    assert code_of(s, "a", {"type": "attack", "weapon": "fists", "targets": ["b"]}) == "OK"
    s2 = action([{"id": "a", "zone": "strada", "firearm": "sniper_rifle", "reload_turn": 3},
                 {"id": "b", "zone": "strada"}])
    assert code_of(s2, "a", {"type": "attack", "weapon": "sniper_rifle", "targets": ["b"]}) == "OK"


def test_exclusive_action_conflict_and_replacement():
    s = action([{"id": "a", "zone": "strada", "firearm": "shotgun", "knife": "small_knife",
                 "items": {"grenade": 1, "c4": 1}}, {"id": "b", "zone": "strada"}])
    s = play(s, "a", {"type": "attack", "weapon": "shotgun", "targets": ["b"]})
    seq1 = player(s, "a").slot("combat").seq
    assert code_of(s, "a", {"type": "attack", "weapon": "small_knife", "targets": ["b"]}) == \
        "EXCLUSIVE_ACTION_CONFLICT"
    assert code_of(s, "a", {"type": "grenade", "zone": "paese"}) == "EXCLUSIVE_ACTION_CONFLICT"
    s = play(s, "a", {"type": "attack", "weapon": "shotgun", "targets": ["b"]})
    assert player(s, "a").slot("combat").seq > seq1
    assert len([o for o in player(s, "a").orders if o.slot == "combat"]) == 1
    s = play(s, "a", {"type": "withdraw", "slot": "combat"}, {"type": "c4", "zone": "paese"})
    assert code_of(s, "a", {"type": "grenade", "zone": "paese"}) == "EXCLUSIVE_ACTION_CONFLICT"
    assert code_of(s, "a", {"type": "withdraw", "slot": "wear"}) == "NO_EFFECT"


def test_zone_errors():
    t = tactical([{"id": "a", "zone": "ingresso", "items": {"smoke_grenade": 1,
                                                           "gas_canister": 1}},
                  {"id": "b", "zone": "paese"}])
    assert code_of(t, "a", {"type": "move", "to": "landa_del_sud"}) == "ZONE_CLOSED"
    assert code_of(t, "a", {"type": "move", "to": "paese"}) == "ZONE_NOT_ADJACENT"
    assert code_of(t, "a", {"type": "move", "to": "strada"}) == "OK"
    assert code_of(t, "a", {"type": "smoke", "zone": "landa_del_sud"}) == "ZONE_CLOSED"
    assert code_of(t, "a", {"type": "smoke", "zone": "grotta"}) == "ZONE_NOT_ADJACENT"
    assert code_of(t, "a", {"type": "smoke", "zone": "ingresso"}) == "ZONE_CLOSED"
    assert code_of(t, "a", {"type": "smoke", "zone": "strada"}) == "OK"
    assert code_of(t, "a", {"type": "gas", "zone": "grotta"}) == "ZONE_NOT_ADJACENT"
    launcher = tactical([{"id": "a", "zone": "strada", "items": {"gas_canister": 1},
                          "options": ["gas_launcher"]}, {"id": "b", "zone": "paese"}])
    assert code_of(launcher, "a", {"type": "gas", "zone": "grotta"}) == "OK"
    a = action([{"id": "a", "zone": "strada", "items": {"c4": 1, "grenade": 1}},
                {"id": "b", "zone": "paese"}], config={"monster_count": 0})
    assert code_of(a, "a", {"type": "c4", "zone": "strada"}) == "ZONE_NOT_ADJACENT"
    assert code_of(a, "a", {"type": "c4", "zone": "grotta"}) == "ZONE_NOT_ADJACENT"
    assert code_of(a, "a", {"type": "c4", "zone": "paese"}) == "PROTECTED_ZONE"
    assert code_of(a, "a", {"type": "c4", "zone": "ingresso"}) == "ZONE_CLOSED"
    assert code_of(a, "a", {"type": "grenade", "zone": "strada"}) == "OK"
    assert code_of(a, "a", {"type": "grenade", "zone": "grotta"}) == "OK"


def test_zone_not_startable():
    s = turn1()
    assert code_of(s, "p0", {"type": "start_zone", "zone": "paese"}) == "ZONE_NOT_STARTABLE"
    assert code_of(s, "p0", {"type": "start_zone", "zone": "campi"}) == "OK"


def test_target_errors():
    s = action([{"id": "a", "zone": "strada", "firearm": "sniper_rifle"},
                {"id": "b", "zone": "strada"}, {"id": "c", "zone": "paese"}])
    atk = {"type": "attack", "weapon": "sniper_rifle"}
    assert code_of(s, "a", {**atk, "targets": ["a"]}) == "INVALID_TARGET"
    # INVALID_TARGET comes before TARGET_NOT_IN_ZONE
    assert code_of(s, "a", {**atk, "targets": ["c", "a"]}) == "INVALID_TARGET"
    assert code_of(s, "a", {**atk, "targets": ["c"]}) == "TARGET_NOT_IN_ZONE"
    # TARGET_NOT_IN_ZONE comes before TOO_MANY_TARGETS
    assert code_of(s, "a", {**atk, "targets": ["b", "c"]}) == "TARGET_NOT_IN_ZONE"
    assert code_of(s, "a", {**atk, "targets": ["b", "b"]}) == "TOO_MANY_TARGETS"
    assert code_of(s, "a", {**atk, "random": 1}) == "MALFORMED"


def test_smoke_targets():
    s = action([{"id": "a", "zone": "strada", "firearm": "flamethrower"},
                {"id": "b", "zone": "strada"}, {"id": "c", "zone": "paese"}],
               smoke={"strada": 3})
    assert code_of(s, "a", {"type": "attack", "weapon": "flamethrower", "targets": ["b"]}) == \
        "TARGET_HIDDEN"
    assert code_of(s, "a", {"type": "attack", "weapon": "flamethrower", "random": 1}) == "OK"
    assert code_of(s, "a", {"type": "attack", "weapon": "flamethrower", "random": 2}) == \
        "TOO_MANY_TARGETS"
    alone = action([{"id": "a", "zone": "strada", "firearm": "sniper_rifle"},
                    {"id": "c", "zone": "paese"}], smoke={"strada": 3})
    assert code_of(alone, "a", {"type": "attack", "weapon": "sniper_rifle", "random": 1}) == \
        "TARGET_NOT_IN_ZONE"


def test_flamethrower_targets_distinct_and_monsters_allowed():
    s = action([{"id": "a", "zone": "strada", "firearm": "flamethrower"},
                {"id": "b", "zone": "strada"}, {"id": "c", "zone": "strada"}],
               monsters=[{"id": "m1", "zone": "strada", "energy": 7}])
    ft = {"type": "attack", "weapon": "flamethrower"}
    assert code_of(s, "a", {**ft, "targets": ["b", "c", "m1"]}) == "OK"
    assert code_of(s, "a", {**ft, "targets": ["b", "b"]}) == "TOO_MANY_TARGETS"


def test_medkit_targets_and_no_effect():
    t = tactical([{"id": "a", "zone": "strada", "items": {"medkit": 2}},
                  {"id": "b", "zone": "strada", "energy": 10},
                  {"id": "c", "zone": "paese", "energy": 10}])
    assert code_of(t, "a", {"type": "medkit", "target": "self"}) == "NO_EFFECT"
    assert code_of(t, "a", {"type": "medkit", "target": "b"}) == "OK"
    assert code_of(t, "a", {"type": "medkit", "target": "c"}) == "TARGET_NOT_IN_ZONE"
    assert code_of(t, "a", {"type": "medkit", "target": "zz"}) == "UNKNOWN_ID"
    smoked = tactical([{"id": "a", "zone": "strada", "items": {"medkit": 2}},
                       {"id": "b", "zone": "strada", "energy": 10}], smoke={"strada": 3})
    assert code_of(smoked, "a", {"type": "medkit", "target": "b"}) == "TARGET_NOT_IN_ZONE"


def test_antidote_no_effect_when_not_poisoned():
    t = tactical([{"id": "a", "zone": "strada", "items": {"antidote": 1}},
                  {"id": "b", "zone": "paese", "items": {"antidote": 1}, "poison_until": 3}])
    assert code_of(t, "a", {"type": "antidote"}) == "NO_EFFECT"
    assert code_of(t, "b", {"type": "antidote"}) == "OK"


def test_market_buy_sell_at_once_with_limits():
    t = tactical([{"id": "a", "zone": "strada", "coins": 100, "firearm": "sniper_rifle",
                   "options": ["gas_launcher"]},
                  {"id": "b", "zone": "paese"}], market="raised")
    assert code_of(t, "a", {"type": "buy", "item": "shotgun"}) == "SLOT_OCCUPIED"
    assert code_of(t, "a", {"type": "buy", "item": "gas_launcher"}) == "SLOT_OCCUPIED"
    sub = engine.submit(t, seat(t, "a"), {"type": "sell", "item": "sniper_rifle"})
    assert player(sub.state, "a").coins == 240 and player(sub.state, "a").firearm is None
    assert sub.events[0].kind == "market" and sub.events[0].visible_to == {seat(t, "a")}
    s2 = sub.state
    assert code_of(s2, "a", {"type": "buy", "item": "flamethrower"}) == "OVER_BUDGET"
    s2 = play(s2, "a", {"type": "buy", "item": "vest"}, {"type": "buy", "item": "vest"})
    assert player(s2, "a").items == {"vest": 2} and player(s2, "a").coins == 240 - 110
    assert code_of(s2, "a", {"type": "buy", "item": "vest"}) == "PURCHASE_LIMIT_REACHED"
    assert code_of(s2, "a", {"type": "sell", "item": "vest"}) == "OK"


def test_refused_submission_changes_nothing():
    s = action([{"id": "a", "zone": "strada"}, {"id": "b", "zone": "strada"}])
    before = engine.dump(s)
    with pytest.raises(IllegalOrder):
        engine.submit(s, 0, {"type": "attack", "weapon": "shotgun", "targets": ["b"]})
    assert engine.dump(s) == before


def test_sequence_numbers_are_match_wide_and_increasing():
    s = action([{"id": "a", "zone": "strada", "items": {"grenade": 1}},
                {"id": "b", "zone": "strada", "items": {"grenade": 1}}])
    s = play(s, "a", {"type": "grenade", "zone": "paese"})
    s = play(s, "b", {"type": "grenade", "zone": "paese"})
    s = play(s, "a", {"type": "grenade", "zone": "paese"})
    assert player(s, "b").slot("combat").seq < player(s, "a").slot("combat").seq == s.seq
