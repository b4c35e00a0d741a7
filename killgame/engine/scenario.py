"""The Kill Game scenario runner (``docs/killgame-scenario-format.md``, ``docs/scenarios.md``).

``python -m killgame.engine.scenario < scenario.json`` reads a position and phases of orders,
plays them through the engine exactly as the server would, and prints the resulting position
as JSON (sorted keys). Exit 2 with a message on standard error for a malformed scenario,
never a traceback. :func:`run` is the same thing as a function (dict in, dict out).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Mapping

from games.rules import InvalidConfig, RulesError

from . import catalogue as cat
from .config import validate_config
from .maps import MAPS, map_from_data
from .market import draw_regime
from .orders import submit
from .resolve import resolve
from .setup import empty_stats
from .state import ACTION, TACTICAL, Monster, Player, State


class ScenarioError(ValueError):
    """The scenario itself is malformed (exit 2)."""


TOP_KEYS = {"map", "seed", "config", "turn", "phase", "closed", "smoke", "gas", "market",
            "players", "monsters", "phases"}
PLAYER_KEYS = {"id", "seat", "team", "zone", "energy", "coins", "firearm", "knife", "items",
               "options", "poison_until", "reload_turn", "approval", "persuasion"}
MONSTER_KEYS = {"id", "zone", "energy", "damage"}
PHASE_KEYS = {"orders", "check"}


def _int(v: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if type(v) is not int:
        raise ScenarioError(f"{what} must be a whole number")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ScenarioError(f"{what} must be between {lo} and {hi}")
    return v


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str) or not v:
        raise ScenarioError(f"{what} must be a non-empty string")
    return v


def _obj(v: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise ScenarioError(f"{what} must be an object")
    return v


def _list(v: Any, what: str) -> list[Any]:
    if not isinstance(v, list):
        raise ScenarioError(f"{what} must be a list")
    return v


def build_state(sc: Mapping[str, Any]) -> tuple[State, str]:
    """The position a scenario describes, and its seed."""
    sc = _obj(sc, "the scenario")
    unknown = sorted(set(sc) - TOP_KEYS)
    if unknown:
        raise ScenarioError(f"unknown field {unknown[0]!r}")
    raw_cfg = dict(_obj(sc.get("config", {}), "config"))
    if "map" in sc:
        if not isinstance(sc["map"], str):
            raise ScenarioError("map must be a map id")
        if raw_cfg.get("map", sc["map"]) != sc["map"]:
            raise ScenarioError("config.map and map disagree")
        raw_cfg["map"] = sc["map"]
    if raw_cfg.get("map_data") is None and raw_cfg.get("map", "classic") not in MAPS:
        raise ScenarioError(f"unknown map {raw_cfg.get('map')!r}")
    try:
        cfg = validate_config(raw_cfg)
    except InvalidConfig as exc:
        raise ScenarioError(f"config: {exc}") from None
    gmap = map_from_data(cfg["map_data"]) if cfg.get("map_data") else MAPS[cfg["map"]]
    map_id = gmap.id
    seed = _str(sc.get("seed", "scenario"), "seed")
    turn = _int(sc.get("turn", 1), "turn", 1)
    phase = sc.get("phase", TACTICAL)
    if phase not in (TACTICAL, ACTION):
        raise ScenarioError("phase must be 'tactical' or 'action'")
    closed = _list(sc.get("closed", []), "closed")
    if list(closed) != list(gmap.closure_order[:len(closed)]):
        raise ScenarioError("closed must be a prefix of the map's closure order")
    closed_set = set(closed)
    clouds = {}
    for key in ("smoke", "gas"):
        table = _obj(sc.get(key, {}), key)
        for z, until in table.items():
            if z not in gmap.index:
                raise ScenarioError(f"{key}: unknown zone {z!r}")
            _int(until, f"{key}.{z}", 0)
        clouds[key] = {z: table[z] for z in gmap.zones if z in table and table[z] >= turn}
    market = sc.get("market")
    if market is not None and market not in cat.REGIMES:
        raise ScenarioError(f"unknown market regime {market!r}")
    setup_phase = turn == 1 and phase == TACTICAL
    players_raw = _list(sc.get("players"), "players")
    if not players_raw:
        raise ScenarioError("players must not be empty")
    parsed: list[dict[str, Any]] = []
    seen_ids: set[str] = set()
    seen_seats: set[int] = set()
    for i, raw in enumerate(players_raw):
        raw = _obj(raw, f"players[{i}]")
        bad = sorted(set(raw) - PLAYER_KEYS)
        if bad:
            raise ScenarioError(f"players[{i}]: unknown field {bad[0]!r}")
        pid = _str(raw.get("id"), f"players[{i}].id")
        if pid in seen_ids or pid.startswith("m") and pid[1:].isdigit() or pid == "self":
            raise ScenarioError(f"players[{i}]: bad or duplicate id {pid!r}")
        seen_ids.add(pid)
        rseat = _int(raw.get("seat", i + 1), f"{pid}.seat", 1)
        if rseat in seen_seats:
            raise ScenarioError(f"{pid}: duplicate seat {rseat}")
        seen_seats.add(rseat)
        team = raw.get("team")
        if team is not None:
            _int(team, f"{pid}.team", 1)
        zone = raw.get("zone")
        if zone is not None and not isinstance(zone, str):
            raise ScenarioError(f"{pid}: zone must be a zone id")
        if zone is None:
            if not setup_phase:
                raise ScenarioError(f"{pid}: zone is required after turn 1's Tactical phase")
        elif zone not in gmap.index:
            raise ScenarioError(f"{pid}: unknown zone {zone!r}")
        energy = _int(raw.get("energy", cfg["max_energy"]), f"{pid}.energy", 1, cfg["max_energy"])
        coins = _int(raw.get("coins", cfg["budget"] if setup_phase else 0), f"{pid}.coins", 0)
        firearm = raw.get("firearm")
        if firearm is not None and firearm not in cat.FIREARMS:
            raise ScenarioError(f"{pid}: unknown firearm {firearm!r}")
        knife = raw.get("knife")
        if knife is not None and knife not in cat.KNIVES:
            raise ScenarioError(f"{pid}: unknown knife {knife!r}")
        items_raw = _obj(raw.get("items", {}), f"{pid}.items")
        items = {}
        for item, n in items_raw.items():
            if item in cat.FIREARMS or item in cat.KNIVES:
                raise ScenarioError(f"{pid}: weapons go in firearm/knife (one of each)")
            if item not in cat.STACKABLE:
                raise ScenarioError(f"{pid}: unknown item {item!r}")
            if _int(n, f"{pid}.items.{item}", 0) > 0:
                items[item] = n
        options = _list(raw.get("options", []), f"{pid}.options")
        for o in options:
            if o not in cat.OPTIONS:
                raise ScenarioError(f"{pid}: unknown option {o!r}")
        if len(set(options)) != len(options):
            raise ScenarioError(f"{pid}: duplicate option")
        parsed.append(dict(
            rseat=rseat, pid=pid, team=team, zone=zone, energy=energy, coins=coins,
            firearm=firearm, knife=knife, items=dict(sorted(items.items())),
            options=tuple(sorted(options)),
            poison_until=_int(raw.get("poison_until", 0), f"{pid}.poison_until", 0),
            reload_turn=_int(raw.get("reload_turn", 0), f"{pid}.reload_turn", 0),
            approval=_int(raw.get("approval", 0), f"{pid}.approval"),
            persuasion=_int(raw.get("persuasion", cfg["persuasion_start"]),
                            f"{pid}.persuasion", 0, 100)))
    parsed.sort(key=lambda d: d["rseat"])
    players = tuple(Player(seat=i, **d) for i, d in enumerate(parsed))
    mons = []
    taken: set[str] = set()
    for i, raw in enumerate(_list(sc.get("monsters", []), "monsters")):
        raw = _obj(raw, f"monsters[{i}]")
        bad = sorted(set(raw) - MONSTER_KEYS)
        if bad:
            raise ScenarioError(f"monsters[{i}]: unknown field {bad[0]!r}")
        mid = _str(raw.get("id"), f"monsters[{i}].id")
        if not (mid.startswith("m") and mid[1:].isdigit() and int(mid[1:]) >= 1):
            raise ScenarioError(f"monsters[{i}]: id must be m1, m2, ...")
        zone = raw.get("zone")
        if not isinstance(zone, str) or zone not in gmap.index:
            raise ScenarioError(f"{mid}: unknown zone {zone!r}")
        if zone in taken:
            raise ScenarioError(f"{mid}: at most one monster per zone")
        taken.add(zone)
        energy = _int(raw.get("energy"), f"{mid}.energy", 1)
        damage = _int(raw.get("damage", energy), f"{mid}.damage", 0)
        mons.append(Monster(number=int(mid[1:]), zone=zone, energy=energy, damage=damage))
    mons.sort(key=lambda m: m.number)
    if len({m.number for m in mons}) != len(mons):
        raise ScenarioError("duplicate monster id")
    living = len(players)
    if phase == TACTICAL and turn >= 2 and market is None:
        market = draw_regime(cfg, seed, turn)
    if not (phase == TACTICAL and turn >= 2):
        market = None
    state = State(
        config=cfg, map_id=map_id, turn=turn, phase=phase, players=players,
        monsters=tuple(mons), next_monster=max((m.number for m in mons), default=0),
        closed_count=len(closed), smoke=clouds["smoke"], gas=clouds["gas"],
        last_smoked=tuple(z for z in gmap.zones if z in clouds["smoke"]) if phase == TACTICAL
        else (),
        market=market,
        double_damage=phase == ACTION and living <= cfg["double_damage_threshold"],
        stats=empty_stats())
    del closed_set
    return state, seed


def output(state: State) -> dict[str, Any]:
    gmap = state.gmap
    return {
        "turn": state.turn, "phase": state.phase, "over": state.over,
        "winners": [p.pid for p in state.players if p.pid in state.winners],
        "closed": list(gmap.closure_order[:state.closed_count]),
        "players": [{
            "id": p.pid, "alive": p.alive, "zone": p.zone, "energy": p.energy,
            "coins": p.coins, "firearm": p.firearm, "knife": p.knife,
            "items": {k: v for k, v in sorted(p.items.items()) if v > 0},
            "options": list(p.options), "poison_until": p.poison_until,
            "reload_turn": p.reload_turn, "approval": p.approval,
            "persuasion": p.persuasion} for p in state.players],
        "monsters": [{"id": m.mid, "alive": m.alive, "zone": m.zone, "energy": m.energy}
                     for m in state.monsters],
        "error": None, "error_code": None, "error_at": None,
    }


def run(sc: Mapping[str, Any], *, with_events: bool = False) -> dict[str, Any]:
    """Play a scenario; raise :class:`ScenarioError` when it is malformed."""
    state, seed = build_state(sc)
    phases = _list(sc.get("phases", []), "phases")
    events: list[dict[str, Any]] = []
    for i, entry in enumerate(phases):
        entry = _obj(entry, f"phases[{i}]")
        bad = sorted(set(entry) - PHASE_KEYS)
        if bad:
            raise ScenarioError(f"phases[{i}]: unknown field {bad[0]!r}")
        orders = _obj(entry.get("orders", {}), f"phases[{i}].orders")
        checks = _list(entry.get("check", []), f"phases[{i}].check")
        if not state.config["check_enabled"]:
            checks = []  # CHECK mode only: without it pressing CHECK changes nothing
        start = state
        for pid, lst in orders.items():
            p = state.player_by_pid(pid)
            if p is None:
                raise ScenarioError(f"phases[{i}].orders: unknown player {pid!r}")
            for j, order in enumerate(_list(lst, f"phases[{i}].orders.{pid}")):
                try:
                    state = submit(state, p.seat, order).state
                except RulesError as exc:
                    out = output(start)
                    out.update(error=exc.reason, error_code=exc.code, error_at=[i, pid, j])
                    if with_events:
                        out["events"] = events
                    return out
        for pid in checks:
            p = state.player_by_pid(pid)
            if p is None:
                raise ScenarioError(f"phases[{i}].check: unknown player {pid!r}")
            try:
                state = submit(state, p.seat, {"type": "check"}).state
            except RulesError as exc:
                out = output(start)
                out.update(error=exc.reason, error_code=exc.code,
                           error_at=[i, pid, len(orders.get(pid, []))])
                return out
        if state.over:
            continue
        res = resolve(state, seed)
        state = res.state
        if with_events:
            events.extend(e.to_json() for e in res.events)
    out = output(state)
    if with_events:
        out["events"] = events
    return out


def main(argv: list[str] | None = None) -> int:
    try:
        text = sys.stdin.read()
        try:
            sc = json.loads(text)
        except ValueError as exc:
            raise ScenarioError(f"not valid JSON: {exc}") from None
        out = run(sc)
    except ScenarioError as exc:
        print(f"malformed scenario: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback (docs/scenarios.md)
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
