"""The working context of one phase close: mutable mirrors of players and monsters, the
random streams, the events emitted so far, pending damage, death and victory checks (§17).

Only :mod:`killgame.engine.resolve` and its step modules (combat, monsters, approval) use it;
:meth:`Ctx.freeze` turns it back into an immutable :class:`State`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

from games.rules import Event

from .rng import Streams
from .state import MMonster, MPlayer, State, are_allies, sides_of


class Ctx:
    def __init__(self, state: State, seed: str, phase_code: str) -> None:
        self.state = state
        self.cfg = state.config
        self.gmap = state.gmap
        self.turn = state.turn
        self.seed = seed
        self.rng = Streams(seed, state.turn, phase_code)
        self.players = [MPlayer(p) for p in state.players]
        self.by_pid = {p.pid: p for p in self.players}
        self.monsters = [MMonster(m) for m in state.monsters]
        self.by_mid = {m.mid: m for m in self.monsters}
        self.next_monster = state.next_monster
        self.closed_count = state.closed_count
        self.closed = set(state.closed)
        self.smoke = dict(state.smoke)
        self.gas = dict(state.gas)
        self.last_smoked = state.last_smoked
        self.double_damage = state.double_damage
        self.market = state.market
        self.over = state.over
        self.winners = state.winners
        st = state.stats or {}
        self.stats: dict[str, Any] = {
            "damage": dict(st.get("damage", {})), "deaths": dict(st.get("deaths", {})),
            "rewards": st.get("rewards", 0), "punishments": st.get("punishments", 0)}
        self.events: list[Event] = []
        self._solo: dict[int, frozenset[int]] = {}
        self.died_now: list[MPlayer] = []
        self.monsters_died_now: list[MMonster] = []
        #: zone -> seats that see events there (living players at the start of the close)
        self.occupants: dict[str, frozenset[int]] = {}
        #: zones whose events are hidden by smoke during this close
        self.smoked_now: frozenset[str] = frozenset()

    # -- events -------------------------------------------------------------------------
    def emit(self, kind: str, data: dict[str, Any], seats: Iterable[int] | None) -> None:
        if seats is not None and not isinstance(seats, frozenset):
            seats = frozenset(seats)
        self.events.append(Event(kind, data, seats))

    def me(self, p: MPlayer, kind: str, data: dict[str, Any]) -> None:
        """A private event of ``p`` (§18.1)."""
        data.setdefault("player", p.pid)
        solo = self._solo.get(p.seat)
        if solo is None:
            solo = self._solo[p.seat] = frozenset((p.seat,))
        self.events.append(Event(kind, data, solo))

    # -- queries ------------------------------------------------------------------------
    def living_players(self) -> list[MPlayer]:
        return [p for p in self.players if p.alive]

    def zone_open(self, zone: str) -> bool:
        return zone not in self.closed

    def compute_occupants(self) -> None:
        occ: dict[str, set[int]] = {}
        for p in self.players:
            if p.alive and p.zone is not None:
                occ.setdefault(p.zone, set()).add(p.seat)
        self.occupants = {z: frozenset(s) for z, s in occ.items()}

    def allies(self, a: MPlayer, b: MPlayer) -> bool:
        return are_allies(self.cfg, a, b)

    # -- damage -------------------------------------------------------------------------
    def hurt(self, target: MPlayer | MMonster, amount: int, source: str) -> None:
        """Add pending damage (§11.1 step 4), applied at once by :meth:`apply_pending`."""
        target.pending += amount
        if isinstance(target, MPlayer):
            target.pending_src[source] = target.pending_src.get(source, 0) + amount
        self._count(source, amount)

    def lose(self, p: MPlayer, amount: int, source: str) -> None:
        """Immediate energy loss (monster, poison, starvation, penalties)."""
        if amount <= 0:
            return
        p.energy -= amount
        p.pending_src[source] = p.pending_src.get(source, 0) + amount
        self._count(source, amount)

    def _count(self, source: str, amount: int) -> None:
        if amount > 0:
            dmg = self.stats["damage"]
            dmg[source] = dmg.get(source, 0) + amount

    def apply_pending(self) -> None:
        for p in self.players:
            if p.pending:
                p.energy -= p.pending
                p.pending = 0
        for m in self.monsters:
            if m.pending:
                m.energy -= m.pending
                m.pending = 0

    # -- death and victory (§17) ------------------------------------------------------------
    def side_key(self, p: MPlayer) -> Any:
        return p.pid if self.cfg["mode"] == "ffa" or p.team is None else p.team

    def death_check(self) -> bool:
        """Kill every entity at energy ≤ 0, then run the victory check; True when over."""
        if self.over:
            return True
        before = {self.side_key(p) for p in self.players if p.alive}
        for p in self.players:
            if p.alive and p.energy <= 0:
                self._kill_player(p)
        for m in self.monsters:
            if m.alive and m.energy <= 0:
                zone = m.zone
                m.alive = False
                m.energy = 0
                m.zone = None
                m.died_now = True
                self.monsters_died_now.append(m)
                if zone is not None and zone not in self.smoked_now:
                    seats = self.occupants.get(zone, frozenset())
                    if seats:
                        self.emit("monster_killed", {"zone": zone}, seats)
        for p in self.players:
            if p.pending_src:
                p.pending_src = {}
        after = {self.side_key(p) for p in self.players if p.alive}
        if len(after) <= 1:
            win = after if after else before
            self.finish_match(win)
            return True
        return False

    def finish_match(self, win_sides: set[Any]) -> None:
        self.over = True
        self.winners = tuple(p.pid for p in self.players if self.side_key(p) in win_sides)
        self.emit("match_over", {"winners": list(self.winners), "turn": self.turn}, None)

    def _kill_player(self, p: MPlayer) -> None:
        zone = p.zone
        cause = max(p.pending_src.items(), key=lambda kv: kv[1])[0] if p.pending_src else "unknown"
        deaths = self.stats["deaths"]
        deaths[cause] = deaths.get(cause, 0) + 1
        p.alive = False
        p.energy = 0
        p.zone = None
        p.items = {}
        p.firearm = None
        p.knife = None
        p.options = ()
        p.coins = 0
        p.orders = ()
        p.died_turn = self.turn
        self.died_now.append(p)
        self.me(p, "you_died", {"turn": self.turn})
        if zone is not None and zone not in self.smoked_now:
            seats = self.occupants.get(zone, frozenset()) - {p.seat}
            if seats:
                self.emit("player_died", {"player": p.pid, "zone": zone}, seats)

    # -- output -------------------------------------------------------------------------
    def freeze(self, **changes: Any) -> State:
        players = tuple(p.freeze() for p in self.players)
        monsters = tuple(m.freeze() for m in self.monsters)
        smoke = {z: self.smoke[z] for z in self.gmap.zones if z in self.smoke}
        gas = {z: self.gas[z] for z in self.gmap.zones if z in self.gas}
        return replace(self.state, players=players, monsters=monsters,
                       next_monster=self.next_monster, closed_count=self.closed_count,
                       smoke=smoke, gas=gas, last_smoked=self.last_smoked,
                       double_damage=self.double_damage, market=self.market,
                       over=self.over, winners=self.winners, stats=self.stats, **changes)


def sides_living(state: State) -> int:
    return len(sides_of(state.config, [p for p in state.players if p.alive]))
