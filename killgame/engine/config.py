"""Match configuration (§3): the schema with every key and default, and validation.

:func:`validate_config` returns a complete plain dict (defaults filled in) or raises
:class:`games.rules.InvalidConfig`. Fixed rule constants are listed too (the "no" rows of §3)
so scenarios and tests may vary them; they carry ``house_rule=True`` and the forms offer them
collapsed under "House rules", apart from the real choices.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from games.rules import ConfigField, InvalidConfig, Msg, T

from . import catalogue as cat
from .maps import MapError, map_from_data

_I = "int"
_B = "bool"

SCHEMA: tuple[ConfigField, ...] = (
    ConfigField("mode", "choice", "ffa", T("Mode"), choices=(("ffa", T("Free-For-All")),
                ("teams", T("Teams")), ("districts", T("Districts")))),
    ConfigField("team_count", _I, 2, T("Teams"), min=2, max=50),
    ConfigField("min_players", _I, 6, T("Minimum players"), min=2, max=100),
    ConfigField("max_players", _I, 30, T("Maximum players"), min=2, max=100),
    ConfigField("map", "choice", "classic", T("Map"), choices=(("classic", T("Classic")),
                ("inferno", T("Inferno")))),
    ConfigField("max_energy", _I, 25, T("Energy (start and cap)"), house_rule=True, min=1, max=1000),
    ConfigField("budget", _I, 1000, T("Initial coins"), min=0, max=1_000_000),
    ConfigField("timezone", "str", "Europe/Rome", T("Time zone")),
    ConfigField("tactical_opens_at", "str", "13:00", T("Tactical phase opens at (HH:MM)")),
    ConfigField("action_opens_at", "str", "21:30", T("Action phase opens at (HH:MM)")),
    ConfigField("check_enabled", _B, False, T("CHECK mode")),
    ConfigField("check_phase_max_hours", _I, 24, T("CHECK phase max hours"), house_rule=True, min=1, max=240),
    ConfigField("k_rations_enabled", _B, True, T("K-rations")),
    ConfigField("k_rations_free", _I, 5, T("Free K-rations"), house_rule=True, min=0, max=100),
    ConfigField("k_rations_central_gain", _I, 3, T("K-rations gained in the central zone"), house_rule=True,
                min=0, max=100),
    ConfigField("starvation_damage", _I, 2, T("Starvation damage"), house_rule=True, min=0, max=100),
    ConfigField("central_expulsion_damage", _I, 5, T("Central-zone expulsion damage"), house_rule=True,
                min=0, max=100),
    ConfigField("closed_zone_damage", _I, 10, T("Closed-zone damage"), min=0, max=100),
    ConfigField("weapons", "json", cat.DEFAULT_WEAPONS, T("Weapon damage and shots"), house_rule=True),
    ConfigField("crossbow_poison_damage", _I, 2, T("Crossbow poison damage"), min=0, max=100),
    ConfigField("crossbow_poison_turns", _I, 2, T("Crossbow poison turns"), min=0, max=100),
    ConfigField("grenade_damage", _I, 7, T("Grenade damage"), min=0, max=100),
    ConfigField("c4_damage", _I, 9, T("C4 damage"), min=0, max=100),
    ConfigField("explosives_cap_per_zone", _I, 2, T("Effective explosives per zone"), house_rule=True,
                min=0, max=100),
    ConfigField("smoke_duration", _I, 2, T("Smoke duration (turns)"), min=1, max=100),
    ConfigField("gas_damage", _I, 3, T("Gas damage per turn"), min=0, max=100),
    ConfigField("gas_duration", _I, 2, T("Gas duration (turns)"), min=1, max=100),
    ConfigField("monster_count", _I, 2, T("Monsters"), min=0, max=100),
    ConfigField("monster_damage_min", _I, 6, T("Monster damage min"), house_rule=True, min=1, max=100),
    ConfigField("monster_damage_max", _I, 8, T("Monster damage max"), house_rule=True, min=1, max=100),
    ConfigField("monster_spawn_stop_at_living", _I, 4, T("No new monsters at or below"), house_rule=True,
                min=0, max=100),
    ConfigField("double_damage_threshold", _I, 3, T("Double damage at living players ≤"), min=0,
                max=100),
    ConfigField("medkit_heal_pct", _I, 40, T("Medkit heal, percent of lost energy"), house_rule=True, min=0, max=100),
    ConfigField("approval_threshold", _I, 3, T("Approval threshold"), house_rule=True, min=1, max=100),
    ConfigField("shout_approval", _I, 2, T("Shout approval"), house_rule=True, min=0, max=100),
    ConfigField("persuasion_start", _I, 40, T("Starting persuasion"), house_rule=True, min=0, max=100),
    ConfigField("persuasion_shout_decrease", _I, 50, T("Persuasion lost per shout"), min=0, max=100),
    ConfigField("persuasion_rest_increase", _I, 20, T("Persuasion gained per quiet turn"), house_rule=True,
                min=0, max=100),
    ConfigField("market_regime_weights", "json", [8, 17, 50, 25],
                T("Market regime weights (discounted, unchanged, raised, crazy)"), house_rule=True),
    ConfigField("sell_pct", _I, 70, T("Sale price, percent of base"), house_rule=True, min=0, max=100),
    ConfigField("market_purchase_limit", _I, 2, T("Purchases per Tactical phase"), min=0, max=100),
    ConfigField("prices", "json", cat.DEFAULT_PRICES, T("Base prices"), house_rule=True),
    ConfigField("rewards", "json", cat.DEFAULT_REWARDS, T("Rewards for approval"), house_rule=True),
    ConfigField("punishments", "json", cat.DEFAULT_PUNISHMENTS, T("Punishments for disapproval"), house_rule=True),
    ConfigField("max_turns", _I, 0, T("Last turn (0 = off)"), min=0, max=10_000),
)
DEFAULTS: dict[str, Any] = {f.key: f.default for f in SCHEMA}
_BY_KEY = {f.key: f for f in SCHEMA}
#: optional key outside the schema: a map snapshot in the §20.3 JSON form (the Django layer
#: copies the admin-edited map here at match creation); "map" must then be its id
MAP_DATA = "map_data"
_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


def _bad(key: str, why: Msg | str) -> InvalidConfig:
    """``setting: why`` as a Msg (the setting by its label where it has one): the app layer
    says it in the reader's language."""
    label = next((f.label for f in SCHEMA if f.key == key and f.label), key)
    return InvalidConfig(T("%(setting)s: %(why)s", setting=label, why=why),
                         code="INVALID_CONFIG", field=key)


def _check_weapons(raw: Any) -> dict[str, dict[str, int]]:
    if not isinstance(raw, Mapping):
        raise _bad("weapons", T("must be an object"))
    out = copy.deepcopy(cat.DEFAULT_WEAPONS)
    for w, spec in raw.items():
        if w not in out or not isinstance(spec, Mapping):
            raise _bad("weapons", T("unknown weapon %(weapon)s", weapon=repr(w)))
        for k, v in spec.items():
            if k not in ("damage", "shots") or type(v) is not int or v < 0 or v > 100:
                raise _bad("weapons", T("bad %(key)s for %(weapon)s", key=repr(k), weapon=repr(w)))
            out[w][k] = v
        if w != "flamethrower" and out[w]["shots"] < 1:
            raise _bad("weapons", T("%(weapon)s needs at least one shot", weapon=repr(w)))
    return out


def _check_prices(raw: Any) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise _bad("prices", T("must be an object"))
    out = dict(cat.DEFAULT_PRICES)
    for k, v in raw.items():
        if k not in out or type(v) is not int or v < 0:
            raise _bad("prices", T("bad price for %(item)s", item=repr(k)))
        out[k] = v
    return out


def _check_rewards(raw: Any) -> list[list[Any]]:
    if not isinstance(raw, list) or not raw:
        raise _bad("rewards", T("must be a non-empty list"))
    out = []
    for row in raw:
        if (not isinstance(row, (list, tuple)) or len(row) != 3 or not isinstance(row[0], str)
                or not isinstance(row[1], Mapping) or type(row[2]) is not int or row[2] < 0):
            raise _bad("rewards", T("rows are [label, {item: count}, weight]"))
        for item, n in row[1].items():
            if item not in cat.STACKABLE or type(n) is not int or n < 1:
                raise _bad("rewards", T("bad reward item %(item)s", item=repr(item)))
        out.append([row[0], dict(row[1]), row[2]])
    return out


def _check_punishments(raw: Any) -> list[list[int]]:
    if not isinstance(raw, list) or not raw:
        raise _bad("punishments", T("must be a non-empty list"))
    out = []
    for row in raw:
        if (not isinstance(row, (list, tuple)) or len(row) != 2
                or any(type(x) is not int or x < 0 for x in row)):
            raise _bad("punishments", T("rows are [energy lost, weight]"))
        out.append([row[0], row[1]])
    if sum(r[1] for r in out) <= 0:
        raise _bad("punishments", T("weights must not all be zero"))
    return out


def validate_config(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the full config with defaults filled in, or raise InvalidConfig."""
    config = dict(config or {})
    unknown = sorted(set(config) - set(DEFAULTS) - {MAP_DATA})
    if unknown:
        raise _bad(unknown[0], T("unknown setting"))
    map_data = config.get(MAP_DATA)
    out: dict[str, Any] = {}
    if map_data is not None:
        if not isinstance(map_data, Mapping):
            raise _bad(MAP_DATA, T("must be an object"))
        try:
            gmap = map_from_data(map_data)
        except MapError as exc:
            raise _bad(MAP_DATA, str(exc)) from None
        if config.get("map", gmap.id) != gmap.id:
            raise _bad("map", T("must be the id of map_data"))
        config["map"] = gmap.id
        out[MAP_DATA] = copy.deepcopy(dict(map_data))
    for f in SCHEMA:
        v = config.get(f.key, copy.deepcopy(f.default))
        if f.key == "map" and map_data is not None:
            out[f.key] = v
            continue
        if f.type == _I:
            if type(v) is not int:
                raise _bad(f.key, T("must be a whole number"))
            if (f.min is not None and v < f.min) or (f.max is not None and v > f.max):
                raise _bad(f.key, T("must be between %(min)s and %(max)s", min=f.min, max=f.max))
        elif f.type == _B:
            if type(v) is not bool:
                raise _bad(f.key, T("must be true or false"))
        elif f.type == "choice":
            if not isinstance(v, str) or v not in {c for c, _ in f.choices}:
                raise _bad(f.key, T("not one of the choices"))
        elif f.type == "str":
            if not isinstance(v, str) or not v:
                raise _bad(f.key, T("must be a text"))
        out[f.key] = v
    for key in ("tactical_opens_at", "action_opens_at"):
        if not _HHMM.match(out[key]):
            raise _bad(key, T("must be HH:MM"))
    try:
        ZoneInfo(out["timezone"])
    except (ZoneInfoNotFoundError, ValueError):
        raise _bad("timezone", T("unknown time zone")) from None
    out["weapons"] = _check_weapons(out["weapons"])
    out["prices"] = _check_prices(out["prices"])
    out["rewards"] = _check_rewards(out["rewards"])
    out["punishments"] = _check_punishments(out["punishments"])
    w = out["market_regime_weights"]
    if (not isinstance(w, list) or len(w) != 4 or any(type(x) is not int or x < 0 for x in w)
            or sum(w) <= 0):
        raise _bad("market_regime_weights", T("four non-negative whole numbers"))
    out["market_regime_weights"] = list(w)
    if out["min_players"] > out["max_players"]:
        raise _bad("min_players", T("must not exceed the maximum number of players"))
    if out["mode"] == "teams" and out["min_players"] < 2 * out["team_count"]:
        raise _bad("min_players", T("in teams mode it must be at least twice the number of teams"))
    if out["monster_damage_min"] > out["monster_damage_max"]:
        raise _bad("monster_damage_min", T("must not exceed the maximum monster damage"))
    return out


def config_schema() -> tuple[ConfigField, ...]:
    """Every §3 setting with its default."""
    return SCHEMA
