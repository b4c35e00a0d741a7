"""The market (§14): regime draw, buy and sell prices per regime.

Buying and selling are executed immediately by :func:`killgame.engine.orders.submit`; this
module only knows prices and regimes.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import catalogue as cat
from .rng import stream


def draw_regime(config: Mapping[str, Any], seed: str, turn: int) -> str:
    """Regime of turn ``turn``'s Tactical phase: stream ``"{seed}|{turn}|T|market"``.

    With the default weights 8/17/50/25 this is exactly ``roll = randrange(100)`` bucketed
    0–7 / 8–24 / 25–74 / 75–99.
    """
    rng = stream(seed, turn, "T", "market")
    weights = config["market_regime_weights"]
    return regime_for_roll(weights, rng.randrange(sum(weights)))


def regime_for_roll(weights: list[int], roll: int) -> str:
    """The regime a roll falls in (§14 table: 0–7, 8–24, 25–74, 75–99 by default)."""
    acc = 0
    for regime, w in zip(cat.REGIMES, weights):
        acc += w
        if roll < acc:
            return regime
    raise ValueError(f"roll {roll} is outside the weights")


def buy_price(config: Mapping[str, Any], regime: str, item: str) -> int:
    base = int(config["prices"][item])
    firearm = item in cat.FIREARMS
    if regime == "discounted":
        return base * 70 // 100
    if regime == "unchanged":
        return base
    if regime == "raised":
        return base + 100 if firearm else base * 110 // 100
    if regime == "crazy":
        return base + 150 if firearm else base * 130 // 100
    raise ValueError(regime)


def sell_price(config: Mapping[str, Any], item: str) -> int:
    return int(config["prices"][item]) * int(config["sell_pct"]) // 100


def sellable(item: str) -> bool:
    return item not in cat.OPTIONS and item not in (cat.FISTS, "k_ration")


def price_list(config: Mapping[str, Any], regime: str) -> dict[str, dict[str, int | None]]:
    """Buy and sell price of every catalogue item under ``regime`` (for views)."""
    out: dict[str, dict[str, int | None]] = {}
    for item in cat.CATALOGUE:
        if item == "k_ration" and not config["k_rations_enabled"]:
            continue
        out[item] = {"buy": buy_price(config, regime, item),
                     "sell": sell_price(config, item) if sellable(item) else None}
    return out
