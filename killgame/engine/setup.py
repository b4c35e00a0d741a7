"""Match setup (§2): seat shuffle, team/district balancing, the opening state.

Shopping, start zones and monsters happen when turn 1's Tactical phase closes
(:mod:`killgame.engine.resolve`, §16.1 step 2).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from games.rules import InvalidConfig, T

from .config import validate_config
from .rng import sample, stream
from .state import TACTICAL, Player, State


def team_for(config: Mapping[str, Any], rseat: int, n_players: int) -> int | None:
    """§2.3: team ``((s - 1) mod team_count) + 1``; districts pair seats (1,2), (3,4)…"""
    mode = config["mode"]
    if mode == "teams":
        team: int = (rseat - 1) % config["team_count"] + 1
        return team
    if mode == "districts":
        return (rseat + 1) // 2
    return None


def setup(config: Mapping[str, Any], seats: Sequence[int], seed: str) -> State:
    """The opening state: turn 1's Tactical phase, players shuffled into rules seats.

    ``seats`` are the framework SeatIds in user-id order; ``sample(list, N)`` on stream
    ``"{seed}|0|setup|seats"`` gives the i-th drawn seat the rules seat i (§2.4).
    """
    cfg = validate_config(config)
    seats = list(seats)
    if len(set(seats)) != len(seats) or not seats:
        raise InvalidConfig(T("Seats must be distinct and at least one."), field="seats")
    drawn = sample(stream(seed, 0, "setup", "seats"), seats, len(seats))
    n = len(drawn)
    players = tuple(
        Player(seat=seat, rseat=i, pid=f"p{seat}", team=team_for(cfg, i, n),
               energy=cfg["max_energy"], coins=cfg["budget"],
               persuasion=cfg["persuasion_start"])
        for i, seat in enumerate(drawn, start=1)
    )
    return State(config=cfg, map_id=cfg["map"], turn=1, phase=TACTICAL, players=players,
                 stats=empty_stats(), seed=seed)


def empty_stats() -> dict[str, Any]:
    return {"damage": {}, "deaths": {}, "rewards": 0, "punishments": 0}
