"""Kill Game services: a map's §20.3 JSON form from the admin tables, the map checks on save
(the engine's own ``build_map``), the match config built from the database (map and price
snapshots, so admin edits take effect for new matches only), the default schedule, and a
deterministic layout for maps whose zones have no positions.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any, Mapping

from games.rules import InvalidConfig, T
from killgame.engine.maps import DATA, MapError, build_map
from killgame.models import Edge, GameMap, Item, Zone

# Msgs: said in the reader's language where the config error is shown
MAP_UNKNOWN = T("There is no map called %(slug)s.")
MAP_INVALID = T("The map %(slug)s fails the map checks: %(error)s")


def map_data(game_map: GameMap) -> dict[str, Any]:
    """The map in the engine's §20.3 JSON form (zones in closure order, then the never-closing
    ones; ``x``/``y`` kept for drawing). Raises :class:`MapError` when a role is missing."""
    zones = list(Zone.objects.filter(game_map=game_map).order_by("closes_at", "id"))
    closing = sorted((z for z in zones if z.closes_at is not None), key=lambda z: z.closes_at)
    never = [z for z in zones if z.closes_at is None]
    central = [z.slug for z in zones if z.is_central]
    start = [z.slug for z in zones if z.is_default_start]
    if len(central) != 1:
        raise MapError(f"{game_map.slug}: mark exactly one central zone ({len(central)} marked)")
    if len(start) != 1:
        raise MapError(f"{game_map.slug}: mark exactly one default start zone "
                       f"({len(start)} marked)")
    edges = [[e.a.slug, e.b.slug] for e in
             Edge.objects.filter(game_map=game_map).select_related("a", "b").order_by("id")]
    for e in Edge.objects.filter(game_map=game_map).exclude(a__game_map=game_map):
        raise MapError(f"{game_map.slug}: link {e} uses a zone of another map")
    zone_json: dict[str, dict[str, Any]] = {}
    for z in closing + never:
        entry: dict[str, Any] = {"name": z.name, "gloss": z.gloss}
        if z.x is not None and z.y is not None:
            entry["x"], entry["y"] = z.x, z.y
        zone_json[z.slug] = entry
    return {"id": game_map.slug, "name": game_map.name, "central": central[0],
            "default_start": start[0], "closure_order": [z.slug for z in closing],
            "never_close": [z.slug for z in never], "zones": zone_json, "edges": edges}


def map_check(game_map: GameMap) -> str:
    """Run the engine's §20 checks on the map as saved; store and return the error ("" when
    the map is valid). Called by the admin after the zones and links are saved."""
    try:
        build_map(map_data(game_map))
        error = ""
    except MapError as exc:
        error = str(exc)
    except (TypeError, ValueError, KeyError) as exc:
        error = f"{game_map.slug}: {exc}"
    if error != game_map.check_error:
        GameMap.objects.filter(pk=game_map.pk).update(check_error=error)
        game_map.check_error = error
    return error


def prices() -> dict[str, int]:
    """Base prices from the catalogue table (§7.5)."""
    return {i.slug: int(i.price) for i in Item.objects.all()}


def config_build(config: Mapping[str, Any]) -> dict[str, Any]:
    """The raw config with the map and the prices snapshotted from the database.

    ``config["map"]`` names a :class:`GameMap`; its data goes to ``map_data``. Prices the
    caller did not set come from the :class:`Item` table. A config that already carries
    ``map_data`` (a copy of another match's) is left as it is. Raises
    :class:`games.rules.InvalidConfig` for an unknown or invalid map; everything else is
    checked by the engine's ``validate_config``.
    """
    out = dict(config)
    if not out.get("map_data"):
        slug = out.get("map") or "classic"
        game_map = GameMap.objects.filter(slug=slug).first()
        if game_map is None and slug in BUILTIN_MAPS:
            # the two rules maps are always playable, even with the table emptied
            data = builtin_map_data(slug)
        elif game_map is None:
            raise InvalidConfig(MAP_UNKNOWN.fill(slug=repr(slug)), field="map")
        else:
            try:
                data = map_data(game_map)
                build_map(data)
            except MapError as exc:
                raise InvalidConfig(MAP_INVALID.fill(slug=repr(slug), error=str(exc)),
                                    field="map") from None
        out["map"], out["map_data"] = slug, data
    table = prices()
    given = out.get("prices") if isinstance(out.get("prices"), Mapping) else {}
    if table:
        from killgame.engine import catalogue

        merged = {k: v for k, v in table.items() if k in catalogue.DEFAULT_PRICES}
        # an explicit price the caller changed from the rules default wins over the table
        for k, v in (given or {}).items():
            if catalogue.DEFAULT_PRICES.get(k) != v or k not in merged:
                merged[k] = v
        out["prices"] = merged
    return out


#: the §20 maps shipped with the engine, and their places in the §20 layout sketches
BUILTIN_MAPS = ("classic", "inferno")
BUILTIN_GRID: dict[str, dict[str, tuple[float, float]]] = {
    "classic": {
        "cimitero_del_vampire": (0, 0), "foresta_del_nord": (1, 0), "grotta": (2, 0),
        "ponte_ovest": (0, 1), "boschetto": (1, 1), "sentiero": (2, 1), "vecchio_granaio": (3, 1),
        "ruderi": (0, 2), "balle_di_paglia": (1, 2), "paese": (2, 2), "depositi": (3, 2),
        "sede_cubota": (0, 3), "campi": (1, 3), "strada": (2, 3), "ponte_est": (3, 3),
        "bar_pino": (4, 3), "landa_del_sud": (1, 4), "ingresso": (2, 4), "grandi_pianure": (3, 4)},
    "inferno": {
        "cave_nord_ovest": (0, 0), "er_cristallo": (1, 0), "ceppo": (2, 0),
        "ponte_nord_est": (3, 0), "cave_nord_est": (4, 0), "ponte_ovest": (0, 1),
        "pietra_c": (1, 1), "cerchio_cy": (2, 1), "pietra_y": (3, 1), "fallo_di_pietra": (4, 1),
        "cave_sud_ovest": (0, 2), "foresta_rossa": (1.5, 2), "ponte_sud_est": (3, 2),
        "cave_sud_est": (4, 2)},
}
BUILTIN_ITEMS: list[tuple[str, str, str, str, int]] = [
    ("sniper_rifle", "Sniper rifle (PSG)", "Fucile di precisione", "firearm", 200),
    ("machine_gun", "Machine gun", "Mitragliatrice", "firearm", 300),
    ("shotgun", "Shotgun", "Fucile a pompa", "firearm", 300),
    ("poison_crossbow", "Poisoned crossbow", "Balestra avvelenata", "firearm", 250),
    ("flamethrower", "Flamethrower", "Lanciafiamme", "firearm", 350),
    ("small_knife", "Small knife", "Coltellino", "knife", 50),
    ("ninja_knife", "Ninja knife", "Coltello ninja", "knife", 100),
    ("rambo_knife", "Rambo knife", "Coltello di Rambo", "knife", 150),
    ("grenade", "Grenade", "Granata", "explosive", 60),
    ("c4", "C4", "C4", "explosive", 80),
    ("smoke_grenade", "Smoke grenade", "Fumogeno", "explosive", 40),
    ("gas_canister", "Gas canister", "Bombola di gas", "explosive", 50),
    ("medkit", "Medkit", "Medikit", "item", 70),
    ("vest", "Protective vest", "Giubbotto", "item", 50),
    ("gas_mask", "Gas mask", "Maschera antigas", "item", 30),
    ("antidote", "Antidote", "Antidoto", "item", 30),
    ("amulet", "Amulet", "Amuleto", "item", 40),
    ("k_ration", "K-ration", "Razione K", "item", 10),
    ("reinforced_vests", "Reinforced vests (option)", "Giubbotti rinforzati", "option", 150),
    ("gas_launcher", "Gas launcher (option)", "Lanciagas", "option", 100),
]


def builtin_map_data(slug: str) -> dict[str, Any]:
    """A shipped map's §20.3 JSON (``killgame/engine/data``) with its sketch positions."""
    raw = json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8"))
    for zid, info in raw["zones"].items():
        col, row = BUILTIN_GRID[slug][zid]
        info["x"], info["y"] = 10 + col * 20, 10 + row * 20
    return dict(raw)


def builtin_tables_load() -> int:
    """Create the shipped maps and catalogue rows that are missing (idempotent; what the data
    migration did, for a database whose tables were emptied). Returns the rows created."""
    created = 0
    for slug in BUILTIN_MAPS:
        if GameMap.objects.filter(slug=slug).exists():
            continue
        raw = builtin_map_data(slug)
        gmap = GameMap.objects.create(slug=slug, name=raw.get("name", slug))
        closing = {z: i for i, z in enumerate(raw["closure_order"], start=1)}
        zones = {}
        for zid in raw["closure_order"] + raw["never_close"]:
            info = raw["zones"][zid]
            zones[zid] = Zone.objects.create(
                game_map=gmap, slug=zid, name=info.get("name", zid), gloss=info.get("gloss", ""),
                closes_at=closing.get(zid), is_central=zid == raw["central"],
                is_default_start=zid == raw["default_start"], x=info["x"], y=info["y"])
        for a, b in raw["edges"]:
            Edge.objects.create(game_map=gmap, a=zones[a], b=zones[b])
        created += 1
    for i, (slug, name, name_it, category, price) in enumerate(BUILTIN_ITEMS):
        _, made = Item.objects.get_or_create(slug=slug, defaults={
            "name": name, "name_it": name_it, "category": category, "price": price,
            "position": i})
        created += int(made)
    return created


def describe_context(match: Any) -> dict[str, Any]:
    """What diary sentences need from the match: its map's zone names (``zones``), so a map
    an admin made reads "Old Mill", not its id."""
    zones = ((match.config or {}).get("map_data") or {}).get("zones") or {}
    return {"zones": {z: str(info.get("name") or z) for z, info in zones.items()
                      if isinstance(info, Mapping)}}


def default_schedule(config: Mapping[str, Any]) -> dict[str, Any]:
    """§4.1: Tactical 13:00–21:30 and Action 21:30–13:00 in the match time zone, or CHECK
    mode (each phase opens at once, at most ``check_phase_max_hours``)."""
    out: dict[str, Any] = {"mode": "windows",
                           "windows": {"tactical": config.get("tactical_opens_at", "13:00"),
                                       "action": config.get("action_opens_at", "21:30")},
                           "check_max_hours": int(config.get("check_phase_max_hours", 24))}
    return out


# --- drawing ----------------------------------------------------------------------------

def layout(zones: list[str], adjacent: Mapping[str, list[str]],
           given: Mapping[str, tuple[float, float]] | None = None) -> dict[str, tuple[float, float]]:
    """Positions (0–100) for every zone: the given ones when every zone has one, else a
    deterministic force-directed layout from the links (same map → same picture).

    Start on a circle in listing order, then 200 Fruchterman–Reingold steps with a cooling
    temperature; no randomness, so the drawing never moves between page loads. The result
    depends on the map alone, so it is memoised (a storm of phase emails draws the same
    map thousands of times; each drawing costs ~0.1 s of CPU).
    """
    given = given or {}
    if zones and all(z in given for z in zones):
        return {z: given[z] for z in zones}
    links = tuple((z, tuple(adjacent.get(z, []))) for z in zones)
    return dict(_force_layout(tuple(zones), links))


@lru_cache(maxsize=64)
def _force_layout(zones_t: tuple[str, ...], links: tuple[tuple[str, tuple[str, ...]], ...]
                  ) -> dict[str, tuple[float, float]]:
    zones = list(zones_t)
    adjacent = {z: list(bs) for z, bs in links}
    n = len(zones)
    if n == 0:
        return {}
    pos = {z: [50 + 40 * math.cos(2 * math.pi * i / n), 50 + 40 * math.sin(2 * math.pi * i / n)]
           for i, z in enumerate(zones)}
    k = math.sqrt(100 * 100 / n) * 0.8
    temp = 10.0
    for _ in range(200):
        disp = {z: [0.0, 0.0] for z in zones}
        for i, a in enumerate(zones):
            for b in zones[i + 1:]:
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                d = math.hypot(dx, dy) or 0.01
                f = k * k / d
                disp[a][0] += dx / d * f
                disp[a][1] += dy / d * f
                disp[b][0] -= dx / d * f
                disp[b][1] -= dy / d * f
        for a in zones:
            for b in adjacent.get(a, []):
                if b not in pos or a >= b:
                    continue
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                d = math.hypot(dx, dy) or 0.01
                f = d * d / k
                disp[a][0] -= dx / d * f
                disp[a][1] -= dy / d * f
                disp[b][0] += dx / d * f
                disp[b][1] += dy / d * f
        for z in zones:
            dx, dy = disp[z]
            d = math.hypot(dx, dy) or 0.01
            pos[z][0] = min(95.0, max(5.0, pos[z][0] + dx / d * min(d, temp)))
            pos[z][1] = min(95.0, max(5.0, pos[z][1] + dy / d * min(d, temp)))
        temp = max(0.5, temp * 0.98)
    return {z: (round(p[0], 1), round(p[1], 1)) for z, p in pos.items()}
