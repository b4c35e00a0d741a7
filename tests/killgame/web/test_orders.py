"""Every order form of the Kill Game board through the page: a valid order is saved (and
shown in the stored orders with its withdraw button), an engine refusal is shown next to the
control that caused it (the error's ``field``) with a 4xx and nothing changed, and a stale
form (older version or phase) is refused."""

from __future__ import annotations

import re

import pytest

from tests.killgame.web.conftest import (client_for, close_phase, detail_url, kg_match,
                                         open_phase, post_order, submit, view_of)

pytestmark = pytest.mark.django_db


def _turn1(n: int = 4):
    match, users = kg_match(n)
    return match, users, client_for(users[0])


def _to_action(match, users):
    """Turn 1: users 0 and 1 land in ponte_ovest, 2 in cave_sud_est; default backpacks."""
    submit(match, users[0], {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, users[1], {"type": "start_zone", "zone": "ponte_ovest"})
    submit(match, users[2], {"type": "start_zone", "zone": "cave_sud_est"})
    close_phase(match)


def _to_turn2_tactical(match, users):
    _to_action(match, users)
    close_phase(match)


def _error(html: str, control: str) -> str:
    m = re.search(rf'id="err-{control}">([^<]*)<', html)
    assert m, f"no error shown next to {control}"
    return m.group(1)


def _assert_refused(resp, match, control: str, status: int, text: str | None = None) -> str:
    before = match.version
    assert resp.status_code == status, resp.content.decode()[:500]
    msg = _error(resp.content.decode(), control)
    if text:
        assert text in msg
    match.refresh_from_db()
    assert match.version == before  # nothing changed
    return msg


# --- turn 1 ----------------------------------------------------------------------------

def test_cart_valid_is_saved_and_listed(db):
    match, users, c = _turn1()
    resp = post_order(c, match, {"kind": "cart", "cart_shotgun": "1", "cart_medkit": "2",
                                 "cart_vest": ""})
    assert resp.status_code == 302
    me = view_of(match, users[0])["me"]
    assert me["orders"][0]["order"] == {"type": "cart", "items": {"medkit": 2, "shotgun": 1}}
    html = c.get(detail_url(match)).content.decode()
    assert "Shopping cart: 1 × shotgun, 2 × medkit." in html
    assert 'value="withdraw:cart"' in html
    assert 'id="cart_shotgun"' in html and 'value="1"' in html  # the stored cart refills the form


def test_cart_over_budget_is_shown_next_to_the_cart(db):
    match, users, c = _turn1()
    match.refresh_from_db()
    resp = post_order(c, match, {"kind": "cart", "cart_flamethrower": "1", "cart_medkit": "99"})
    _assert_refused(resp, match, "cart", 422, "coins")
    assert view_of(match, users[0])["me"]["orders"] == []


def test_cart_junk_count_is_a_400_next_to_the_cart(db):
    match, users, c = _turn1()
    match.refresh_from_db()
    resp = post_order(c, match, {"kind": "cart", "cart_grenade": "lots"})
    _assert_refused(resp, match, "cart", 400, "whole number")


def test_start_zone_valid_and_not_startable(db):
    match, users, c = _turn1()
    match.refresh_from_db()
    resp = post_order(c, match, {"kind": "start_zone", "start_zone": "cerchio_cy"})
    _assert_refused(resp, match, "start_zone", 422, "cannot start")
    resp = post_order(c, match, {"kind": "start_zone", "start_zone": "nowhere"})
    _assert_refused(resp, match, "start_zone", 400)
    assert post_order(c, match, {"kind": "start_zone", "start_zone": "ceppo"}).status_code == 302
    assert "Start in Ceppo." in c.get(detail_url(match)).content.decode()


def test_withdraw_removes_a_stored_order_and_empty_slot_is_refused(db):
    match, users, c = _turn1()
    post_order(c, match, {"kind": "start_zone", "start_zone": "ceppo"})
    assert post_order(c, match, {"kind": "withdraw:start_zone"}).status_code == 302
    assert view_of(match, users[0])["me"]["orders"] == []
    match.refresh_from_db()
    resp = post_order(c, match, {"kind": "withdraw:start_zone"})
    _assert_refused(resp, match, "withdraw", 422)


def test_stale_form_is_refused_and_nothing_changes(db):
    match, users, c = _turn1()
    post_order(c, match, {"kind": "start_zone", "start_zone": "ceppo"})
    match.refresh_from_db()
    resp = post_order(c, match, {"kind": "start_zone", "start_zone": "er_cristallo"}, stale=True)
    # the refusal stands next to the button that was pressed, not at the top of the form
    msg = _assert_refused(resp, match, "start_zone", 409)
    assert "changed" in msg
    assert view_of(match, users[0])["me"]["orders"][0]["order"]["zone"] == "ceppo"
    # a form from the previous phase
    phase = open_phase(match)
    close_phase(match)
    resp = c.post(f"/killgame/m/{match.pk}/order/", {"phase_id": phase.pk, "kind": "wear",
                                                      "wear_items": "vest"})
    assert resp.status_code == 409
    html = resp.content.decode()
    assert "phase has changed" in _error(html, "wear" if 'id="err-wear"' in html else "kind")


def test_no_button_and_damaged_hidden_fields_are_400(db):
    match, users, c = _turn1()
    resp = post_order(c, match, {})
    assert resp.status_code == 400 and "Press the button" in _error(resp.content.decode(), "kind")
    resp = c.post(f"/killgame/m/{match.pk}/order/", {"phase_id": "x", "kind": "check"})
    assert resp.status_code == 400


def test_strangers_and_spectators_cannot_order(db):
    match, users, c = _turn1()
    other, _ = kg_match(2, prefix="z")
    resp = post_order(client_for(_[0]), match, {"kind": "start_zone", "start_zone": "ceppo"})
    assert resp.status_code == 403
    assert client_for(None).post(f"/killgame/m/{match.pk}/order/", {}).status_code == 302


# --- tactical, turn 2 ------------------------------------------------------------------

def test_tactical_orders(db):
    match, users = kg_match(4)
    _to_turn2_tactical(match, users)
    c = client_for(users[0])
    html = c.get(detail_url(match)).content.decode()
    assert "Market" in html and 'id="btn-move"' in html
    me = view_of(match, users[0])
    # move: valid, then not adjacent (error by field "to")
    target = me["moves"][0]
    assert post_order(c, match, {"kind": "move", "move_to": target}).status_code == 302
    match.refresh_from_db()
    _assert_refused(post_order(c, match, {"kind": "move", "move_to": "cave_sud_est"}), match,
                    "move_to", 422, "next to yours")
    # medkit at full energy → NO_EFFECT next to the medkit target
    energy = view_of(match, users[0])["me"]["energy"]
    if energy == 25:
        _assert_refused(post_order(c, match, {"kind": "medkit", "medkit_target": "self"}),
                        match, "medkit_target", 422)
    # antidote while not poisoned
    _assert_refused(post_order(c, match, {"kind": "antidote"}), match, "antidote", 422)
    # gas into a zone that is not next to mine → by the zone field
    _assert_refused(post_order(c, match, {"kind": "gas", "gas_zone": "cerchio_cy"}), match,
                    "gas_zone", 422, "next to yours")
    # smoke into a zone far away → ZONE_NOT_ADJACENT
    _assert_refused(post_order(c, match, {"kind": "smoke", "smoke_zone": "cave_nord_est"}),
                    match, "smoke_zone", 422)
    assert post_order(c, match, {"kind": "smoke", "smoke_zone": "ponte_ovest"}).status_code == 302
    # market: sell then buy; a purchase beyond the coins
    coins = view_of(match, users[0])["me"]["coins"]
    assert post_order(c, match, {"kind": "sell", "sell_item": "amulet"}).status_code == 302
    assert view_of(match, users[0])["me"]["coins"] > coins
    match.refresh_from_db()
    _assert_refused(post_order(c, match, {"kind": "sell", "sell_item": "k_ration"}), match,
                    "sell_item", 422)
    _assert_refused(post_order(c, match, {"kind": "buy", "buy_item": "flamethrower"}), match,
                    "buy_item", 422)
    assert post_order(c, match, {"kind": "buy", "buy_item": "gas_mask"}).status_code == 302
    html = c.get(detail_url(match)).content.decode()
    assert "Smoke grenade on Ponte Ovest." in html
    # a turn-1 form posted now (an old tab): its control is gone, the error is on top
    match.refresh_from_db()
    _assert_refused(post_order(c, match, {"kind": "start_zone", "start_zone": "ceppo"}), match,
                    "kind", 409, "turn 1 only")


# --- action ----------------------------------------------------------------------------

def test_action_orders(db):
    match, users = kg_match(4)
    _to_action(match, users)
    c = client_for(users[0])
    html = c.get(detail_url(match)).content.decode()
    assert 'id="btn-attack"' in html and "u1" in html  # bob is in my zone
    pid1 = "p" + str(view_of(match, users[1])["me"]["seat"])
    pid2 = "p" + str(view_of(match, users[2])["me"]["seat"])
    match.refresh_from_db()
    # a target in another zone → TARGET_NOT_IN_ZONE next to the targets
    _assert_refused(post_order(c, match, {"kind": "attack", "attack_weapon": "sniper_rifle",
                                          "attack_targets": pid2}), match, "attack_targets", 422)
    # a weapon I do not own → next to the weapon
    _assert_refused(post_order(c, match, {"kind": "attack", "attack_weapon": "shotgun",
                                          "attack_targets": pid1}), match, "attack_weapon", 422)
    _assert_refused(post_order(c, match, {"kind": "attack", "attack_weapon": "sniper_rifle"}),
                    match, "attack_targets", 400, "target")
    assert post_order(c, match, {"kind": "attack", "attack_weapon": "sniper_rifle",
                                 "attack_targets": pid1}).status_code == 302
    # grenade in turn 1 → NOT_ALLOWED_THIS_TURN shown at the grenade control
    match.refresh_from_db()
    html = c.get(detail_url(match)).content.decode()
    assert re.search(r'id="btn-grenade" disabled[^>]*>Throw the grenade \(from turn 2\)', html)
    assert re.search(r'id="btn-c4" disabled', html)
    _assert_refused(post_order(c, match, {"kind": "grenade", "grenade_zone": "ceppo"}), match,
                    "grenade", 409, "from turn 2")
    _assert_refused(post_order(c, match, {"kind": "shout"}), match, "shout", 409)
    _assert_refused(post_order(c, match, {"kind": "wear"}), match, "wear_items", 400)
    assert post_order(c, match, {"kind": "wear", "wear_items": ["vest", "amulet"]}).status_code == 302
    # CHECK is refused outside CHECK mode
    match.refresh_from_db()
    _assert_refused(post_order(c, match, {"kind": "check"}), match, "kind", 422, "CHECK")
    html = c.get(detail_url(match)).content.decode()
    assert "Attack with the sniper rifle: u1." in html
    assert "Wear: vest, amulet." in html and 'value="withdraw:combat"' in html


def test_check_mode_check_locks_orders(db):
    match, users = kg_match(2, config={"check_enabled": True}, prefix="ck")
    c = client_for(users[0])
    html = c.get(detail_url(match)).content.decode()
    # one control for CHECK: the phase card's check-in (final), no second button
    assert 'id="btn-check"' not in html and html.count('id="checkin-button"') == 1
    assert 'id="checkin-final"' in html
    assert post_order(c, match, {"kind": "check"}).status_code == 302  # an old tab still works
    match.refresh_from_db()
    resp = post_order(c, match, {"kind": "start_zone", "start_zone": "ceppo"})
    assert resp.status_code == 409
    # no order form any more: the refusal is said on top of the page
    assert re.search(r'id="action-error">[^<]*checked in', resp.content.decode())
