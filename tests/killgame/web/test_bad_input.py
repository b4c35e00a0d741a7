"""Bad input on the Kill Game order URL in every phase: a clear message, a 4xx, nothing
changed — never a 500."""

from __future__ import annotations

import pytest

from tests.killgame.web.conftest import client_for, close_phase, kg_match, post_order

pytestmark = pytest.mark.django_db

JUNK = [
    {},
    {"kind": "launch_missiles"},
    {"kind": "withdraw:nonsense"},
    {"kind": "withdraw:"},
    {"kind": "move"},
    {"kind": "move", "move_to": "../../etc"},
    {"kind": "move", "move_to": "x" * 5000},
    {"kind": "start_zone", "start_zone": "çà☃"},
    {"kind": "cart", "cart_fists": "1"},
    {"kind": "cart", "cart_medkit": "-1"},
    {"kind": "cart", "cart_medkit": "1e9"},
    {"kind": "cart", "cart_unicorn": "1"},
    {"kind": "cart", "cart_medkit": "99999999999999999999999"},
    {"kind": "medkit", "medkit_target": "p999"},
    {"kind": "medkit", "medkit_target": ""},
    {"kind": "smoke", "smoke_zone": "nowhere"},
    {"kind": "buy", "buy_item": "fists"},
    {"kind": "sell", "sell_item": "unicorn"},
    {"kind": "attack", "attack_weapon": "laser", "attack_targets": "p1"},
    {"kind": "attack", "attack_weapon": "sniper_rifle", "attack_random": "lots"},
    {"kind": "attack", "attack_weapon": "sniper_rifle", "attack_random": "-3"},
    {"kind": "attack", "attack_weapon": "sniper_rifle", "attack_targets": ["p0", "p1", "p2"]},
    {"kind": "grenade", "grenade_zone": ""},
    {"kind": "c4", "c4_zone": "paese"},
    {"kind": "wear", "wear_items": ["cape"]},
    {"kind": "wear", "wear_items": ["vest", "vest"]},
    {"kind": "shout", "extra": "ignored?"},
    {"kind": "antidote"},
]


@pytest.mark.parametrize("closes", [0, 1, 2])
def test_junk_never_500s_and_changes_nothing(closes):
    match, users = kg_match(3, prefix=f"j{closes}_")
    for _ in range(closes):
        close_phase(match)
    client = client_for(users[0])
    for data in JUNK:
        match.refresh_from_db()
        before = (match.version, match.state)
        resp = post_order(client, match, data)
        assert 400 <= resp.status_code < 500, (closes, data, resp.status_code)
        assert 'class="error kg-error"' in resp.content.decode() or "action-error" in resp.content.decode()
        match.refresh_from_db()
        assert (match.version, match.state) == before, data
