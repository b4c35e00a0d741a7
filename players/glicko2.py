"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): pure arithmetic, no Django.

A rating period is one finished match: each player's results against the others in it
(1 win, 0.5 draw, 0 loss) update rating, deviation and volatility together. Multi-player
games are turned into pairwise results by the caller (:mod:`players.ratings`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how fast volatility may change
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True, slots=True)
class Result:
    """One game against ``opponent`` (as rated before the period) scoring ``score``."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results``."""
    results = list(results)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, DEFAULT_RD), sigma)
    v_inv = 0.0
    total = 0.0
    for res in results:
        mu_j = (res.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = res.opponent.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (res.score - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma_new = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new)


def placement_results(places: dict[int, int]) -> dict[int, list[tuple[int, float]]]:
    """Pairwise scores from a placement (lower place = better; equal places draw).

    ``{player: place}`` → ``{player: [(opponent, score), ...]}`` over every other player.
    """
    out: dict[int, list[tuple[int, float]]] = {p: [] for p in places}
    for p, place in places.items():
        for q, other in places.items():
            if p == q:
                continue
            score = 1.0 if place < other else 0.0 if place > other else 0.5
            out[p].append((q, score))
    return out
