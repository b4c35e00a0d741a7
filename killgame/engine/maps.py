"""Kill Game maps (§20): loading ``data/*.json``, checking the map properties, adjacency.

Maps are loaded once at import and checked: undirected and connected, 2–5 neighbours per zone,
the never-closing zones connected among themselves, and after every closure step the open
zones form one connected region. :class:`GameMap` precomputes adjacency in map listing order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

DATA = Path(__file__).resolve().parent / "data"


class MapError(ValueError):
    """A map file breaks one of the §20 properties."""


@dataclass(frozen=True, slots=True)
class GameMap:
    """A map with precomputed, canonically ordered adjacency."""

    id: str
    name: str
    central: str
    default_start: str
    closure_order: tuple[str, ...]
    never_close: tuple[str, ...]
    #: map listing order: closure order then never-closing zones
    zones: tuple[str, ...]
    names: Mapping[str, str]
    glosses: Mapping[str, str]
    #: zone -> neighbours in map listing order
    adjacent: Mapping[str, tuple[str, ...]]
    index: Mapping[str, int]

    @property
    def lit(self) -> tuple[str, ...]:
        """Startable zones (§6.3): every zone that will eventually close."""
        return self.closure_order

    def closed_set(self, closed_count: int) -> frozenset[str]:
        return frozenset(self.closure_order[:closed_count])

    def is_adjacent(self, a: str, b: str) -> bool:
        return b in self.adjacent.get(a, ())


def _connected(nodes: set[str], adj: Mapping[str, tuple[str, ...]]) -> bool:
    if not nodes:
        return True
    start = next(iter(sorted(nodes)))
    seen = {start}
    todo = [start]
    while todo:
        z = todo.pop()
        for n in adj[z]:
            if n in nodes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == nodes


def build_map(raw: Mapping[str, Any]) -> GameMap:
    """Build and check a map from its JSON form (§20.3); raise MapError when a rule fails."""
    try:
        mid = raw["id"]
        closure = tuple(raw["closure_order"])
        never = tuple(raw["never_close"])
        zones_raw = raw["zones"]
        edges = raw["edges"]
        central = raw["central"]
        default_start = raw["default_start"]
    except (KeyError, TypeError) as exc:
        raise MapError(f"map is missing {exc}") from None
    listing = closure + never
    if len(set(listing)) != len(listing) or set(listing) != set(zones_raw):
        raise MapError(f"{mid}: closure_order + never_close must list every zone once")
    if len(never) != 3:
        raise MapError(f"{mid}: exactly three zones never close")
    nbrs: dict[str, set[str]] = {z: set() for z in listing}
    for e in edges:
        a, b = e
        if a not in nbrs or b not in nbrs or a == b:
            raise MapError(f"{mid}: bad edge {e}")
        nbrs[a].add(b)
        nbrs[b].add(a)
    index = {z: i for i, z in enumerate(listing)}
    adjacent = {z: tuple(sorted(nbrs[z], key=index.__getitem__)) for z in listing}
    for z, n in adjacent.items():
        if not 2 <= len(n) <= 5:
            raise MapError(f"{mid}: {z} has {len(n)} neighbours (2–5 required)")
    if not _connected(set(listing), adjacent):
        raise MapError(f"{mid}: map is not connected")
    if not _connected(set(never), adjacent):
        raise MapError(f"{mid}: never-closing zones are not connected")
    for k in range(1, len(closure) + 1):
        open_zones = set(listing[k:])
        if not _connected(open_zones, adjacent):
            raise MapError(f"{mid}: closing {closure[k - 1]} cuts the open region")
        if not any(n in open_zones for n in adjacent[closure[k - 1]]):
            raise MapError(f"{mid}: {closure[k - 1]} has no open neighbour once closed")
    if central not in never or default_start not in closure:
        raise MapError(f"{mid}: central zone must never close; default start must be lit")
    return GameMap(
        id=mid, name=raw.get("name", mid), central=central, default_start=default_start,
        closure_order=closure, never_close=never, zones=listing,
        names={z: zones_raw[z].get("name", z) for z in listing},
        glosses={z: zones_raw[z].get("gloss", "") for z in listing},
        adjacent=adjacent, index=index,
    )


def _load_all() -> dict[str, GameMap]:
    out = {}
    for path in sorted(DATA.glob("*.json")):
        m = build_map(json.loads(path.read_text(encoding="utf-8")))
        out[m.id] = m
    return out


MAPS: dict[str, GameMap] = _load_all()


def get_map(map_id: str) -> GameMap:
    return MAPS[map_id]


_FROM_DATA: dict[str, GameMap] = {}


def map_from_data(raw: Mapping[str, Any]) -> GameMap:
    """A checked map from its §20.3 JSON form, memoised by content.

    Matches snapshot their map into ``config["map_data"]`` (so an admin-edited map takes
    effect for new matches only); every state of such a match rebuilds the same map, so the
    checked result is kept (bounded cache). Raises :class:`MapError`.
    """
    try:
        key = json.dumps(raw, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise MapError(f"map data is not JSON: {exc}") from None
    found = _FROM_DATA.get(key)
    if found is None:
        try:
            found = build_map(raw)
        except MapError:
            raise
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            raise MapError(f"map data is malformed: {exc}") from None
        if len(_FROM_DATA) >= 64:
            _FROM_DATA.clear()
        _FROM_DATA[key] = found
    return found
