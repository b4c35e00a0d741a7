"""The versus bot: expectimax two rolls ahead, the opponent's reply as a min node.

The tree, from the mover's (A's) point of view, for versus 2 (rules §4):

    A's choice → chance: A's attack dice + B's roll-in (onto B's field)
               → B's reply (min over B's moves)
               → chance: B's attack dice + A's roll-in (onto A's field)
               → leaf: A's best next move, valued statically.

Versus 1 (§3) has no roll-ins; its only dice are attacks into a grace zone, so its two
chance nodes are A's attack dice (into B's grace) and B's attack dice (into A's grace).
Grace cancels take the lowest faces (the §3.7 default, which the bot's orders leave to
the engine). When B has no die to take, its node is valued by A's leaf (the automatic
passes and the end on exhaustion of §3.8 are not searched).

Chance nodes enumerate the distinct multisets of the dice rolled with their exact
probabilities when at most 3 dice are rolled (≤ 56 outcomes). Rolls of 4 or more dice
(only after big removals) are **sampled**: a fixed set of ``SAMPLES`` multisets drawn once
from a seeded generator, equally weighted, so the bot stays deterministic.

Branching caps (the honest pruning, all deterministic):
- the root's moves are ordered by the leaf's one-move value (the old one-turn heuristic's
  idea) and only the best ``ROOT_WIDTH`` are searched; the others keep their static
  value minus a margin (so they rank below every searched move unless it loses);
- at the opponent's min node (versus 2), its picks from the mover's field are searched
  only when they complete a set or a removing pattern for the opponent, or take a face
  that would complete a removing pattern for the mover next turn (denial); any other
  such pick only shrinks the mover's field;
- the opponent's bomb is considered on its most numerous face only (bombing any other
  face clears fewer dice, scores nothing either way and hands the bomb over the same way).

The leaf (a position where A is about to move) is the best of A's next moves (versus 2:
from its own field only, picks and the bomb; picks from B's field are left out of its
leaf, as they depend on B's faces), each valued statically: −WIN if it overflows, +WIN
if it reaches an admin's target; else minus the danger of A's field size after it, plus
the danger of B's field size after it (what the move sends included: attack, set and
100 transfers), plus 0.8 per face ready to complete a removing pattern next (at most 2),
±3 for the bomb being A's or B's, and 0.02 per point (points matter in versus 2 only
through the 100-transfers and a target). Versus 1 values the score difference first
(matches are won at 100 or on points when the dice run out), then dice sent into B's
grace, dice in A's grace (they fall when A removes nothing), field sizes and ready faces.

Versus 1 leaves are memoised across decisions by the whole position they depend on.
Versus 2 values are memoised across decisions in plain-int keyed tables (cleared when
large): for each (A's field, stock, room to the next 100 and to the target, bomb), the
best own value per number of dice sent (a small frontier, so B's field size is applied
afterwards), and each chance node before A's roll by that key plus B's field size and the
dice count. Everything is deterministic: same position, same move.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from games.rules import Msg, T, Tn

from diceslayer.engine.rules.patterns import targets_of
from diceslayer.engine.state import (
    CLEAR_BONUS, VERSUS_LOSS_AT, Bomb, Order, Pick, Source, State, Variant,
)

WIN = 1000.0
NEG = float("-inf")
ROOT_WIDTH = 8
SAMPLES = 16
SH = 5  # bits per face in a packed field (a face may hold up to 31 dice)
M = 31
FACES = (1, 2, 3, 4, 5, 6)

# -------------------------------------------------------------------- dice and patterns


def pack(faces: Any) -> int:
    code = 0
    for f in faces:
        code += 1 << (SH * f)
    return code


def unpack(code: int) -> list[int]:
    return [f for f in FACES for _ in range((code >> (SH * f)) & M)]


def _exact(n: int) -> list[tuple[int, float]]:
    fact = [1, 1, 2, 6, 24, 120, 720, 5040, 40320]
    out = []
    for combo in combinations_with_replacement(FACES, n):
        perms = fact[n]
        for k in Counter(combo).values():
            perms //= fact[k]
        out.append((pack(combo), perms / 6 ** n))
    return out


def _sampled(n: int) -> list[tuple[int, float]]:
    rng = random.Random(f"diceslayer-versus-bot|{n}")
    return [(pack(rng.randint(1, 6) for _ in range(n)), 1.0 / SAMPLES) for _ in range(SAMPLES)]


ROLLS: dict[int, list[tuple[int, float]]] = {0: [(0, 1.0)]}
for _n in range(1, 3 + 1):
    ROLLS[_n] = _exact(_n)
for _n in range(4, 40):
    ROLLS[_n] = _sampled(_n)


def roll_outcomes(n: int) -> list[tuple[int, float]]:
    """The outcomes of rolling ``n`` dice as (packed faces, probability); exact up to 3."""
    return ROLLS[n]


S2_KEYS: list[tuple[int, ...]] = [()] + [(a,) for a in FACES] + \
    [(a, b) for a in FACES for b in FACES]
S2_CODE = {s2: i for i, s2 in enumerate(S2_KEYS)}
# NEXT[s2][f] = (the last two stock dice after adding f, the faces the full stock removes,
# whether the full stock is a set).
NEXT: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple[int, ...], bool]]] = {}
for _s2 in S2_KEYS:
    _row: list[tuple[tuple[int, ...], tuple[int, ...], bool]] = [((), (), False)]
    for _f in FACES:
        _full = _s2 + (_f,)
        _is3 = len(_full) == 3
        _row.append((_full[-2:], targets_of(_full) if _is3 else (),
                     _is3 and _full[0] == _full[1] == _full[2]))
    NEXT[_s2] = _row
# For the last two stock dice: the faces that complete a pattern removing something, with
# the faces that pattern removes.
COMPLETERS = {s2: tuple((f, NEXT[s2][f][1]) for f in FACES if NEXT[s2][f][1]) for s2 in S2_KEYS}


# The same as bit masks (bit f for face f): (completing face, the faces it removes).
COMP_MASKS = {s2: tuple((1 << g, sum(1 << t for t in tg)) for g, tg in COMPLETERS[s2])
              for s2 in S2_KEYS}
# For the last two stock dice: per face f, (f, the new last two, the faces the full stock
# removes, them as a mask, whether it is a set, COMP_MASKS of the new stock).
PICKS = {s2: tuple((f, NEXT[s2][f][0] if not NEXT[s2][f][2] else (), NEXT[s2][f][1],
                    sum(1 << t for t in NEXT[s2][f][1]), NEXT[s2][f][2],
                    COMP_MASKS[NEXT[s2][f][0] if not NEXT[s2][f][2] else ()])
                   for f in FACES)
         for s2 in S2_KEYS}


def v2_roll_in(size: int) -> int:
    return 3 if size <= 4 else 2 if size <= 6 else 1


def _ready(field: int, s2: tuple[int, ...]) -> int:
    """How many faces of ``field`` would complete a removing pattern with stock ``s2``."""
    k = 0
    for g, targets in COMPLETERS[s2]:
        c = (field >> (SH * g)) & M
        if not c:
            continue
        for t in targets:
            if (field >> (SH * t)) & M:
                k += 1
                break
    return k


def _mask(field: int) -> int:
    m = 0
    for f in FACES:
        if (field >> (SH * f)) & M:
            m |= 1 << f
    return m


MASK_FACES = {m: tuple(f for f in FACES if m >> f & 1) for m in range(0, 128, 2)}

# ---------------------------------------------------------------------- evaluation terms

# The danger of a field of this size at the end of your own turn (versus 2): nothing rolls
# it past 9 by itself (a field of 7+ gets 1 die and gives one back by a pick), so the risk
# is an attack or transfer; it grows steeply near 10.
DANGER2 = (0.0, 0.0, 0.0, 0.0, 0.2, 0.5, 1.2, 2.5, 4.5, 7.5)
# The opponent's field size after your turn, before their roll-in (≥ 10: they must remove
# dice or bomb to survive).
OPP_DANGER2 = DANGER2 + (13.0, 19.0, 25.0, 30.0, 34.0, 37.0) + (40.0,) * 40
READY_W = 0.8
BOMB_W = 3.0
POINT_W2 = 0.02
# Versus 1: points decide most matches; fields only grow when grace dice fall.
DANGER1 = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 1.5, 3.0, 6.0)
OPP_DANGER1 = DANGER1 + (6.0,) * 60
SENT_W1 = 1.5
GRACE_W1 = 1.2
READY_W1 = 1.0


# ------------------------------------------------------------------------------ versus 2

class V2:
    """One versus-2 search for one decision. Seat-free: "a" is the mover, "b" the other.

    A side is (field, size, s2, score). ``bomb`` is 0 neutral, 1 A's, 2 B's.
    """

    def __init__(self, target: int | None) -> None:
        self.target = target
        # Keys are plain ints; both memos are pure functions of their keys (and of the
        # target), so they are kept across decisions (see ``_v2``).
        self.leaf_memo: dict[int, tuple[tuple[int, float], ...]] = {}
        self.chance_memo: dict[int, float] = {}

    def trim(self) -> None:
        if len(self.leaf_memo) > 200_000:
            self.leaf_memo.clear()
        if len(self.chance_memo) > 200_000:
            self.chance_memo.clear()

    # A pick by the mover X of face f (from its own field or Y's).
    @staticmethod
    def pick(fx: int, nx: int, s2: tuple[int, ...], sc: int, fy: int, ny: int, f: int,
             own: bool) -> tuple[int, int, tuple[int, ...], int, int, int, int, int]:
        """→ (fx, nx, s2, score, fy, ny, attack dice m, points)."""
        if own:
            fx -= 1 << (SH * f)
            nx -= 1
        else:
            fy -= 1 << (SH * f)
            ny -= 1
        new_s2, targets, is_set = NEXT[s2][f]
        n = 0
        for t in targets:
            k = (fx >> (SH * t)) & M
            if k:
                n += k
                fx -= k << (SH * t)
        nx -= n
        pts = n * n
        if n and nx == 0:
            pts += CLEAR_BONUS
        m = n - 1 if n >= 2 else 0
        if is_set:
            fy += 3 << (SH * f)
            ny += 3
            new_s2 = ()
        new_sc = sc + pts
        if new_sc // 100 > sc // 100:
            fy += fx
            ny += nx
            fx = 0
            nx = 0
        return fx, nx, new_s2, new_sc, fy, ny, m, pts

    def reached(self, score: int) -> bool:
        return self.target is not None and score >= self.target

    def moves(self, fa: int, na: int, s2a: tuple[int, ...], sca: int, fb: int, nb: int,
              bomb: int, mover_bomb: int) -> list[tuple[Order, tuple[Any, ...]]]:
        """Every move of the mover with its result: (order, (fa, na, s2a, sca, fb, nb,
        m, pts, bombed, new bomb))."""
        out: list[tuple[Order, tuple[Any, ...]]] = []
        for f in FACES:
            if (fa >> (SH * f)) & M:
                out.append((Pick(f), self.pick(fa, na, s2a, sca, fb, nb, f, True)
                            + (False, bomb)))
        for f in FACES:
            if (fb >> (SH * f)) & M:
                out.append((Pick(f, Source.OPPONENT),
                            self.pick(fa, na, s2a, sca, fb, nb, f, False) + (False, bomb)))
        if bomb in (0, mover_bomb):
            other = 3 - mover_bomb
            for f in FACES:
                k = (fa >> (SH * f)) & M
                if k:
                    out.append((Bomb(f), (fa - (k << (SH * f)), na - k, s2a, sca, fb, nb, 0,
                                          0, True, other)))
        return out

    # ---------------------------------------------------------------- leaf
    def own_value(self, r: tuple[Any, ...], bomb_after: int) -> float:
        """A's value of one of its moves' results, without the opponent's field."""
        fa, na, s2a, sca, _fb, _nb, _m, pts, bombed, _ = r
        if na >= VERSUS_LOSS_AT and not bombed:
            return -WIN
        if self.reached(sca):
            return WIN
        val: float = -DANGER2[na] if na < VERSUS_LOSS_AT else -OPP_DANGER2[na]
        val += READY_W * min(_ready(fa, s2a), 2) + POINT_W2 * pts
        if bomb_after == 1:
            val += BOMB_W
        elif bomb_after == 2:
            val -= BOMB_W
        return val

    def static(self, r: tuple[Any, ...], bomb_after: int) -> float:
        """A's value of one of its moves' results, statically: its own value plus the
        danger of the opponent's field after it (what it sends included)."""
        val = self.own_value(r, bomb_after)
        if abs(val) >= WIN:
            return val
        return val + OPP_DANGER2[r[5] + r[6]]

    def frontier(self, fa: int, na: int, s2a: tuple[int, ...], sca: int,
                 bomb: int) -> tuple[tuple[int, float], ...]:
        """A to move: for each number of dice its own moves add to B's field (attack,
        set and 100 transfers), the best own value; the leaf is then
        max(own + OPP_DANGER2[B's size + sent]). Picks from B's field are left out of
        the leaf (they depend on B's faces; they rarely beat an own pick)."""
        room = 100 - sca % 100
        troom = 127 if self.target is None else min(self.target - sca, 127)
        key = (fa << 24) | (S2_CODE[s2a] << 16) | (room << 9) | (troom << 2) | bomb
        v = self.leaf_memo.get(key)
        if v is not None:
            return v
        return self._frontier(key, fa, na, s2a, room, troom, bomb)

    def _frontier(self, key: int, fa: int, na: int, s2a: tuple[int, ...], room: int,
                  troom: int, bomb: int) -> tuple[tuple[int, float], ...]:
        c = [0, fa >> 5 & M, fa >> 10 & M, fa >> 15 & M, fa >> 20 & M, fa >> 25 & M,
             fa >> 30 & M]
        present = 0
        for f in FACES:
            if c[f]:
                present |= 1 << f
        best: dict[int, float] = {}
        held = BOMB_W if bomb == 1 else -BOMB_W if bomb == 2 else 0.0
        for f, new_s2, targets, tmask, is_set, comps in PICKS[s2a]:
            if not c[f]:
                continue
            n = 0
            for t in targets:
                n += c[t]
            size = na - 1 - n
            pts = n * n
            if n and size == 0:
                pts += CLEAR_BONUS
            sent = n - 1 if n >= 2 else 0
            if is_set:
                sent += 3
            hundred = pts >= room
            if hundred:
                sent += size
                size = 0
            if size >= VERSUS_LOSS_AT:
                val = -WIN
            elif pts >= troom:
                val = WIN
            else:
                ready = 0
                if not hundred:
                    mask = present & ~tmask
                    if c[f] == 1:
                        mask &= ~(1 << f)
                    for gbit, gmask in comps:
                        if mask & gbit and mask & gmask:
                            ready += 1
                val = -DANGER2[size] + READY_W * (ready if ready < 2 else 2) \
                    + POINT_W2 * pts + held
            if val > best.get(sent, NEG):
                best[sent] = val
        if bomb != 2:
            comps = COMP_MASKS[s2a]
            for f in FACES:
                k = c[f]
                if not k:
                    continue
                size = na - k
                mask = present & ~(1 << f)
                ready = 0
                for gbit, gmask in comps:
                    if mask & gbit and mask & gmask:
                        ready += 1
                val = (-DANGER2[size] if size < VERSUS_LOSS_AT else -OPP_DANGER2[size]) \
                    + READY_W * (ready if ready < 2 else 2) - BOMB_W
                if val > best.get(0, NEG):
                    best[0] = val
        # Keep only entries not dominated by one that sends more with a higher value.
        out: list[tuple[int, float]] = []
        top = NEG
        for sent, val in sorted(best.items(), reverse=True):
            if val > top:
                out.append((sent, val))
                top = val
        fr = tuple(out)
        self.leaf_memo[key] = fr
        return fr

    def leaf(self, fa: int, na: int, s2a: tuple[int, ...], sca: int, nb: int,
             bomb: int) -> float:
        best = NEG
        for sent, own in self.frontier(fa, na, s2a, sca, bomb):
            val = own if abs(own) >= WIN else own + OPP_DANGER2[nb + sent]
            if val > best:
                best = val
        return best

    def chance_a(self, fa: int, na: int, s2a: tuple[int, ...], sca: int, nb: int,
                 bomb: int, k: int) -> float:
        """Expected leaf after ``k`` dice land on A's field (B's field of size ``nb``)."""
        room = 100 - sca % 100
        troom = 127 if self.target is None else min(self.target - sca, 127)
        base = (S2_CODE[s2a] << 16) | (room << 9) | (troom << 2) | bomb
        key = (fa << 40) | (base << 16) | (nb << 4) | k
        v = self.chance_memo.get(key)
        if v is not None:
            return v
        total = 0.0
        memo = self.leaf_memo
        compute = self._frontier
        opp = OPP_DANGER2
        na += k
        for delta, p in ROLLS[k]:
            fa2 = fa + delta
            lkey = (fa2 << 24) | base
            fr = memo.get(lkey)
            if fr is None:
                fr = compute(lkey, fa2, na, s2a, room, troom, bomb)
            best = NEG
            for sent, own in fr:
                val = own if own <= -WIN or own >= WIN else own + opp[nb + sent]
                if val > best:
                    best = val
            total += p * best
        self.chance_memo[key] = total
        return total

    # ---------------------------------------------------------------- B's reply
    def b_moves(self, fb: int, nb: int, s2b: tuple[int, ...], scb: int, fa: int, na: int,
                s2a: tuple[int, ...], bomb: int) -> list[tuple[Any, ...]]:
        """B's moves searched at its min node (the caps of the module docstring)."""
        out = []
        for f in FACES:
            if (fb >> (SH * f)) & M:
                out.append(self.pick(fb, nb, s2b, scb, fa, na, f, True) + (False, bomb))
        for f in FACES:
            if (fa >> (SH * f)) & M:
                _, targets, is_set = NEXT[s2b][f]
                useful = is_set or any((fb >> (SH * t)) & M for t in targets) or \
                    any((fa >> (SH * t)) & M for t in NEXT[s2a][f][1])  # A's next pattern
                if useful:
                    out.append(self.pick(fb, nb, s2b, scb, fa, na, f, False) + (False, bomb))
        if bomb in (0, 2):
            top, face = 0, 0
            for f in FACES:
                k = (fb >> (SH * f)) & M
                if k > top:
                    top, face = k, f
            if top:
                out.append((fb - (top << (SH * face)), nb - top, s2b, scb, fa, na, 0, 0, True,
                            1))
        return out

    def b_node(self, fa: int, na: int, s2a: tuple[int, ...], sca: int,
               fb: int, nb: int, s2b: tuple[int, ...], scb: int, bomb: int) -> float:
        """B to move (after its roll-in): min over B's moves of A's expected leaf."""
        best = WIN * 2
        chance_a = self.chance_a
        reached = self.reached
        for r in self.b_moves(fb, nb, s2b, scb, fa, na, s2a, bomb):
            fb2, nb2, _s2b2, scb2, fa2, na2, m, _pts, bombed, bomb2 = r
            if nb2 >= VERSUS_LOSS_AT and not bombed:
                val = WIN
            elif reached(scb2):
                val = -WIN
            else:
                na3 = na2 + m
                k = m + (3 if na3 <= 4 else 2 if na3 <= 6 else 1)
                val = chance_a(fa2, na2, s2a, sca, nb2, bomb2, k)
            if val < best:
                best = val
                if best <= -WIN:
                    break
        return best

    def root_value(self, r: tuple[Any, ...], s2b: tuple[int, ...], scb: int) -> float:
        fa, na, s2a, sca, fb, nb, m, _pts, bombed, bomb2 = r
        if na >= VERSUS_LOSS_AT and not bombed:
            return -WIN
        if self.reached(sca):
            return WIN
        k = m + v2_roll_in(nb + m)
        total = 0.0
        for delta, p in ROLLS[k]:
            total += p * self.b_node(fa, na, s2a, sca, fb + delta, nb + k, s2b, scb, bomb2)
        return total


_V2_SEARCHES: dict[int | None, V2] = {}


def _v2(target: int | None) -> V2:
    search = _V2_SEARCHES.get(target)
    if search is None:
        search = _V2_SEARCHES[target] = V2(target)
    search.trim()
    return search


def clear_caches() -> None:
    """Forget every memoised value (to time a cold decision)."""
    _V2_SEARCHES.clear()
    _V1_SEARCHES.clear()


def _bomb_code(state: State, seat: int) -> int:
    if state.bomb is None:
        return 0
    return 1 if state.bomb == seat else 2


def versus2_choices(state: State, seat: int,
                    width: int = ROOT_WIDTH) -> list[tuple[float, Order, tuple[Any, ...]]]:
    """Every legal move with its value (searched or static), best first."""
    me, opp = state.players[seat], state.players[1 - seat]
    search = _v2(state.target)
    fa, na, s2a = pack(me.plate), len(me.plate), tuple(me.stock[-2:])
    fb, nb, s2b = pack(opp.plate), len(opp.plate), tuple(opp.stock[-2:])
    bomb = _bomb_code(state, seat)
    moves = search.moves(fa, na, s2a, me.score, fb, nb, bomb, 1)
    ranked = sorted(moves, key=lambda e: (-search.static(e[1], e[1][9]), _tie(e[0])))
    out = []
    for i, (order, r) in enumerate(ranked):
        if i < width:
            val = search.root_value(r, s2b, opp.score)
        else:
            val = search.static(r, r[9]) - 2 * WIN  # unsearched: below every searched move
        out.append((val, order, r))
    out.sort(key=lambda e: (-e[0], _tie(e[1])))
    return out


def _tie(order: Order) -> tuple[Any, ...]:
    return (isinstance(order, Bomb), getattr(order, "source", Source.OWN) is not Source.OWN,
            order.face)


# ------------------------------------------------------------------------------ versus 1

class V1:
    """One versus-1 search. A side is (field, size, s2, score, grace, grace size)."""

    def __init__(self, target: int) -> None:
        self.target = target
        # A pure function of its key (and the target): kept across decisions (``_v1``).
        self.leaf_memo: dict[tuple[Any, ...], float] = {}

    def trim(self) -> None:
        if len(self.leaf_memo) > 200_000:
            self.leaf_memo.clear()

    @staticmethod
    def pick(fx: int, nx: int, s2: tuple[int, ...], sc: int, gx: int, ngx: int,
             fy: int, ny: int, f: int, own: bool) -> tuple[Any, ...]:
        """→ (fx, nx, s2, score, gx, ngx, fy, ny, attack dice m, points)."""
        if own:
            fx -= 1 << (SH * f)
            nx -= 1
        else:
            fy -= 1 << (SH * f)
            ny -= 1
        new_s2, targets, _ = NEXT[s2][f]
        n = 0
        for t in targets:
            k = (fx >> (SH * t)) & M
            if k:
                n += k
                fx -= k << (SH * t)
        nx -= n
        m = 0
        if n >= 1:
            if ngx == 0:
                m = n - 1
            elif n < ngx:  # cancel the n lowest grace dice (the default of §3.7)
                left = n
                for g in FACES:
                    k = (gx >> (SH * g)) & M
                    take = k if k < left else left
                    gx -= take << (SH * g)
                    left -= take
                    if not left:
                        break
                ngx -= n
            else:
                m = n - ngx
                gx = 0
                ngx = 0
        elif ngx:
            fx += gx
            nx += ngx
            gx = 0
            ngx = 0
        return fx, nx, new_s2, sc + n * n, gx, ngx, fy, ny, m, n * n

    def moves(self, fa: int, na: int, s2a: tuple[int, ...], sca: int, ga: int, nga: int,
              fb: int, nb: int) -> list[tuple[Order, tuple[Any, ...]]]:
        orders = [Pick(f) for f in FACES if (fa >> (SH * f)) & M] + \
            [Pick(f, Source.OPPONENT) for f in FACES if (fb >> (SH * f)) & M]
        return list(zip(orders, self.results(fa, na, s2a, sca, ga, nga, fb, nb)))

    def results(self, fa: int, na: int, s2a: tuple[int, ...], sca: int, ga: int, nga: int,
                fb: int, nb: int) -> list[tuple[Any, ...]]:
        """The results of every pick (own field first, then the other's, by face)."""
        pick = self.pick
        out = []
        for f in FACES:
            if (fa >> (SH * f)) & M:
                out.append(pick(fa, na, s2a, sca, ga, nga, fb, nb, f, True))
        for f in FACES:
            if (fb >> (SH * f)) & M:
                out.append(pick(fa, na, s2a, sca, ga, nga, fb, nb, f, False))
        return out

    def static(self, r: tuple[Any, ...], scb: int, ngb: int) -> float:
        fa, na, s2a, sca, _ga, nga, _fb, nb, m, _pts = r
        if na >= VERSUS_LOSS_AT:
            return -WIN
        if sca >= self.target:
            return WIN
        value: float = (sca - scb) - DANGER1[na] + OPP_DANGER1[nb] + SENT_W1 * m \
            - GRACE_W1 * nga + GRACE_W1 * 0.5 * ngb + READY_W1 * min(_ready(fa, s2a), 2)
        return value

    def leaf(self, fa: int, na: int, s2a: tuple[int, ...], sca: int, ga: int, nga: int,
             fb: int, nb: int, scb: int, ngb: int) -> float:
        key = (fa, S2_CODE[s2a], sca, ga, fb, scb, ngb)
        v = self.leaf_memo.get(key)
        if v is not None:
            return v
        results = self.results(fa, na, s2a, sca, ga, nga, fb, nb)
        if not results:
            best = (sca - scb) - GRACE_W1 * nga + GRACE_W1 * 0.5 * ngb  # a pass (rare)
        else:
            static = self.static
            best = NEG
            for r in results:
                v = static(r, scb, ngb)
                if v > best:
                    best = v
        self.leaf_memo[key] = best
        return best

    def b_node(self, a: tuple[Any, ...], b: tuple[Any, ...]) -> float:
        """B to move: min over its picks of A's expected leaf after B's attack dice."""
        fa, na, s2a, sca, ga, nga = a
        fb, nb, s2b, scb, gb, ngb = b
        results = self.results(fb, nb, s2b, scb, gb, ngb, fa, na)
        if not results:
            return self.leaf(fa, na, s2a, sca, ga, nga, fb, nb, scb, ngb)
        best = 2 * WIN
        for r in results:
            fb2, nb2, _s2b2, scb2, gb2, ngb2, fa2, na2, m, _pts = r
            if nb2 >= VERSUS_LOSS_AT:
                val = WIN
            elif scb2 >= self.target:
                val = -WIN
            else:
                val = 0.0
                for delta, p in ROLLS[m]:
                    val += p * self.leaf(fa2, na2, s2a, sca, ga + delta, nga + m,
                                         fb2, nb2, scb2, ngb2)
            if val < best:
                best = val
        return best

    def root_value(self, r: tuple[Any, ...], s2b: tuple[int, ...], scb: int, gb: int, ngb: int) -> float:
        fa, na, s2a, sca, ga, nga, fb, nb, m, _pts = r
        if na >= VERSUS_LOSS_AT:
            return -WIN
        if sca >= self.target:
            return WIN
        total = 0.0
        for delta, p in ROLLS[m]:
            total += p * self.b_node((fa, na, s2a, sca, ga, nga),
                                     (fb, nb, s2b, scb, gb + delta, ngb + m))
        return total


_V1_SEARCHES: dict[int, V1] = {}


def _v1(target: int) -> V1:
    search = _V1_SEARCHES.get(target)
    if search is None:
        search = _V1_SEARCHES[target] = V1(target)
    search.trim()
    return search


def versus1_choices(state: State, seat: int,
                    width: int = ROOT_WIDTH) -> list[tuple[float, Order, tuple[Any, ...]]]:
    me, opp = state.players[seat], state.players[1 - seat]
    search = _v1(state.target or 100)
    s2b, scb, gb, ngb = tuple(opp.stock[-2:]), opp.score, pack(opp.grace), len(opp.grace)
    moves = search.moves(pack(me.plate), len(me.plate), tuple(me.stock[-2:]), me.score,
                         pack(me.grace), len(me.grace), pack(opp.plate), len(opp.plate))
    ranked = sorted(moves, key=lambda e: (-search.static(e[1], scb, ngb), _tie(e[0])))
    out = []
    for i, (order, r) in enumerate(ranked):
        if i < width:
            val = search.root_value(r, s2b, scb, gb, ngb)
        else:
            val = search.static(r, scb, ngb) - 2 * WIN
        out.append((val, order, r))
    out.sort(key=lambda e: (-e[0], _tie(e[1])))
    return out


# ------------------------------------------------------------------------------ public

def versus_choices(state: State, seat: int,
                   width: int = ROOT_WIDTH) -> list[tuple[float, Order, tuple[Any, ...]]]:
    """Every legal move of ``seat`` (cancel choices left to the §3.7 default) with its
    expectimax value from ``seat``'s point of view, best first."""
    if state.variant is Variant.VERSUS2:
        return versus2_choices(state, seat, width)
    return versus1_choices(state, seat, width)


def leaf_value(state: State, seat: int) -> float:
    """The static leaf value of a position where ``seat`` is about to move (for tests)."""
    me, opp = state.players[seat], state.players[1 - seat]
    if state.variant is Variant.VERSUS2:
        search = V2(state.target)
        return search.leaf(pack(me.plate), len(me.plate), tuple(me.stock[-2:]), me.score,
                           len(opp.plate), _bomb_code(state, seat))
    search1 = V1(state.target or 100)
    return search1.leaf(pack(me.plate), len(me.plate), tuple(me.stock[-2:]), me.score,
                        pack(me.grace), len(me.grace), pack(opp.plate), len(opp.plate),
                        opp.score, len(opp.grace))


def _joined(parts: list[Msg]) -> Msg:
    """"a", "a and b", "a, b and c": the words and the order come from the catalogue (a
    list's items are separated the reader's way)."""
    if len(parts) == 1:
        return parts[0]
    return T("%(items)s and %(last)s", items=parts[:-1], last=parts[-1])


def explain(state: State, seat: int, order: Order, value: float, r: tuple[Any, ...]) -> Msg:
    """One line: what the move does now, and that it is the best expected over two rolls
    (a ``Msg``: the page says it in the reader's language)."""
    v = f"{value:+.1f}"
    if isinstance(order, Bomb):
        removed = state.players[seat].plate.count(order.face)
        return Tn("Use the bomb on your dice showing %(face)s: it clears %(count)s die and skips "
                  "the overflow check; the best expected position over the next two rolls "
                  "(%(value)s).",
                  "Use the bomb on your dice showing %(face)s: it clears %(count)s dice and skips "
                  "the overflow check; the best expected position over the next two rolls "
                  "(%(value)s).", removed, face=order.face, count=removed, value=v)
    from_opp = isinstance(order, Pick) and order.source is Source.OPPONENT
    me = state.players[seat]
    pts = r[-1] if state.variant is Variant.VERSUS1 else r[7]
    m = r[8] if state.variant is Variant.VERSUS1 else r[6]
    parts: list[Msg] = []
    if pts:
        parts.append(Tn("it scores %(points)s point", "it scores %(points)s points", pts,
                        points=pts))
    if m:
        parts.append(Tn("it rolls %(count)s die into the opponent's grace zone",
                        "it rolls %(count)s dice into the opponent's grace zone", m, count=m)
                     if state.variant is Variant.VERSUS1 else
                     Tn("it rolls %(count)s die into the opponent's field",
                        "it rolls %(count)s dice into the opponent's field", m, count=m))
    if state.variant is Variant.VERSUS2:
        stock = (me.stock + (order.face,))[-3:]
        if len(stock) == 3 and len(set(stock)) == 1:
            parts.append(T("it moves three dice onto the opponent's field"))
        if (me.score + pts) // 100 > me.score // 100:
            parts.append(T("it passes your whole field to the opponent"))
    now: Any = _joined(parts) if parts else T("nothing scores now")
    if value >= WIN - 1e-6:
        tail = T("it wins within two rolls whatever the dice and the reply")
    elif value >= WIN / 2:
        tail = T("it wins within two rolls in most lines (%(value)s)", value=v)
    elif value <= -WIN + 1e-6:
        tail = T("every move can lose within two rolls; this one is the least bad")
    else:
        tail = T("it keeps the best expected position over the opponent's reply and the next "
                 "two rolls (%(value)s)", value=v)
    if from_opp:
        return T("Pick a %(face)s from the opponent's field: %(now)s; %(tail)s.",
                 face=order.face, now=now, tail=tail)
    return T("Pick a %(face)s: %(now)s; %(tail)s.", face=order.face, now=now, tail=tail)


__all__ = ["versus_choices", "leaf_value", "explain", "roll_outcomes", "pack", "unpack",
           "ROOT_WIDTH", "SAMPLES", "WIN"]
