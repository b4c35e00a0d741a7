"""Pure match simulation with bots: play a whole match and summarise it.

:func:`simulate` sets a match up, lets every living seat play :func:`bot_orders` (from its
player view) in every phase, resolves, and returns turns played, winners, deaths by cause,
damage by source and the rewards/punishments given. A safety ``max_turns`` (default 80) is
set when the config has none, so every match ends (bots that never meet could otherwise
roam the final zones for ever).
"""

from __future__ import annotations

from typing import Any, Mapping

from .bot import bot_orders
from .orders import submit
from .resolve import resolve
from .setup import setup
from .view import player_view
from .errors import KillGameOrderError

SAFETY_MAX_TURNS = 80


def simulate(players: int = 30, *, config: Mapping[str, Any] | None = None,
             seed: str = "sim") -> dict[str, Any]:
    """Play a whole match with bots; return a JSON summary."""
    cfg = dict(config or {})
    # registration limits are the framework's business: make them fit the simulated table
    low = 2 * int(cfg.get("team_count", 2)) if cfg.get("mode") == "teams" else 2
    cfg["min_players"] = low
    cfg["max_players"] = max(players, low)
    if not cfg.get("max_turns"):
        cfg["max_turns"] = SAFETY_MAX_TURNS
    state = setup(cfg, list(range(players)), seed)
    refused = 0
    accepted = 0
    phases = 0
    while not state.over:
        for p in state.players:
            if not p.alive:
                continue
            for o in bot_orders(player_view(state, p.seat), seed):
                try:
                    state = submit(state, p.seat, o).state
                    accepted += 1
                except KillGameOrderError:
                    refused += 1
        state = resolve(state, seed).state
        phases += 1
    st = state.stats
    return {
        "players": players, "map": state.map_id, "mode": state.config["mode"],
        "seed": seed, "turns": state.turn, "phases": phases,
        "winners": list(state.winners),
        "survivors": [p.pid for p in state.players if p.alive],
        "deaths_by_cause": dict(sorted(st["deaths"].items())),
        "damage_by_source": dict(sorted(st["damage"].items())),
        "rewards": st["rewards"], "punishments": st["punishments"],
        "orders_accepted": accepted, "orders_refused": refused,
        "monsters_created": state.next_monster,
    }
