"""What the Kill Game board, order forms, panel, diary and feed show — the registry hooks
(``board_template``, ``order_form_template``, ``order_from_post``) and the context behind
them. Everything comes from the engine's ``player_view`` dict and the reader's diary rows
(docs/design.md "Hidden information"); the only other input is the match config's public map
snapshot (zone positions for drawing).

- :func:`board` turns a player view into the map (SVG shapes with their §8.1 states), the
  panel (energy, backpack, approval faces…), the zone roster, the stored orders and the
  choices each order form offers.
- :func:`order_from_post` turns the posted no-JS form into one engine order; the pressed
  button's ``kind`` says which.
- :func:`error_controls` maps an engine error's ``field`` to the form control that caused it.
"""

from __future__ import annotations

from typing import Any, Mapping

from django.http import QueryDict
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext, pgettext_lazy

from killgame.engine import catalogue as cat
from killgame.engine.describe import ITEM_NAMES, name_players
from killgame.services import BUILTIN_GRID, layout

BOARD_TEMPLATE = "killgame/board.html"
ORDER_FORM_TEMPLATE = "killgame/order_form.html"
DIARY_TURN_TEMPLATE = "killgame/diary_turn.html"

# said in the reader's language where they are raised (OrderFieldError carries the text)
PICK_AN_ACTION = gettext_noop("Press the button of the order you want to give.")
NOT_A_NUMBER = gettext_noop("The quantity of %(item)s must be a whole number.")
SHOTS_NOT_A_NUMBER = gettext_noop("The number of shots must be a whole number.")
CART_TOO_BIG = gettext_noop("A cart line may hold at most 99 units.")
PICK_A_TARGET = gettext_noop("Pick at least one target.")
PICK_A_ZONE = gettext_noop("Pick a zone.")
PICK_AN_ITEM = gettext_noop("Pick an item.")
PICK_WEAR = gettext_noop("Tick what you want to wear.")
PICK_WHO_TO_HEAL = gettext_noop("Pick who to heal.")
PICK_A_WEAPON = gettext_noop("Pick a weapon.")

WEARABLE = cat.WEARABLE
#: (order type, engine error field) -> the form control it belongs to
CONTROL_OF_FIELD = {
    ("move", "to"): "move_to", ("start_zone", "zone"): "start_zone", ("cart", "items"): "cart",
    ("medkit", "target"): "medkit_target", ("smoke", "zone"): "smoke_zone",
    ("gas", "zone"): "gas_zone", ("buy", "item"): "buy_item", ("sell", "item"): "sell_item",
    ("attack", "weapon"): "attack_weapon", ("attack", "targets"): "attack_targets",
    ("attack", "random"): "attack_random", ("grenade", "zone"): "grenade_zone",
    ("c4", "zone"): "c4_zone", ("wear", "items"): "wear_items",
}


# --- names -------------------------------------------------------------------------------

def item_name(item: str, lang: str = "en") -> str:
    """An item's name: the rules' Italian ones for Italian, else the English name said in
    the active language (``pgettext("killgame item", …)``, listed in :data:`ITEM_LABELS`)."""
    if lang == "it":
        return ITEM_NAMES["it"].get(item, item.replace("_", " "))
    return pgettext("killgame item", ITEM_NAMES["en"].get(item, item.replace("_", " ")))


REGIMES = {"discounted": pgettext_lazy("killgame market", "discounted"),
           "unchanged": pgettext_lazy("killgame market", "unchanged"),
           "raised": pgettext_lazy("killgame market", "raised"),
           "crazy": pgettext_lazy("killgame market", "crazy")}
CATEGORY_LABELS = {"firearm": pgettext_lazy("killgame category", "firearm"),
                   "knife": pgettext_lazy("killgame category", "knife"),
                   "explosive": pgettext_lazy("killgame category", "explosive"),
                   "option": pgettext_lazy("killgame category", "option"),
                   "item": pgettext_lazy("killgame category", "item")}
#: the English item names of ``ITEM_NAMES["en"]``, for the catalogue
ITEM_LABELS = (
    pgettext_lazy("killgame item", "sniper rifle"), pgettext_lazy("killgame item", "machine gun"),
    pgettext_lazy("killgame item", "shotgun"), pgettext_lazy("killgame item", "poisoned crossbow"),
    pgettext_lazy("killgame item", "flamethrower"), pgettext_lazy("killgame item", "small knife"),
    pgettext_lazy("killgame item", "ninja knife"), pgettext_lazy("killgame item", "Rambo knife"),
    pgettext_lazy("killgame item", "fists"), pgettext_lazy("killgame item", "grenade"),
    pgettext_lazy("killgame item", "C4"), pgettext_lazy("killgame item", "smoke grenade"),
    pgettext_lazy("killgame item", "gas canister"), pgettext_lazy("killgame item", "medkit"),
    pgettext_lazy("killgame item", "vest"), pgettext_lazy("killgame item", "gas mask"),
    pgettext_lazy("killgame item", "antidote"), pgettext_lazy("killgame item", "amulet"),
    pgettext_lazy("killgame item", "K-ration"),
    pgettext_lazy("killgame item", "reinforced vests"),
    pgettext_lazy("killgame item", "gas launcher"))


def with_names(text: str, names: Mapping[int, str], viewer: int | None = None) -> str:
    """Sentences stored before names were given (the feed, the replay) named the way the
    engine's ``describe(..., names=)`` names them (``name_players``)."""
    return name_players(text, names, viewer)


def pid_name(pid: str | None, names: Mapping[int, str]) -> str:
    if not pid:
        return ""
    if pid.startswith("m") and pid[1:].isdigit():
        return pgettext("killgame", "Monster %(number)s") % {"number": pid[1:]}
    if pid.startswith("p") and pid[1:].isdigit():
        return names.get(int(pid[1:]), pid)
    return pid


# --- the map -----------------------------------------------------------------------------

def map_positions(match_config: Mapping[str, Any] | None, zone_ids: list[str],
                  adjacent: Mapping[str, list[str]]) -> dict[str, tuple[float, float]]:
    """Zone positions from the match's map snapshot, or the computed layout."""
    data = (match_config or {}).get("map_data") or {}
    given = {}
    for zid, info in (data.get("zones") or {}).items():
        if isinstance(info, Mapping) and info.get("x") is not None and info.get("y") is not None:
            given[zid] = (float(info["x"]), float(info["y"]))
    if not given and (match_config or {}).get("map") in BUILTIN_GRIDS:
        given = BUILTIN_GRIDS[match_config["map"]]  # type: ignore[index]
    return layout(zone_ids, adjacent, given)


def _grid(rows: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    return {z: (10 + c * 20, 10 + r * 20) for z, (c, r) in rows.items()}


#: the §20 layout sketches, for matches whose config has no map snapshot
BUILTIN_GRIDS = {slug: _grid(rows) for slug, rows in BUILTIN_GRID.items()}


def map_drawing(view: Mapping[str, Any], match_config: Mapping[str, Any] | None, *,
                positions: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The SVG map: zones with their §8.1 state classes, links, clouds and markers.

    ``positions`` (replay only, when the match is over) lists who stands in each zone.
    """
    mp = view["map"]
    zones = mp["zones"]
    ids = [z["id"] for z in zones]
    adjacent = {z["id"]: list(z["adjacent"]) for z in zones}
    pos = map_positions(match_config, ids, adjacent)
    xs = [p[0] for p in pos.values()] or [0]
    ys = [p[1] for p in pos.values()] or [0]
    pad = 11
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    me = view.get("me") or {}
    here = me.get("zone") if me.get("alive") else None
    live = not view.get("over")  # once over nothing is reachable or closing any more
    tactical_moves = set(view.get("moves") or []) if live else set()
    start_zones = set(view.get("start_zones") or []) if live else set()
    clouds: dict[str, list[str]] = {}
    for c in view.get("clouds") or []:
        clouds.setdefault(c["zone"], []).append(c["cloud"])
    if view.get("over") and view.get("omniscient"):
        for z, until in (view["omniscient"].get("smoke") or {}).items():
            if until >= view["turn"]:
                clouds.setdefault(z, []).append("smoke")
        for z, until in (view["omniscient"].get("gas") or {}).items():
            if until >= view["turn"]:
                clouds.setdefault(z, []).append("gas")
    names_by_id = {z["id"]: z["name"] for z in zones}
    # the state words, translated once per drawing (not four gettext calls per zone)
    state_words = {"closed": _("closed"), "closed-here": _("closed, you are inside: leave now"),
                   "here": _("you are here"), "active": _("open")}
    can_move, closes_next, central_zone = _("you can move here"), _("closes next"), _("central zone")
    smoke_word, gas_word = _("smoke"), _("gas")
    out_zones = []
    for z in zones:
        zid = z["id"]
        x, y = pos[zid]
        states = []
        if z["closed"]:
            states.append("closed-here" if zid == here else "closed")
        else:
            states.append("here" if zid == here else "active")
        if zid in tactical_moves:
            states.append("reachable")
        if zid in start_zones:
            states.append("startable")
        if live and zid == view.get("next_to_close"):
            states.append("closing-next")
        if zid == mp["central"]:
            states.append("central")
        label_state = state_words[states[0]]
        extra = []
        if "reachable" in states:
            extra.append(can_move)
        if "closing-next" in states:
            extra.append(closes_next)
        if "central" in states:
            extra.append(central_zone)
        for cl in clouds.get(zid, []):
            extra.append(smoke_word if cl == "smoke" else gas_word)
        out_zones.append({
            "id": zid, "name": z["name"], "gloss": z.get("gloss", ""), "x": x, "y": y,
            "bx": round(x - 8.5, 2), "by": round(y - 7, 2), "youx": round(x - 6, 2),
            "youy": round(y - 4.5, 2), "starx": round(x + 6.5, 2), "stary": round(y - 3.5, 2),
            "cloudx": round(x + 5.8, 2), "cloudy": round(y + 5.8, 2),
            "peopley": round(y + 5.3, 2),
            "states": states, "cls": " ".join(f"z-{s}" for s in states),
            "title": f"{z['name']}: {', '.join([label_state, *extra])}",
            "state_text": ", ".join([label_state, *extra]),
            "clouds": sorted(set(clouds.get(zid, []))),
            "short": _short(z["name"]),
            "people": (positions or {}).get(zid, []),
            "neighbours": [names_by_id.get(n, n) for n in z["adjacent"]],
            "actionable": "reachable" in states or "startable" in states,
        })
    edges = []
    seen = set()
    closed_ids = {q["id"] for q in zones if q["closed"]}
    for z in zones:
        for n in z["adjacent"]:
            key = tuple(sorted((z["id"], n)))
            if key in seen or n not in pos:
                continue
            seen.add(key)
            closed = z["closed"] or n in closed_ids
            edges.append({"x1": pos[key[0]][0], "y1": pos[key[0]][1],
                          "x2": pos[key[1]][0], "y2": pos[key[1]][1], "closed": closed})
    return {"zones": out_zones, "edges": edges,
            "viewbox": " ".join(f"{v:g}" for v in box),
            "clickable": "move" if tactical_moves else ("start" if start_zones else "")}


def _short(name: str) -> list[str]:
    """A zone name on at most two lines for the SVG label."""
    words = name.split()
    if len(name) <= 11 or len(words) == 1:
        return [name]
    half = (len(words) + 1) // 2
    return [" ".join(words[:half]), " ".join(words[half:])]


# --- the board ---------------------------------------------------------------------------

def board(view: Mapping[str, Any] | None, match_config: Mapping[str, Any] | None,
          names: Mapping[int, str], lang: str = "en", *, draw: bool = True) -> dict[str, Any]:
    """Everything the board and order templates show, from ``view`` only (the director's
    omniscient view is drawn as the spectator map with everybody's position).
    ``draw=False`` (the email) leaves out the SVG map, the costly part."""
    if not view:
        return {}
    positions = None
    if "map" not in view and "format" in view:
        view, positions = director_view(view, names)
    me = view.get("me")
    out: dict[str, Any] = {
        "map": map_drawing(view, match_config, positions=positions) if draw else None,
        "turn": view["turn"], "phase": view["phase"],
        "over": view["over"], "living": view["living_count"],
        "double_damage": view.get("double_damage"), "mode": view["mode"],
        "next_to_close": "" if view["over"] else _zone_name(view, view.get("next_to_close")),
        "closed": [_zone_name(view, z) for z in view.get("closed", [])],
        "check_enabled": view.get("check_enabled"), "me": None, "dead": False,
        "winners": [pid_name(w, names) for w in view.get("winners") or []],
    }
    if me is None:
        return out
    if not me.get("alive"):
        out["dead"] = True
        out["died_turn"] = me.get("died_turn")
        return out
    out["me"] = panel(view, names, lang,
                      max_energy=int((match_config or {}).get("max_energy", 25)))
    out["zone"] = roster(view, names)
    out["orders"] = stored_orders(view, names, lang)
    out["forms"] = order_choices(view, names, lang)
    return out


def director_view(full: Mapping[str, Any], names: Mapping[int, str]
                  ) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The director (staff without a seat) gets ``omniscient_view``, the raw state: turn it
    into the spectator view plus who stands where, so the same board draws it."""
    from killgame import engine

    state = engine.load({k: v for k, v in full.items() if k != "game"})
    view = dict(engine.player_view(state, None))
    view["omniscient"] = {"smoke": full.get("smoke", {}), "gas": full.get("gas", {})}
    positions: dict[str, list[str]] = {}
    for p in full.get("players", []):
        if p.get("alive") and p.get("zone"):
            positions.setdefault(p["zone"], []).append(names.get(p["seat"], p["pid"]))
    for m in full.get("monsters", []):
        if m.get("alive") and m.get("zone"):
            positions.setdefault(m["zone"], []).append(
                pgettext("killgame", "Monster %(number)s") % {"number": m["number"]})
    return view, positions


def _zone_name(view: Mapping[str, Any], zid: str | None) -> str:
    if not zid:
        return ""
    for z in view["map"]["zones"]:
        if z["id"] == zid:
            return str(z["name"])
    return zid


def panel(view: Mapping[str, Any], names: Mapping[int, str], lang: str, *,
          max_energy: int = 25) -> dict[str, Any]:
    me = view["me"]
    energy = int(me["energy"])
    approval = int(me["approval"])
    backpack = []
    if me.get("firearm"):
        backpack.append({"id": me["firearm"], "name": item_name(me["firearm"], lang), "count": 1})
    backpack.append({"id": me["weapon_melee"], "name": item_name(me["weapon_melee"], lang),
                     "count": 1})
    for item, n in me["items"].items():
        backpack.append({"id": item, "name": item_name(item, lang), "count": n})
    for opt in me.get("options") or []:
        backpack.append({"id": opt, "name": item_name(opt, lang), "count": 1, "option": True})
    faces = ([{"kind": "green", "on": approval >= i} for i in (1, 2, 3)]
             + [{"kind": "red", "on": approval <= -i} for i in (1, 2, 3)])
    allies = [{"name": pid_name(a["id"], names), "alive": a["alive"]}
              for a in view.get("allies") or []]
    return {
        "name": names.get(me["seat"], f"p{me['seat']}"), "zone": _zone_name(view, me["zone"]),
        "energy": energy, "max_energy": max_energy,
        "energy_pct": max(0, min(100, energy * 100 // max_energy)),
        "energy_low": energy <= 8, "coins": me["coins"], "backpack": backpack,
        "approval": approval, "faces": faces, "persuasion": me["persuasion"],
        "poisoned": me["poisoned"], "poison_ticks_left": me["poison_ticks_left"],
        "reloading": me["reloading"], "reload_turn": me["reload_turn"],
        "allies": allies, "team": me.get("team"), "checked": me.get("checked"),
        "purchases_left": me.get("purchases_left"),
    }


def roster(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    zone = view.get("zone")
    if not zone:
        return None
    people = None
    if zone.get("players") is not None:
        people = [{"id": q["id"], "name": pid_name(q["id"], names), "teammate": q["teammate"]}
                  for q in zone["players"]]
    return {"name": _zone_name(view, zone["id"]), "closed": zone["closed"],
            "smoked": zone["smoked"], "gassed": zone["gassed"], "people": people,
            "monster": zone.get("monster"), "monster_id": zone.get("monster_id"),
            "presences": zone["presences"]}


def describe_order(order: Mapping[str, Any], view: Mapping[str, Any],
                   names: Mapping[int, str], lang: str = "en") -> str:
    """A stored order in one plain sentence, in the active language (whole sentences from
    the catalogue; zone and player names as they are)."""
    t = order.get("type")
    z = lambda key: _zone_name(view, order.get(key))  # noqa: E731
    if t == "move":
        return _("Move to %(zone)s.") % {"zone": z("to")}
    if t == "start_zone":
        return _("Start in %(zone)s.") % {"zone": z("zone")}
    if t == "cart":
        items = order.get("items") or {}
        if not items:
            return _("Shopping cart: nothing (a deliberate empty cart).")
        rank = {item: i for i, item in enumerate(cat.CATALOGUE)}
        lines = sorted(items.items(), key=lambda kv: rank.get(kv[0], 99))
        return _("Shopping cart: %(items)s.") % {
            "items": _listed([f"{n} × {item_name(i, lang)}" for i, n in lines])}
    if t == "medkit":
        if order.get("target") == "self":
            return _("Medkit on yourself.")
        return _("Medkit on %(who)s.") % {"who": pid_name(order.get("target"), names)}
    if t == "antidote":
        return _("Take the antidote.")
    if t == "smoke":
        return _("Smoke grenade on %(zone)s.") % {"zone": z("zone")}
    if t == "gas":
        return _("Gas canister on %(zone)s.") % {"zone": z("zone")}
    if t == "attack":
        weapon = item_name(order.get("weapon", ""), lang)
        if "random" in order:
            n = int(order["random"])
            return ngettext("Attack with the %(weapon)s: %(count)s shot at random in the smoke.",
                            "Attack with the %(weapon)s: %(count)s shots at random in the smoke.",
                            n) % {"weapon": weapon, "count": n}
        targets = _listed([pid_name(x, names) for x in order.get("targets") or []])
        return _("Attack with the %(weapon)s: %(targets)s.") % {"weapon": weapon,
                                                                "targets": targets}
    if t == "grenade":
        return _("Throw a grenade into %(zone)s.") % {"zone": z("zone")}
    if t == "c4":
        return _("Place C4 in %(zone)s.") % {"zone": z("zone")}
    if t == "wear":
        return _("Wear: %(items)s.") % {
            "items": _listed([item_name(i, lang) for i in order.get("items") or []])}
    if t == "shout":
        return _("Challenge shout.")
    return str(t)


def stored_orders(view: Mapping[str, Any], names: Mapping[int, str],
                  lang: str) -> list[dict[str, Any]]:
    out = []
    for o in view["me"]["orders"]:
        out.append({"slot": o["slot"], "seq": o["seq"],
                    "text": describe_order(o["order"], view, names, lang),
                    "withdrawable": o["slot"] is not None})
    return out


def order_choices(view: Mapping[str, Any], names: Mapping[int, str],
                  lang: str) -> dict[str, Any]:
    """The options of every order form available now (only what the player may know)."""
    me = view["me"]
    T = view["turn"]
    phase = view["phase"]
    zones = {z["id"]: z for z in view["map"]["zones"]}
    here = me["zone"]
    central = view["map"]["central"]
    k_on = view.get("k_rations_enabled")
    open_zones = [zid for zid, z in zones.items() if not z["closed"]]
    zname = lambda zid: zones[zid]["name"]  # noqa: E731
    items = me["items"]
    roster_view = view.get("zone") or {}
    smoked = bool(roster_view.get("smoked"))
    forms: dict[str, Any] = {"phase": phase, "turn": T}
    if phase == "tactical" and T == 1:
        catalogue = view.get("catalogue") or {}
        forms["cart"] = [{"id": i, "name": item_name(i, lang), "price": p["buy"],
                          "category": CATEGORY_LABELS.get(cat.category(i), cat.category(i)),
                          "max": 1 if cat.category(i) in ("firearm", "knife", "option") else 99}
                         for i, p in catalogue.items()]
        forms["budget"] = me["coins"]
        forms["start_zones"] = [{"id": z, "name": zname(z)} for z in view.get("start_zones") or []]
        forms["default_start"] = zname(view["map"]["default_start"])
        prices = {i: p["buy"] for i, p in catalogue.items()}
        backpack = dict(cat.DEFAULT_BACKPACK)
        cost = sum(prices.get(i, 0) * n for i, n in backpack.items())
        forms["default_backpack"] = {
            "items": [item_name(i, lang) for i in backpack], "cost": cost,
            "coins_left": max(0, int(me["coins"]) - cost),
            "rations": 5 if k_on else 0}
        stored = next((o["order"] for o in me["orders"] if o["slot"] == "cart"), None)
        forms["cart_stored"] = dict(stored["items"]) if stored else {}
        return forms
    if phase == "tactical":
        forms["moves"] = [{"id": z, "name": zname(z)} for z in view.get("moves") or []]
        targets = [{"id": "self", "name": "yourself"}]
        if not smoked and roster_view.get("players"):
            targets += [{"id": q["id"], "name": pid_name(q["id"], names)}
                        for q in roster_view["players"]]
        forms["medkit"] = {"have": items.get("medkit", 0), "targets": targets}
        forms["antidote"] = {"have": items.get("antidote", 0), "needed": me["poisoned"]}
        near = [here, *zones[here]["adjacent"]] if here else []
        near_open = [z for z in near if z in zones and not zones[z]["closed"]]
        forms["smoke"] = {"have": items.get("smoke_grenade", 0),
                          "zones": [{"id": z, "name": zname(z)} for z in near_open]}
        gas_targets = open_zones if "gas_launcher" in (me.get("options") or []) else near_open
        forms["gas"] = {"have": items.get("gas_canister", 0),
                        "zones": [{"id": z, "name": zname(z)} for z in gas_targets
                                  if not (k_on and z == central)]}
        market = view.get("market") or {}
        prices = market.get("prices") or {}
        owned = {i for i, n in items.items() if n > 0}
        if me.get("firearm"):
            owned.add(me["firearm"])
        if me.get("knife"):
            owned.add(me["knife"])
        forms["market"] = {
            "regime": REGIMES.get(market.get("regime"), market.get("regime")),
            "purchases_left": me.get("purchases_left"),
            "coins": me["coins"],
            "rows": [{"id": i, "name": item_name(i, lang), "buy": p["buy"], "sell": p["sell"],
                      "owned": (1 if i in (me.get("firearm"), me.get("knife")) else items.get(i, 0))}
                     for i, p in prices.items()],
            "sellable": [{"id": i, "name": item_name(i, lang), "price": prices[i]["sell"]}
                         for i in prices if i in owned and prices[i]["sell"] is not None],
        }
        return forms
    # action phase
    weapons = []
    if me.get("firearm"):
        weapons.append({"id": me["firearm"], "name": item_name(me["firearm"], lang),
                        "reloading": me["reloading"] and me["firearm"] in cat.RELOADING})
    weapons.append({"id": me["weapon_melee"], "name": item_name(me["weapon_melee"], lang),
                    "reloading": False})
    people = []
    if not smoked:
        people = [{"id": q["id"], "name": pid_name(q["id"], names), "teammate": q["teammate"]}
                  for q in roster_view.get("players") or []]
        if roster_view.get("monster_id"):
            people.append({"id": roster_view["monster_id"],
                           "name": pid_name(roster_view["monster_id"], names), "teammate": False})
    forms["attack"] = {"weapons": weapons, "targets": people, "smoked": smoked,
                       "presences": roster_view.get("presences", 0)}
    bomb_zones = [z for z in open_zones if not (k_on and z == central)]
    # §19: grenade, C4 and the shout are refused in turn 1: their controls say so, disabled
    forms["from_turn_2"] = T < 2
    forms["grenade"] = {"have": items.get("grenade", 0),
                        "zones": [{"id": z, "name": zname(z)} for z in bomb_zones]}
    adj = zones[here]["adjacent"] if here else []
    forms["c4"] = {"have": items.get("c4", 0),
                   "zones": [{"id": z, "name": zname(z)} for z in adj if z in bomb_zones]}
    forms["wear"] = [{"id": w, "name": item_name(w, lang), "have": items.get(w, 0)}
                     for w in WEARABLE]
    forms["shout"] = {"allowed": T >= 2, "persuasion": me["persuasion"]}
    return forms


# --- orders from the form ----------------------------------------------------------------

def _one(post: QueryDict, name: str, message: str) -> str:
    value = (post.get(name) or "").strip()
    if not value:
        raise OrderFieldError(message, control=name)
    return value


class OrderFieldError(ValueError):
    """Bad form input, with the control it belongs to (shown next to it)."""

    def __init__(self, message: str, *, control: str) -> None:
        super().__init__(_(message))
        self.control = control


def order_from_post(post: QueryDict) -> dict[str, Any]:
    """The engine order from the posted board form. The pressed button's ``kind`` names
    the order; each order reads only its own controls. Raises :class:`OrderFieldError`
    (a ``ValueError``) for input that cannot become an order."""
    kind = (post.get("kind") or "").strip()
    if kind.startswith("withdraw:"):
        return {"type": "withdraw", "slot": kind.split(":", 1)[1]}
    if kind == "move":
        return {"type": "move", "to": _one(post, "move_to", PICK_A_ZONE)}
    if kind == "start_zone":
        return {"type": "start_zone", "zone": _one(post, "start_zone", PICK_A_ZONE)}
    if kind == "cart":
        items: dict[str, int] = {}
        for key in post:
            if not key.startswith("cart_"):
                continue
            raw = (post.get(key) or "").strip()
            if raw in ("", "0"):
                continue
            try:
                n = int(raw)
            except ValueError:
                item = item_name(key[5:], translation.get_language() or "en")
                raise OrderFieldError(_(NOT_A_NUMBER) % {"item": item},
                                      control="cart") from None
            if n > 99:
                raise OrderFieldError(CART_TOO_BIG, control="cart")
            items[key[5:]] = n
        return {"type": "cart", "items": items}
    if kind == "medkit":
        return {"type": "medkit", "target": _one(post, "medkit_target", PICK_WHO_TO_HEAL)}
    if kind == "antidote":
        return {"type": "antidote"}
    if kind in ("smoke", "gas", "grenade", "c4"):
        return {"type": kind, "zone": _one(post, f"{kind}_zone", PICK_A_ZONE)}
    if kind in ("buy", "sell"):
        return {"type": kind, "item": _one(post, f"{kind}_item", PICK_AN_ITEM)}
    if kind == "attack":
        weapon = _one(post, "attack_weapon", PICK_A_WEAPON)
        raw_random = (post.get("attack_random") or "").strip()
        if raw_random:
            try:
                return {"type": "attack", "weapon": weapon, "random": int(raw_random)}
            except ValueError:
                raise OrderFieldError(SHOTS_NOT_A_NUMBER,
                                      control="attack_random") from None
        targets = [t for t in post.getlist("attack_targets") if t.strip()]
        if not targets:
            raise OrderFieldError(PICK_A_TARGET, control="attack_targets")
        if len(targets) == 1 and post.get("attack_twice"):
            targets = targets * 2
        return {"type": "attack", "weapon": weapon, "targets": targets}
    if kind == "wear":
        worn = [w for w in post.getlist("wear_items") if w.strip()]
        if not worn:
            raise OrderFieldError(PICK_WEAR, control="wear_items")
        return {"type": "wear", "items": worn}
    if kind == "shout":
        return {"type": "shout"}
    if kind == "check":
        return {"type": "check"}
    raise OrderFieldError(PICK_AN_ACTION, control="kind")


_CONTROLS = {
    "start": {"cart", "start_zone"},
    "tactical": {"move_to", "move", "medkit_target", "medkit", "antidote", "smoke_zone",
                 "smoke", "gas_zone", "gas", "buy_item", "buy", "sell_item", "sell"},
    "action": {"attack_weapon", "attack_targets", "attack_random", "attack", "grenade_zone",
               "grenade", "c4_zone", "c4", "wear_items", "wear", "shout"},
}


def controls_on_page(view: Mapping[str, Any] | None) -> set[str]:
    """The controls the order form shows for this view (an error for any other control,
    e.g. a start zone posted from an old tab in turn 2, is shown at the top of the form)."""
    out = {"kind", "withdraw"}
    if view and view.get("check_enabled"):
        out.add("check")
    if not view or not (view.get("me") or {}).get("alive"):
        return out
    if view["phase"] == "tactical":
        out |= _CONTROLS["start" if view["turn"] == 1 else "tactical"]
    else:
        out |= _CONTROLS["action"]
        # the attack form shows targets, or a random count inside smoke
        smoked = bool((view.get("zone") or {}).get("smoked"))
        out.discard("attack_targets" if smoked else "attack_random")
    out |= {f"withdraw_{o['slot']}" for o in view["me"].get("orders", []) if o.get("slot")}
    return out


def error_control(payload: Mapping[str, Any] | None, field: str | None) -> str:
    """The control an engine error belongs to: the field's control, else the order's
    own button (``move``, ``shout``, ``withdraw_combat``…)."""
    if not payload:
        return "kind"
    kind = str(payload.get("type", ""))
    if kind == "withdraw":
        return f"withdraw_{payload.get('slot', '')}"
    return CONTROL_OF_FIELD.get((kind, field or ""), kind or "kind")


# --- email -------------------------------------------------------------------------------

def now_lines(view: Mapping[str, Any] | None, names: Mapping[int, str],
              lang: str = "en") -> list[str]:
    """What the reader can do in the phase that just opened, in plain sentences (the
    new-phase email) in ``lang``, from their player view only. Whole sentences and plurals
    come from the catalogue (zone and player names are never translated)."""
    with translation.override(lang):
        return _now_lines(view, names, lang)


def _listed(items: list[str]) -> str:
    # Translators: what separates the items of a list ("Alice, Bob")
    return pgettext("list separator", ", ").join(items)


def _now_lines(view: Mapping[str, Any] | None, names: Mapping[int, str],
               lang: str) -> list[str]:
    if not view or view.get("over"):
        return []
    me = view.get("me")
    if me is None:
        return [_("You are watching: the public feed and the map are on the match page.")]
    if not me.get("alive"):
        return [_("You are dead: you can still watch the match.")]
    out = []
    if view["phase"] == "tactical" and view["turn"] == 1:
        # the budget and the default start zone, read where ``order_choices`` reads them:
        # its shopping cart (every catalogue item's name, in the reader's language, per
        # reader) is not part of the sentence
        budget = me["coins"]
        out.append(ngettext(
            "Shop your backpack (budget %(budget)s coin) and choose your start zone; if you do "
            "not, you get the default backpack and start in %(zone)s.",
            "Shop your backpack (budget %(budget)s coins) and choose your start zone; if you do "
            "not, you get the default backpack and start in %(zone)s.",
            int(budget or 0)) % {"budget": budget,
                                 "zone": _zone_name(view, view["map"]["default_start"])})
        return out
    # only the parts of ``board`` the sentences use (no map, panel or stored orders)
    f = order_choices(view, names, lang)
    zone = roster(view, names)
    if zone:
        if zone["people"] is None:
            n = int(zone["presences"] or 0)
            out.append(ngettext("You are in %(zone)s: the smoke hides %(count)s presence.",
                                "You are in %(zone)s: the smoke hides %(count)s presences.",
                                n) % {"zone": zone["name"], "count": n})
        else:
            who = [p["name"] for p in zone["people"]] + (
                [_("a monster")] if zone["monster"] else [])
            out.append(_("You are in %(zone)s with %(people)s.") % {
                "zone": zone["name"], "people": _listed(who)} if who
                else _("You are in %(zone)s with nobody.") % {"zone": zone["name"]})
        if zone["closed"]:  # the right phase words: one moves only in a Tactical phase
            out.append(_("Your zone is closed: leave it in this Tactical phase.")
                       if view["phase"] == "tactical"
                       else _("Your zone is closed: leave it in the next Tactical phase."))
    if view["phase"] == "tactical":
        if f["moves"]:
            out.append(_("You can move to %(zones)s.") % {
                "zones": _listed([m["name"] for m in f["moves"]])})
        m = f["market"]
        if m["regime"]:
            out.append(ngettext(
                "The market is %(regime)s today; you may buy %(left)s more and have "
                "%(coins)s coin.",
                "The market is %(regime)s today; you may buy %(left)s more and have "
                "%(coins)s coins.", int(m["coins"] or 0)) % {
                "regime": m["regime"], "left": m["purchases_left"], "coins": m["coins"]})
        if f["medkit"]["have"]:
            n = int(f["medkit"]["have"])
            out.append(ngettext("You have %(count)s medkit.", "You have %(count)s medkits.",
                                n) % {"count": n})
        if f["antidote"]["needed"] and f["antidote"]["have"]:
            out.append(_("You are poisoned and have an antidote."))
    else:
        weapons = [w["name"] for w in f["attack"]["weapons"] if not w["reloading"]]
        out.append(_("You can attack with: %(weapons)s.") % {"weapons": _listed(weapons)})
        if f["grenade"]["have"] or f["c4"]["have"]:
            g = int(f["grenade"]["have"] or 0)
            out.append(ngettext("Explosives: %(count)s grenade, %(c4)s C4.",
                                "Explosives: %(count)s grenades, %(c4)s C4.", g)
                       % {"count": g, "c4": f["c4"]["have"]})
        if f["shout"]["allowed"]:
            out.append(_("You can shout a challenge (persuasion %(persuasion)s%%).")
                       % {"persuasion": f["shout"]["persuasion"]})
    if view.get("next_to_close"):
        out.append(_("Next zone to close: %(zone)s.") % {
            "zone": _zone_name(view, view.get("next_to_close"))})
    return out


def email_context(match: Any, seat_number: int | None, lang: str = "en") -> dict[str, Any]:
    """Extra context for the new-phase email: ``now_lines`` for the reader's seat."""
    from games import selectors

    if match is None or match.state is None:
        return {"now_lines": []}
    # The outbox renders a batch of emails with one Match object per match: the seat
    # names are read (for the whole batch, emails.prefetch) and the state loaded once per
    # match and batch, not once per email.
    memo = match.__dict__.setdefault("_email_context_memo", {})
    if "state" not in memo:
        memo["state"] = selectors.player_view_state(match)
    names = selectors.seat_names_cached(match)
    number = seat_number if seat_number in names else None
    # one seat's lines are the same for each of its emails in the batch (same state,
    # same view): built once per (seat, language), never shared between seats
    if ("lines", number, lang) not in memo:
        view = selectors.player_view_from_state(match, memo["state"], number)
        memo[("lines", number, lang)] = now_lines(view, names, lang)
    return {"now_lines": list(memo[("lines", number, lang)])}


#: the phase kinds' labels (games_tags.phase_label), for the catalogue
PHASE_LABELS = (pgettext_lazy("phase", "Tactical"), pgettext_lazy("phase", "Action"))
