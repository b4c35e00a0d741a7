"""Order validation and submission (§9, §10, §14, §19).

:func:`check_order` validates one order against the state and reports the first failing §19
check in the §19 priority order. :func:`submit` stores the order in its slot (new sequence
number, replacement, withdraw, CHECK) or executes a market transaction at once. At phase
close :func:`revalidate` re-runs the checks that can change after submission.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, cast

from games.rules import Event, Msg, Submitted, T

from . import catalogue as cat
from . import errors as E
from .errors import fail
from .market import buy_price, sell_price, sellable
from .state import ACTION, TACTICAL, Player, State, StoredOrder

SLOTS: tuple[str, ...] = ("move", "start_zone", "cart", "antidote", "smoke", "gas", "shout",
                          "wear", "combat")
SLOT_OF: dict[str, str | None] = {
    "move": "move", "start_zone": "start_zone", "cart": "cart", "antidote": "antidote",
    "smoke": "smoke", "gas": "gas", "shout": "shout", "wear": "wear", "attack": "combat",
    "grenade": "combat", "c4": "combat", "medkit": None,
}
TACTICAL_TYPES = frozenset({"move", "start_zone", "cart", "medkit", "antidote", "smoke", "gas",
                            "buy", "sell"})
ACTION_TYPES = frozenset({"attack", "grenade", "c4", "wear", "shout"})
ANY_PHASE = frozenset({"check", "withdraw"})
TURN1_ONLY = frozenset({"start_zone", "cart"})
NOT_TURN1 = frozenset({"move", "medkit", "antidote", "smoke", "gas", "buy", "sell", "grenade",
                       "c4", "shout"})
# accepted keys per order type (besides "type")
_FIELDS: dict[str, frozenset[str]] = {
    "move": frozenset({"to"}), "start_zone": frozenset({"zone"}), "cart": frozenset({"items"}),
    "medkit": frozenset({"target"}), "antidote": frozenset(), "smoke": frozenset({"zone"}),
    "gas": frozenset({"zone"}), "buy": frozenset({"item"}), "sell": frozenset({"item"}),
    "check": frozenset(), "withdraw": frozenset({"slot"}), "grenade": frozenset({"zone"}),
    "c4": frozenset({"zone"}), "wear": frozenset({"items"}), "shout": frozenset(),
    "attack": frozenset({"weapon", "targets", "random"}),
}
_REQUIRED: dict[str, tuple[str, ...]] = {
    "move": ("to",), "start_zone": ("zone",), "cart": ("items",), "medkit": ("target",),
    "smoke": ("zone",), "gas": ("zone",), "buy": ("item",), "sell": ("item",),
    "withdraw": ("slot",), "grenade": ("zone",), "c4": ("zone",), "wear": ("items",),
    "attack": ("weapon",),
}
_ZONE_FIELD = {"move": "to", "start_zone": "zone", "smoke": "zone", "gas": "zone",
               "grenade": "zone", "c4": "zone"}


def _is_int(v: Any) -> bool:
    return type(v) is int


def _malformed(field: str | None = None, msg: Msg = E.MSG_MALFORMED, **details: Any) -> None:
    fail("MALFORMED", msg, field, details)


def _parse(order: Any) -> dict[str, Any]:
    """Structural checks (MALFORMED); return a normalised JSON copy of the order."""
    if not isinstance(order, Mapping):
        _malformed(None)
    kind = order.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        _malformed("type", E.MSG_UNKNOWN_ORDER, type=kind if isinstance(kind, str) else None)
    extra = sorted(set(order) - {"type"} - _FIELDS[kind])
    if extra:
        _malformed(extra[0], T("Unexpected field %(field)s.", field=repr(extra[0])))
    for key in _REQUIRED.get(kind, ()):
        if key not in order:
            _malformed(key, T("The field %(field)s is missing.", field=repr(key)))
    out: dict[str, Any] = {"type": kind}
    for key in ("to", "zone", "item", "target", "slot"):
        if key in _FIELDS[kind]:
            if not isinstance(order[key], str) or not order[key]:
                _malformed(key)
            out[key] = order[key]
    if kind == "withdraw" and out["slot"] not in SLOTS:
        _malformed("slot", T("There is no such order slot."), slots=list(SLOTS))
    if kind == "cart":
        items = order["items"]
        if not isinstance(items, Mapping):
            _malformed("items")
        for item, n in items.items():
            if not isinstance(item, str) or not _is_int(n) or n <= 0 or item == cat.FISTS:
                _malformed("items", T("Each cart line is an item and a positive count; "
                           "fists cannot be bought."), item=item)
        out["items"] = {k: items[k] for k in sorted(items)}
    if kind in ("buy",) and out["item"] == cat.FISTS:
        _malformed("item", T("Fists cannot be bought."))
    if kind == "wear":
        items = order["items"]
        if (not isinstance(items, list) or not items
                or any(not isinstance(i, str) for i in items) or len(set(items)) != len(items)):
            _malformed("items", T("List the items to wear, each at most once."))
        out["items"] = list(items)
    if kind == "attack":
        if not isinstance(order["weapon"], str):
            _malformed("weapon")
        out["weapon"] = order["weapon"]
        has_t, has_r = "targets" in order, "random" in order
        if has_t == has_r:
            _malformed("targets", T("Give either a list of targets or a random count."))
        if has_t:
            t = order["targets"]
            if not isinstance(t, list) or not t or any(not isinstance(x, str) for x in t):
                _malformed("targets", T("Give at least one target."))
            out["targets"] = list(t)
        else:
            r = order["random"]
            if not _is_int(r) or r < 1:
                _malformed("random", T("The random count must be a positive number."))
            out["random"] = r
    return out


def _known_ids(state: State, o: dict[str, Any]) -> None:
    """UNKNOWN_ID checks."""
    gmap = state.gmap
    key = _ZONE_FIELD.get(o["type"])
    if key and o[key] not in gmap.index:
        fail("UNKNOWN_ID", T("There is no such zone."), key, {"zone": o[key]})
    kind = o["type"]
    if kind == "cart":
        for item in o["items"]:
            if item not in cat.CATALOGUE:
                fail("UNKNOWN_ID", T("There is no such item."), "items", {"item": item})
    if kind in ("buy", "sell") and o["item"] not in cat.CATALOGUE + (cat.FISTS,):
        fail("UNKNOWN_ID", T("There is no such item."), "item", {"item": o["item"]})
    if kind == "wear":
        for item in o["items"]:
            if item not in cat.WEARABLE:
                fail("UNKNOWN_ID", T("Only a vest, a gas mask or an amulet can be worn."), "items",
                     {"item": item})
    if kind == "medkit" and o["target"] != "self" and state.player_by_pid(o["target"]) is None:
        fail("UNKNOWN_ID", T("There is no such player."), "target", {"target": o["target"]})
    if kind == "attack":
        if o["weapon"] not in cat.FIREARMS + cat.KNIVES + (cat.FISTS,):
            fail("UNKNOWN_ID", T("There is no such weapon."), "weapon", {"weapon": o["weapon"]})
        for t in o.get("targets", ()):
            if state.player_by_pid(t) is None and state.monster_by_id(t) is None:
                fail("UNKNOWN_ID", T("There is no such player or monster."), "targets",
                     {"target": t})


def presences(state: State, p: Player) -> list[str]:
    """Ids of the other living entities in ``p``'s zone: players by seat, then monsters."""
    out = [q.pid for q in state.players if q.alive and q.zone == p.zone and q.pid != p.pid]
    out += [m.mid for m in state.monsters if m.alive and m.zone == p.zone]
    return out


def _entity_in_zone(state: State, tid: str, zone: str | None) -> bool:
    q = state.player_by_pid(tid)
    if q is not None:
        return q.alive and q.zone == zone
    m = state.monster_by_id(tid)
    return m is not None and m.alive and m.zone == zone


def max_shots(config: Mapping[str, Any], weapon: str) -> int:
    return int(config["weapons"][weapon]["shots"])


def check_order(state: State, seat: int, order: Any, *, at_close: bool = False,
                self_seq: int | None = None) -> dict[str, Any]:
    """Validate ``order`` of ``seat``; return its normalised form or raise (§19 priority).

    ``at_close`` re-validates a stored order at phase close (§16): it skips the checks that
    concern submission only (CHECK lock, slots, medkit counts handled at resolution).
    """
    # stored orders were parsed when submitted; only the state-dependent checks can change
    o = dict(order) if at_close else _parse(order)
    kind = o["type"]
    p = state.player_by_seat(seat)
    # "random outside a smoked zone" is MALFORMED (§10.1) and so checked first
    if (kind == "attack" and "random" in o and p is not None and p.zone is not None
            and p.zone not in state.smoke):
        _malformed("random", T("You can attack at random only inside smoke."))
    _known_ids(state, o)
    if p is None:
        fail("NOT_A_PARTICIPANT", E.MSG_NOT_A_PARTICIPANT)
    if state.over:
        fail("MATCH_NOT_RUNNING", E.MSG_MATCH_NOT_RUNNING)
    if not p.alive:
        fail("PLAYER_DEAD", E.MSG_PLAYER_DEAD)
    if (kind in TACTICAL_TYPES and state.phase != TACTICAL) or (
            kind in ACTION_TYPES and state.phase != ACTION):
        fail("WRONG_PHASE", E.MSG_WRONG_PHASE, "type",
             {"phase": state.phase, "order_phase": TACTICAL if kind in TACTICAL_TYPES else ACTION})
    if p.checked and not at_close:
        fail("ALREADY_CHECKED", E.MSG_ALREADY_CHECKED)
    if state.turn == 1 and kind in NOT_TURN1:
        fail("NOT_ALLOWED_THIS_TURN", E.MSG_FROM_TURN_2, "type", {"turn": state.turn})
    if state.turn > 1 and kind in TURN1_ONLY:
        fail("NOT_ALLOWED_THIS_TURN", E.MSG_TURN_1_ONLY, "type", {"turn": state.turn})
    cfg = state.config
    gmap = state.gmap
    closed = state.closed
    k_on = cfg["k_rations_enabled"]
    # where the orders below start from (None only before a start zone is chosen)
    here = cast(str, p.zone)

    if kind == "check":
        if not cfg["check_enabled"]:
            fail("FEATURE_DISABLED", T("CHECK is not used in this match."))
    elif kind == "withdraw":
        if p.slot(o["slot"]) is None:
            fail("NO_EFFECT", T("There is no order in that slot."), "slot", {"slot": o["slot"]})
    elif kind == "cart":
        items = o["items"]
        if "k_ration" in items and not k_on:
            fail("FEATURE_DISABLED", T("K-rations are disabled in this match."), "items")
        firearms = sum(n for i, n in items.items() if i in cat.FIREARMS)
        knives = sum(n for i, n in items.items() if i in cat.KNIVES)
        if firearms > 1 or knives > 1 or any(items.get(x, 0) > 1 for x in cat.OPTIONS):
            fail("SLOT_OCCUPIED", T("A cart holds at most one firearm, one knife and one of each "
                 "option."), "items")
        total = sum(int(cfg["prices"][i]) * n for i, n in items.items())
        if total > p.coins:
            fail("OVER_BUDGET", E.MSG_OVER_BUDGET, "items", {"total": total,
                                                              "available": p.coins})
    elif kind == "start_zone":
        if o["zone"] not in gmap.lit:
            fail("ZONE_NOT_STARTABLE", E.MSG_ZONE_NOT_STARTABLE, "zone",
                 {"zone": o["zone"], "startable": list(gmap.lit)})
    elif kind == "move":
        dest = o["to"]
        stuck = here in closed and not any(z not in closed for z in gmap.adjacent[here])
        if dest in closed and not stuck:
            fail("ZONE_CLOSED", E.MSG_ZONE_CLOSED, "to", {"to": dest})
        if not gmap.is_adjacent(here, dest):
            fail("ZONE_NOT_ADJACENT", E.MSG_MOVE_NOT_ADJACENT, "to",
                 {"from": here, "to": dest,
                  "adjacent": [z for z in gmap.adjacent[here] if z not in closed or stuck]})
    elif kind == "medkit":
        if not at_close:
            stored = sum(1 for s in p.orders if s.slot == "medkit")
            if p.count("medkit") <= stored:
                fail("ITEM_NOT_OWNED", T("You have no medkit left for this order."), "type",
                     {"item": "medkit", "owned": p.count("medkit"), "ordered": stored})
        target = p if o["target"] in ("self", p.pid) else state.player_by_pid(o["target"])
        assert target is not None
        if target is not p and (not target.alive or target.zone != p.zone
                                or p.zone in state.last_smoked):
            fail("TARGET_NOT_IN_ZONE", T("You can only heal someone you saw in your zone."),
                 "target", {"target": o["target"]})
        if target.energy >= cfg["max_energy"] and not at_close:
            fail("NO_EFFECT", T("That player is at full energy."), "target")
    elif kind == "antidote":
        if p.count("antidote") < 1:
            fail("ITEM_NOT_OWNED", E.MSG_ITEM_NOT_OWNED, "type", {"item": "antidote"})
        if p.poison_until < state.turn:
            fail("NO_EFFECT", T("You are not poisoned."))
    elif kind in ("smoke", "gas"):
        item = "smoke_grenade" if kind == "smoke" else "gas_canister"
        if p.count(item) < 1:
            fail("ITEM_NOT_OWNED", E.MSG_ITEM_NOT_OWNED, "type", {"item": item})
        z = o["zone"]
        if z in closed:
            fail("ZONE_CLOSED", E.MSG_ZONE_CLOSED, "zone", {"zone": z})
        launcher = kind == "gas" and "gas_launcher" in p.options
        if z != p.zone and not launcher and not gmap.is_adjacent(here, z):
            fail("ZONE_NOT_ADJACENT", E.MSG_ZONE_NOT_ADJACENT, "zone",
                 {"from": p.zone, "zone": z, "adjacent": list(gmap.adjacent[here])})
        if kind == "gas" and k_on and z == gmap.central:
            fail("PROTECTED_ZONE", E.MSG_PROTECTED_ZONE, "zone", {"zone": z})
    elif kind in ("buy", "sell"):
        item = o["item"]
        if item == "k_ration" and not k_on:
            fail("FEATURE_DISABLED", T("K-rations are disabled in this match."), "item")
        if kind == "sell":
            if not sellable(item):
                fail("NOT_SELLABLE", E.MSG_NOT_SELLABLE, "item", {"item": item})
            if not _owns(p, item):
                fail("ITEM_NOT_OWNED", E.MSG_ITEM_NOT_OWNED, "item", {"item": item})
        else:
            if ((item in cat.FIREARMS and p.firearm) or (item in cat.KNIVES and p.knife)
                    or (item in cat.OPTIONS and item in p.options)):
                fail("SLOT_OCCUPIED", E.MSG_SLOT_OCCUPIED, "item", {"item": item})
            if p.bought >= cfg["market_purchase_limit"]:
                fail("PURCHASE_LIMIT_REACHED", E.MSG_PURCHASE_LIMIT, "item",
                     {"limit": cfg["market_purchase_limit"]})
            price = buy_price(cfg, state.market or "unchanged", item)
            if price > p.coins:
                fail("OVER_BUDGET", E.MSG_OVER_BUDGET, "item",
                     {"total": price, "available": p.coins})
    elif kind == "wear":
        for item in o["items"]:
            if p.count(item) < 1:
                fail("ITEM_NOT_OWNED", E.MSG_ITEM_NOT_OWNED, "items", {"item": item})
    elif kind in ("grenade", "c4"):
        if p.count(kind) < 1:
            fail("ITEM_NOT_OWNED", E.MSG_ITEM_NOT_OWNED, "type", {"item": kind})
        _exclusive(p, o, at_close, self_seq)
        z = o["zone"]
        if z in closed:
            fail("ZONE_CLOSED", E.MSG_ZONE_CLOSED, "zone", {"zone": z})
        if kind == "c4" and not gmap.is_adjacent(here, z):
            fail("ZONE_NOT_ADJACENT", E.MSG_ZONE_NOT_ADJACENT, "zone",
                 {"from": p.zone, "zone": z, "adjacent": list(gmap.adjacent[here])})
        if k_on and z == gmap.central:
            fail("PROTECTED_ZONE", E.MSG_PROTECTED_ZONE, "zone", {"zone": z})
    elif kind == "attack":
        _check_attack(state, p, o, at_close, self_seq)
    # shout: nothing more to check
    return o


def _owns(p: Player, item: str) -> bool:
    if item in cat.FIREARMS:
        return p.firearm == item
    if item in cat.KNIVES:
        return p.knife == item
    return p.count(item) > 0


def _exclusive(p: Player, o: dict[str, Any], at_close: bool, self_seq: int | None) -> None:
    stored = p.slot("combat")
    if stored is None or at_close or stored.seq == self_seq:
        return
    so = stored.order
    if so["type"] != o["type"] or (o["type"] == "attack" and so["weapon"] != o["weapon"]):
        fail("EXCLUSIVE_ACTION_CONFLICT", E.MSG_EXCLUSIVE, "type",
             {"stored": dict(so)})


def _check_attack(state: State, p: Player, o: dict[str, Any], at_close: bool,
                  self_seq: int | None) -> None:
    w = o["weapon"]
    if w == cat.FISTS:
        if p.knife:
            fail("ITEM_NOT_OWNED", T("You have a knife: use it instead of your fists."), "weapon",
                 {"weapon": w, "knife": p.knife})
    elif not _owns(p, w):
        fail("ITEM_NOT_OWNED", E.MSG_ITEM_NOT_OWNED, "weapon", {"weapon": w})
    if w in cat.RELOADING and p.reload_turn == state.turn:
        fail("WEAPON_RELOADING", E.MSG_WEAPON_RELOADING, "weapon", {"weapon": w})
    _exclusive(p, o, at_close, self_seq)
    smoked = p.zone in state.smoke
    cfg = state.config
    if "targets" in o:
        targets = o["targets"]
        if p.pid in targets:
            fail("INVALID_TARGET", E.MSG_INVALID_TARGET, "targets")
        if smoked:
            fail("TARGET_HIDDEN", E.MSG_TARGET_HIDDEN, "targets")
        for t in targets:
            if not _entity_in_zone(state, t, p.zone):
                fail("TARGET_NOT_IN_ZONE", E.MSG_TARGET_NOT_IN_ZONE, "targets", {"target": t})
        if w == "flamethrower":
            if len(set(targets)) != len(targets):
                fail("TOO_MANY_TARGETS", T("The flamethrower burns each target at most once."),
                     "targets")
        elif len(targets) > max_shots(cfg, w):
            fail("TOO_MANY_TARGETS", E.MSG_TOO_MANY_TARGETS, "targets",
                 {"max": max_shots(cfg, w)})
    else:
        k = o["random"]
        n = len(presences(state, p))
        if n == 0:
            fail("TARGET_NOT_IN_ZONE", T("There is nobody else in your zone."), "random")
        limit = n if w == "flamethrower" else max_shots(cfg, w)
        if k > limit:
            fail("TOO_MANY_TARGETS", E.MSG_TOO_MANY_TARGETS, "random", {"max": limit})


def _replace_player(state: State, p: Player, **changes: Any) -> State:
    new = replace(p, **changes)
    players = tuple(new if q is p else q for q in state.players)
    return replace(state, players=players)


def submit(state: State, seat: int, order: Any) -> Submitted:
    """Accept one order into the state (§19 slots; market at once, §14)."""
    o = check_order(state, seat, order)
    p = state.player_by_seat(seat)
    assert p is not None
    kind = o["type"]
    if kind == "check":
        return Submitted(_replace_player(state, p, checked=True), done=True)
    if kind == "withdraw":
        orders = tuple(s for s in p.orders if s.slot != o["slot"])
        return Submitted(_replace_player(state, p, orders=orders))
    if kind in ("buy", "sell"):
        return _market(state, p, o)
    seq = state.seq + 1
    slot = SLOT_OF[kind]
    stored = StoredOrder(slot or "medkit", seq, o)
    if slot is None:
        orders = p.orders + (stored,)
    else:
        orders = tuple(s for s in p.orders if s.slot != slot) + (stored,)
    return Submitted(_replace_player(replace(state, seq=seq), p, orders=orders))


def _market(state: State, p: Player, o: dict[str, Any]) -> Submitted:
    cfg = state.config
    item = o["item"]
    items = dict(p.items)
    changes: dict[str, Any] = {}
    if o["type"] == "buy":
        price = buy_price(cfg, state.market or "unchanged", item)
        coins = p.coins - price
        changes["bought"] = p.bought + 1
        if item in cat.FIREARMS:
            changes["firearm"] = item
        elif item in cat.KNIVES:
            changes["knife"] = item
        elif item in cat.OPTIONS:
            changes["options"] = tuple(sorted(p.options + (item,)))
        else:
            items[item] = items.get(item, 0) + 1
    else:
        price = sell_price(cfg, item)
        coins = p.coins + price
        if item in cat.FIREARMS:
            changes["firearm"] = None
        elif item in cat.KNIVES:
            changes["knife"] = None
        else:
            items[item] -= 1
            if items[item] <= 0:
                del items[item]
    changes["items"] = dict(sorted(items.items()))
    changes["coins"] = coins
    new_state = _replace_player(state, p, **changes)
    ev = Event("market", {"action": o["type"], "item": item, "price": price, "coins": coins,
                          "player": p.pid}, frozenset({p.seat}))
    return Submitted(new_state, events=(ev,))


def revalidate(state: State, seat: int, stored: StoredOrder) -> str | None:
    """Re-check a stored order at phase close; return the §19 code when it is now void."""
    try:
        check_order(state, seat, stored.order, at_close=True, self_seq=stored.seq)
    except E.KillGameOrderError as exc:
        return exc.code
    return None
