"""Kill Game state (§5): frozen dataclasses for the match, its players, monsters and stored orders.

The state is immutable; :mod:`killgame.engine.resolve` works on mutable mirrors
(:class:`MPlayer`, :class:`MMonster`) and freezes them back, so resolving never deep-copies
the whole tree. Player order in ``State.players`` is rules-seat order (§2.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Mapping

from .maps import GameMap, get_map, map_from_data

PhaseName = str  # "tactical" | "action"
PlayerId = str
TACTICAL = "tactical"
ACTION = "action"


@dataclass(frozen=True, slots=True)
class StoredOrder:
    """An order saved in a slot (§19 "Order slots"); ``seq`` is the match-wide sequence number."""

    slot: str
    seq: int
    order: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Player:
    """One participant. ``seat`` is the framework SeatId, ``rseat`` the rules seat 1..N."""

    seat: int
    rseat: int
    pid: PlayerId
    team: int | None = None
    alive: bool = True
    zone: str | None = None
    energy: int = 25
    coins: int = 0
    firearm: str | None = None
    knife: str | None = None
    items: Mapping[str, int] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    poison_until: int = 0
    reload_turn: int = 0
    approval: int = 0
    persuasion: int = 40
    orders: tuple[StoredOrder, ...] = ()
    checked: bool = False
    bought: int = 0
    died_turn: int = 0

    def count(self, item: str) -> int:
        return self.items.get(item, 0)

    def slot(self, name: str) -> StoredOrder | None:
        for o in self.orders:
            if o.slot == name:
                return o
        return None


@dataclass(frozen=True, slots=True)
class Monster:
    number: int
    zone: str | None
    energy: int
    damage: int
    alive: bool = True

    @property
    def mid(self) -> str:
        return f"m{self.number}"


@dataclass(frozen=True)
class State:
    """The whole match. ``closed_count`` zones of the closure order are closed."""

    config: Mapping[str, Any]
    map_id: str
    turn: int
    phase: PhaseName
    players: tuple[Player, ...]
    monsters: tuple[Monster, ...] = ()
    next_monster: int = 0
    closed_count: int = 0
    smoke: Mapping[str, int] = field(default_factory=dict)
    gas: Mapping[str, int] = field(default_factory=dict)
    #: zones that were smoked during the previous Action phase (§9.2 medkit visibility, rosters)
    last_smoked: tuple[str, ...] = ()
    market: str | None = None
    double_damage: bool = False
    seq: int = 0
    over: bool = False
    winners: tuple[PlayerId, ...] = ()
    #: match statistics for the simulator and the post-game review (never shown during play)
    stats: Mapping[str, Any] = field(default_factory=dict)
    #: the match seed of §0.1 (secret until the end); every stream is keyed on it
    seed: str = ""

    @property
    def gmap(self) -> GameMap:
        """The match's map: the snapshot in ``config["map_data"]`` if any, else the built-in."""
        gm = self.__dict__.get("_gmap")  # per-state cache (not a field)
        if gm is None:
            data = self.config.get("map_data")
            gm = map_from_data(data) if data else get_map(self.map_id)
            object.__setattr__(self, "_gmap", gm)
        return gm

    @property
    def closed(self) -> frozenset[str]:
        closed = self.__dict__.get("_closed")  # per-state cache (not a field)
        if closed is None:
            closed = self.gmap.closed_set(self.closed_count)
            object.__setattr__(self, "_closed", closed)
        return closed

    def _index(self) -> tuple[dict[int, Player], dict[str, Player], dict[str, Monster]]:
        # cached lookups (not a field: equality and dump ignore it)
        idx = self.__dict__.get("_idx")
        if idx is None:
            idx = ({p.seat: p for p in self.players}, {p.pid: p for p in self.players},
                   {m.mid: m for m in self.monsters})
            object.__setattr__(self, "_idx", idx)
        return idx

    def player_by_seat(self, seat: int) -> Player | None:
        return self._index()[0].get(seat)

    def player_by_pid(self, pid: str) -> Player | None:
        return self._index()[1].get(pid)

    def monster_by_id(self, mid: str) -> Monster | None:
        return self._index()[2].get(mid)

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]


PLAYER_FIELDS = tuple(f.name for f in fields(Player))
MONSTER_FIELDS = tuple(f.name for f in fields(Monster))
_GET_PLAYER = attrgetter(*PLAYER_FIELDS)
_ITEMS_AT = PLAYER_FIELDS.index("items")


class MPlayer:
    """Mutable mirror of :class:`Player` used while resolving a phase."""

    __slots__ = PLAYER_FIELDS + ("worn", "pending", "pending_src", "poison_prev", "has_opp",
                                 "attacked", "shout", "fired_reloading")

    # the fields of Player, mutable here (set from PLAYER_FIELDS in __init__; declared for mypy)
    seat: int
    rseat: int
    pid: PlayerId
    team: int | None
    alive: bool
    zone: str | None
    energy: int
    coins: int
    firearm: str | None
    knife: str | None
    items: dict[str, int]
    options: tuple[str, ...]
    poison_until: int
    reload_turn: int
    approval: int
    persuasion: int
    orders: tuple[StoredOrder, ...]
    checked: bool
    bought: int
    died_turn: int

    def __init__(self, p: Player) -> None:
        for name, value in zip(PLAYER_FIELDS, _GET_PLAYER(p)):
            setattr(self, name, value)
        self.items = dict(p.items)
        self.worn: set[str] = set()
        self.pending = 0
        self.pending_src: dict[str, int] = {}
        self.poison_prev = p.poison_until
        self.has_opp = False
        self.attacked = False
        self.shout: bool | None = None
        self.fired_reloading = False

    def freeze(self) -> Player:
        vals = list(_GET_PLAYER(self))
        vals[_ITEMS_AT] = dict(sorted((k, v) for k, v in self.items.items() if v > 0))
        return Player(*vals)

    def count(self, item: str) -> int:
        return self.items.get(item, 0)

    def take(self, item: str, n: int = 1) -> None:
        left = self.items.get(item, 0) - n
        if left > 0:
            self.items[item] = left
        else:
            self.items.pop(item, None)

    def give(self, item: str, n: int = 1) -> None:
        self.items[item] = self.items.get(item, 0) + n


class MMonster:
    """Mutable mirror of :class:`Monster`."""

    __slots__ = MONSTER_FIELDS + ("pending", "died_now")

    # the fields of Monster, mutable here (declared for mypy)
    number: int
    zone: str | None
    energy: int
    damage: int
    alive: bool

    def __init__(self, m: Monster) -> None:
        for name in MONSTER_FIELDS:
            setattr(self, name, getattr(m, name))
        self.pending = 0
        self.died_now = False

    @property
    def mid(self) -> str:
        return f"m{self.number}"

    def freeze(self) -> Monster:
        return Monster(**{name: getattr(self, name) for name in MONSTER_FIELDS})


def sides_of(config: Mapping[str, Any], players: Any) -> dict[Any, list[Any]]:
    """Side key -> members (§0 "Side"): the player id in FFA, the team/district otherwise."""
    out: dict[Any, list[Any]] = {}
    for p in players:
        key = p.pid if config["mode"] == "ffa" or p.team is None else p.team
        out.setdefault(key, []).append(p)
    return out


def are_allies(config: Mapping[str, Any], a: Any, b: Any) -> bool:
    """Teammates or district partners (never in FFA)."""
    return (config["mode"] != "ffa" and a.team is not None and a.team == b.team
            and a.pid != b.pid)
