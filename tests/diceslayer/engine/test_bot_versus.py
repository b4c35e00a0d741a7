"""The versus bot: an expectimax two rolls ahead with the opponent's reply as a min node.

- its values equal a separately written brute force (the real rules engine applied to
  every ordered roll, every legal reply) on small positions;
- it beats the previous one-turn heuristic and the §5 default move over seeded matches;
- every decision stays under 50 ms of CPU on hard positions, with a cold cache.
"""

from __future__ import annotations

import random
import time
from itertools import product

import pytest

import diceslayer.engine as engine
from diceslayer.engine import bot, versus_bot
from diceslayer.engine.orders import legal_orders, order_to_json
from diceslayer.engine.rules.dice import ScriptedDice
from diceslayer.engine.rules.patterns import targets_of
from diceslayer.engine.rules.resolve import apply_order
from diceslayer.engine.state import Bomb, Pick, Player, Source, State, Variant

from .helpers import versus

WIN = versus_bot.WIN


# ------------------------------------------------------------------ brute-force reference

class _Counting:
    """Dice that only count how many a move rolls (all 1s)."""

    def __init__(self) -> None:
        self.n = 0

    def roll(self, n: int, index: int) -> tuple[int, ...]:
        self.n += n
        return (1,) * n


def _outcomes(state: State, order) -> list[State]:
    """Every next state of ``order``, one per ordered roll (all equally likely)."""
    counting = _Counting()
    apply_order(state, order, counting)
    return [apply_order(state, order, ScriptedDice(roll))[0]
            for roll in product(range(1, 7), repeat=counting.n)]


def _terminal(st: State, seat: int) -> float:
    return 0.0 if st.winner is None else (WIN if st.winner == seat else -WIN)


def _replies(st: State) -> list:
    """The opponent's moves the bot's min node considers (its documented caps, versus 2
    only): picks from its own field, picks from the other field that complete a set or
    remove dice, or that take a face completing a removing pattern for the other side,
    and the bomb on its most numerous face only. Versus 1: every pick."""
    b = st.to_move
    me, other = st.players[b], st.players[1 - b]
    if st.variant is Variant.VERSUS1:
        return legal_orders(st, b)
    out = []
    for o in legal_orders(st, b):
        if isinstance(o, Pick) and o.source is Source.OPPONENT:
            stock = (me.stock + (o.face,))[-3:]
            is_set = len(stock) == 3 and len(set(stock)) == 1
            theirs = (other.stock + (o.face,))[-3:]
            if not is_set and not any(f in targets_of(stock) for f in me.plate) \
                    and not any(f in targets_of(theirs) for f in other.plate):
                continue
        out.append(o)
    bombs = [o for o in out if isinstance(o, Bomb)]
    if bombs:
        top = max(bombs, key=lambda o: (me.plate.count(o.face), -o.face))
        out = [o for o in out if not isinstance(o, Bomb)] + [top]
    return out


def _reference(state: State, seat: int, order) -> float:
    """Expectimax by brute force: A's move, every roll, B's best reply for B (min of A's
    value), every roll, then the bot's static leaf."""
    total = 0.0
    outs = _outcomes(state, order)
    for st in outs:
        if st.over:
            total += _terminal(st, seat)
            continue
        worst = None
        for reply in _replies(st):
            leaves = _outcomes(st, reply)
            v = sum(_terminal(x, seat) if x.over else versus_bot.leaf_value(x, seat)
                    for x in leaves) / len(leaves)
            worst = v if worst is None else min(worst, v)
        total += worst
    return total / len(outs)


SMALL_V2 = [
    # big fields: the roll-ins are one die, so the brute force stays small
    (versus(Variant.VERSUS2, {"plate": [1, 1, 4, 4, 6, 6, 6], "stock": [2, 2]},
            {"plate": [1, 1, 3, 5, 5, 5, 5], "stock": [6, 4]}, bomb=1), 0),
    (versus(Variant.VERSUS2, {"plate": [1, 1, 1, 3, 3, 3, 6], "stock": [5, 5]},
            {"plate": [2, 4, 4, 4, 4, 6, 6, 6, 6], "stock": [2, 2]}, bomb=1, to_move=1), 1),
    (versus(Variant.VERSUS2, {"plate": [1, 2, 2, 5, 5, 5, 6, 6], "stock": [4, 4]},
            {"plate": [1, 1, 3, 3, 3, 6, 6, 6], "stock": [2, 1]}, bomb=None), 0),
    # a 100-transfer (97 + 4 points) that also overflows the opponent
    (versus(Variant.VERSUS2, {"plate": [3, 4, 4, 6, 6, 6, 6], "stock": [1, 2], "score": 97},
            {"plate": [2, 2, 2, 2, 2, 2], "stock": [5], "score": 40}, bomb=1), 0),
    # an admin's target within reach
    (versus(Variant.VERSUS2, {"plate": [3, 4, 4, 4, 4, 4, 4], "stock": [1, 2], "score": 95},
            {"plate": [1, 1, 1, 1, 1, 1, 1, 1], "stock": [6], "score": 110}, bomb=0,
            target=120), 0),
]

SMALL_V1 = [
    (versus(Variant.VERSUS1, {"plate": [1, 2, 4, 6], "stock": [3, 4], "grace": [2]},
            {"plate": [2, 5, 5], "stock": [6, 6], "grace": [1, 3]}), 0),
    (versus(Variant.VERSUS1, {"plate": [2, 3, 3, 5], "stock": [4, 4], "score": 60},
            {"plate": [1, 1, 6], "stock": [2, 3], "score": 90, "grace": [4]}), 0),
    (versus(Variant.VERSUS1, {"plate": [1, 5, 5, 5, 6], "stock": [2, 3], "grace": [4, 4]},
            {"plate": [2, 4, 4, 6, 6], "stock": [5, 5]}, to_move=1), 1),
]


@pytest.fixture
def exact_chance(monkeypatch):
    """Chance nodes of 4+ dice are sampled in play; here they are enumerated exactly so the
    search can be compared with the brute force to the last digit."""
    exact = {n: versus_bot._exact(n) for n in range(0, 7)}
    exact[0] = [(0, 1.0)]
    monkeypatch.setattr(versus_bot, "ROLLS", exact)
    versus_bot.clear_caches()
    yield
    versus_bot.clear_caches()


@pytest.mark.parametrize("state, seat", SMALL_V2 + SMALL_V1)
def test_versus_values_equal_a_brute_force_expectimax(state, seat, exact_chance):
    ranked = versus_bot.versus_choices(state, seat, width=99)  # no root pruning
    assert {order_to_json(o)["pick" if isinstance(o, Pick) else "bomb"] for _, o, _ in ranked}
    assert len(ranked) == len(legal_orders(state, seat))
    for value, order, _ in ranked:
        assert value == pytest.approx(_reference(state, seat, order), abs=1e-9), order
    best_ref = max(_reference(state, seat, o) for o in legal_orders(state, seat))
    assert ranked[0][0] == pytest.approx(best_ref, abs=1e-9)


def test_the_bot_plays_the_searched_best_on_small_positions():
    for state, seat in SMALL_V2 + SMALL_V1:
        # width 8 is the bot's cap; these positions have few enough moves, or the best
        # searched one is still the best of all.
        best = versus_bot.versus_choices(state, seat, width=99)[0][1]
        assert engine.bot_orders(state, seat, "s") == [order_to_json(best)]


def test_the_leaf_is_the_best_static_next_move():
    s = versus(Variant.VERSUS2, {"plate": [1, 1, 2, 4, 6, 6, 3, 3, 2, 2, 2], "stock": [3, 5]},
               {"plate": [4, 4]}, bomb=2)
    # Picking the 4 removes the 2s and 6s (7 dice: 49 points, 6 sent); every other pick
    # overflows, and the bomb is the opponent's.
    assert versus_bot.leaf_value(s, 0) > 0
    s2 = versus(Variant.VERSUS2, {"plate": [1, 1, 1, 1, 3, 3, 3, 5, 5, 5, 5]},
                {"plate": [4, 4]}, bomb=2)
    assert versus_bot.leaf_value(s2, 0) == -WIN


def test_sampled_chance_nodes_are_fixed_and_weighted():
    assert len(versus_bot.roll_outcomes(3)) == 56
    assert sum(p for _, p in versus_bot.roll_outcomes(3)) == pytest.approx(1)
    big = versus_bot.roll_outcomes(5)
    assert len(big) == versus_bot.SAMPLES
    assert sum(p for _, p in big) == pytest.approx(1)
    assert all(len(versus_bot.unpack(code)) == 5 for code, _ in big)
    assert big == versus_bot.roll_outcomes(5)


# ------------------------------------------------------------------ strength

def _old(state: State, seat: int) -> dict:
    return order_to_json(bot.heuristic_choice(state, seat)[0])


def _default(state: State, seat: int) -> dict:
    return engine.default_orders(state, seat)[0]


def _new(state: State, seat: int) -> dict:
    return engine.bot_orders(state, seat, "")[0]


def _v1_start(i: int) -> State:
    """A seeded versus-1 position with 6–9 dice a side (from setup, 3 dice a side run out in
    six picks and almost every match is a 0–0 draw, which measures nothing)."""
    rng = random.Random(f"versus1-start-{i}")
    players = tuple(Player(tuple(sorted(rng.randint(1, 6) for _ in range(rng.randint(6, 9)))),
                           tuple(rng.randint(1, 6) for _ in range(2)))
                    for _ in range(2))
    return State(variant=Variant.VERSUS1, players=players, target=100)


def _match(variant: str, players, i: int) -> int | None:
    seed = f"versus-strength-{i}"
    s = engine.setup({"variant": variant}, [0, 1], seed) if variant == "versus2" \
        else _v1_start(i)
    for _ in range(400):
        if s.over:
            break
        m = s.to_move
        s = engine.resolve(engine.submit(s, m, players[m](s, m)).state, seed).state
    return s.winner if s.over else None


def _score(variant: str, opponent, games: int) -> tuple[int, int, int]:
    """(wins, losses, draws) of the new bot over seeded matches, seats alternating."""
    w = l = d = 0
    for i in range(games):
        seat = i % 2
        players = [opponent, opponent]
        players[seat] = _new
        winner = _match(variant, players, i)
        if winner is None:
            d += 1
        elif winner == seat:
            w += 1
        else:
            l += 1
    return w, l, d


# Measured on these seeds (wins–losses–draws): versus 2 — 27–3–0 against the old one-turn
# heuristic (30 matches), 20–0–0 against the §5 default (20); versus 1 (60 positions) —
# 37–17–6 against the old heuristic, 42–12–6 against the default. Everything is
# deterministic; the thresholds leave a margin for later tuning.
@pytest.mark.parametrize("variant, opponent, games, at_least", [
    ("versus2", _old, 30, 0.6),
    ("versus2", _default, 20, 0.8),
    ("versus1", _old, 60, 0.55),
    ("versus1", _default, 60, 0.6),
])
def test_versus_bot_beats_the_old_heuristic_and_the_default_move(variant, opponent, games,
                                                                  at_least):
    w, l, d = _score(variant, opponent, games)
    assert w + l + d == games
    assert w / games >= at_least and w > 2 * l, (w, l, d)


# ------------------------------------------------------------------ speed

HARD = [
    # many distinct faces on both fields, 3-dice roll-ins after, a neutral bomb
    (versus(Variant.VERSUS2, {"plate": [1, 2, 3, 4, 5, 6], "stock": [3, 4]},
            {"plate": [1, 2, 3, 4, 5, 6], "stock": [2, 3]}, bomb=None), 0),
    (versus(Variant.VERSUS2, {"plate": [1, 1, 2, 2, 4], "stock": [3]},
            {"plate": [1, 1, 4, 6], "stock": [3, 2]}, bomb=None), 0),
    (versus(Variant.VERSUS2, {"plate": [1, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6],
                              "stock": [1, 2, 4]},
            {"plate": [2, 3, 6], "stock": [4, 2, 3]}, bomb=None), 0),
    (versus(Variant.VERSUS2, {"plate": [2, 2, 3, 3, 5, 5, 6, 6, 6], "stock": [5, 4, 4]},
            {"plate": [2, 2, 2, 2], "stock": [2, 3, 4]}, bomb=None), 0),
    (versus(Variant.VERSUS2, {"plate": [1, 2, 3, 5, 6], "stock": [4, 4]},
            {"plate": [1, 2, 3, 4, 5, 6, 6], "stock": [5, 6]}, bomb=None, target=300), 0),
    (versus(Variant.VERSUS1, {"plate": [1, 2, 3, 4, 5, 6, 6], "stock": [4, 5]},
            {"plate": [1, 2, 3, 4, 5, 6, 1], "stock": [2, 3], "grace": [1, 5]}), 0),
    # the slowest decisions seen in the bench's self-play (cold memo)
    (versus(Variant.VERSUS2, {"plate": [1, 2, 5, 5], "stock": [3, 4]},
            {"plate": [2, 3, 5, 5, 5, 5, 6], "stock": [4, 4]}, to_move=1), 1),
    (versus(Variant.VERSUS1, {"plate": [1, 1, 1, 2, 2, 2, 3, 5], "stock": [1, 3, 4]},
            {"plate": [1, 2, 2, 3, 5, 5, 6], "stock": [3, 4]}, to_move=1), 1),
]


@pytest.mark.parametrize("state, seat", HARD)
def test_each_versus_decision_takes_at_most_50_ms(state, seat):
    # CPU time of this process, best of five: other work on a shared machine must not
    # make the test flaky, while a slow search still fails it. Each search starts cold.
    best = float("inf")
    for _ in range(5):
        versus_bot.clear_caches()
        t0 = time.process_time()
        engine.bot_orders(state, seat, "t")
        best = min(best, time.process_time() - t0)
    assert best * 1000 <= 50, best


def test_hint_explains_the_versus_choice_in_one_line():
    state, seat = SMALL_V2[0]
    h = engine.hint(state, seat)
    assert h["order"] == engine.bot_orders(state, seat, "s")[0]
    assert "\n" not in h["why"] and h["why"].endswith(".")
    assert "two rolls" in h["why"]
