"""A sealed-bid auction: the fourth game's rules, pure (no Django, seeded randomness only).

Each player starts with ``budget`` coins. The lots come one a round, each with a value
drawn from the seed and shown to everyone; every player bids secretly (0 up to their
coins). At the close the highest bid wins the lot and pays it (equal bids: the lower
seat); every bid is revealed. After ``lots`` rounds a player's score is the value of the
lots they won plus the coins they kept; the best score wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from games.rules import (ConfigField, Event, IllegalOrder, InvalidConfig, InvalidOrder, Outcome,
                         PhaseSpec, Resolution, Submitted)

SLUG = "auction"
NAME = "Sealed-Bid Auction"
MIN_SEATS = 2
MAX_SEATS = 8


@dataclass(frozen=True, slots=True)
class State:
    seats: tuple[int, ...]
    values: tuple[int, ...]                    # each lot's value, public
    coins: tuple[int, ...]                     # per seat, in seat order
    won: tuple[int, ...]                       # value of the lots each seat won
    lot: int = 0                               # the lot on sale (index into values)
    bids: tuple[tuple[int, int], ...] = ()     # (seat, bid) sealed this round


def config_schema() -> list[ConfigField]:
    return [ConfigField("lots", "int", 3, label="Lots", min=1, max=10),
            ConfigField("budget", "int", 100, label="Coins each", min=1, max=1000)]


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {f.key: f.default for f in config_schema()}
    for key, value in config.items():
        if key not in out:
            raise InvalidConfig(f"Unknown setting {key!r}.", field=key)
        out[key] = value
    for spec in config_schema():
        value = out[spec.key]
        if (not isinstance(value, int) or isinstance(value, bool)
                or not (spec.min or 0) <= value <= (spec.max or value)):
            raise InvalidConfig(f"{spec.label} must be a whole number from {spec.min} to "
                                f"{spec.max}.", field=spec.key)
    return out


def setup(config: Mapping[str, Any], seats: Sequence[int], seed: str) -> State:
    cfg = validate_config(config)
    rng = random.Random(f"{seed}|lots")
    return State(seats=tuple(seats), values=tuple(rng.randint(10, 60) for _ in range(cfg["lots"])),
                 coins=tuple(cfg["budget"] for _ in seats), won=tuple(0 for _ in seats))


def _over(state: State) -> bool:
    return state.lot >= len(state.values)


def current_phase(state: State) -> PhaseSpec | None:
    if _over(state):
        return None
    return PhaseSpec(kind="bid", awaited=frozenset(state.seats), turn=state.lot + 1,
                     default_text="No bid: you bid 0.")


def _check(state: State, seat: int, order: Mapping[str, Any]) -> int:
    if _over(state):
        raise IllegalOrder("The auction is over.", code="MATCH_OVER")
    if seat not in state.seats:
        raise IllegalOrder("You have no seat in this match.", code="NOT_A_PARTICIPANT")
    bid = order.get("bid") if set(order) == {"bid"} else None
    if not isinstance(bid, int) or isinstance(bid, bool):
        raise InvalidOrder('An order is {"bid": a whole number of coins}.', field="bid")
    coins = state.coins[state.seats.index(seat)]
    if not 0 <= bid <= coins:
        raise IllegalOrder(f"Bid from 0 to your {coins} coins.", code="OUT_OF_RANGE",
                           field="bid")
    return bid


def validate_order(state: State, seat: int, order: Mapping[str, Any]) -> None:
    _check(state, seat, order)


def submit(state: State, seat: int, order: Mapping[str, Any]) -> Submitted:
    bid = _check(state, seat, order)
    bids = tuple(b for b in state.bids if b[0] != seat) + ((seat, bid),)
    return Submitted(state=replace(state, bids=bids),
                     events=(Event("bid_sealed", {"bid": bid}, frozenset({seat})),))


def default_orders(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"bid": 0}]


def bot_orders(state: State, seat: int, seed: str) -> list[dict[str, Any]]:
    coins = state.coins[state.seats.index(seat)]
    value = state.values[state.lot]
    return [{"bid": min(coins, random.Random(f"{seed}|{state.lot}|{seat}").randint(0, value))}]


def resolve(state: State, seed: str) -> Resolution:
    bids = dict(state.bids)
    events = [Event("bid_revealed", {"seat": s, "bid": bids.get(s, 0)}) for s in state.seats]
    top = max(bids.values(), default=0)
    winner = min((s for s, b in bids.items() if b == top), default=None) if top > 0 else None
    coins, won = list(state.coins), list(state.won)
    value = state.values[state.lot]
    if winner is not None:
        i = state.seats.index(winner)
        coins[i] -= top
        won[i] += value
    events.append(Event("lot_sold", {"lot": state.lot + 1, "value": value, "seat": winner,
                                     "price": top if winner is not None else 0}))
    new = replace(state, coins=tuple(coins), won=tuple(won), lot=state.lot + 1, bids=())
    if _over(new):
        events.append(Event("auction_over", {"scores": _scores(new)}))
    return Resolution(state=new, events=tuple(events))


def _scores(state: State) -> dict[str, int]:
    return {str(s): c + w for s, c, w in zip(state.seats, state.coins, state.won)}


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    i = state.seats.index(seat) if seat in state.seats else None
    return {"lot": min(state.lot + 1, len(state.values)), "lots": len(state.values),
            "value": state.values[state.lot] if not _over(state) else None,
            "over": _over(state), "coins": state.coins[i] if i is not None else None,
            "my_bid": next((b for s, b in state.bids if s == seat), None),
            "scores": _scores(state) if _over(state) else None}


def omniscient_view(state: State) -> dict[str, Any]:
    return {**player_view(state, None), "bids": {str(s): b for s, b in state.bids},
            "coins_by_seat": {str(s): c for s, c in zip(state.seats, state.coins)}}


def outcome(state: State) -> Outcome | None:
    if not _over(state):
        return None
    scores = {s: c + w for s, c, w in zip(state.seats, state.coins, state.won)}
    best = max(scores.values())
    return Outcome(winners=frozenset(s for s, v in scores.items() if v == best),
                   summary=f"Best score {best}.", scores=scores)


def dump(state: State) -> dict[str, Any]:
    return {"seats": list(state.seats), "values": list(state.values),
            "coins": list(state.coins), "won": list(state.won), "lot": state.lot,
            "bids": [list(b) for b in state.bids]}


def load(raw: Mapping[str, Any]) -> State:
    return State(seats=tuple(raw["seats"]), values=tuple(raw["values"]),
                 coins=tuple(raw["coins"]), won=tuple(raw["won"]), lot=raw["lot"],
                 bids=tuple((a, b) for a, b in raw["bids"]))


def describe(event: Event, viewer: int | None, lang: str = "en",
             names: Mapping[int, str] | None = None) -> str:
    d = event.data

    def who(seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return "you" if seat == viewer else (names or {}).get(seat, f"seat {seat}")

    if event.kind == "bid_sealed":
        return f"You sealed a bid of {d['bid']}."
    if event.kind == "bid_revealed":
        return f"{who(d['seat'])} bid {d['bid']}."
    if event.kind == "lot_sold":
        if d["seat"] is None:
            return f"Lot {d['lot']} (worth {d['value']}) went unsold."
        return f"Lot {d['lot']} (worth {d['value']}) went to {who(d['seat'])} for {d['price']}."
    if event.kind == "auction_over":
        return "The auction is over."
    return event.kind
