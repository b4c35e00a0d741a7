"""Reads for the Dice Slayer pages: the leaderboards, the player's games, the open versus
games, and the replay of a match rebuilt from its seed and its recorded moves.

The replay does not trust the stored snapshots: it runs ``engine.setup`` with the match
seed, then for every closed phase submits the recorded orders (defaults and bot moves
included, they are Order rows too) and resolves with the phase seed, exactly as the
framework did. Pages show each position only through ``engine.player_view``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable

from django.db.models import Count, Max, Q, Sum

from diceslayer import engine
from diceslayer.models import Challenge, DailyAttempt
from games.lib import pages as game_pages
from games.models import Match, Order, Phase

LEADERBOARD_SIZE = 50


def daily_leaderboard(day: date, *, limit: int = LEADERBOARD_SIZE) -> list[DailyAttempt]:
    """Finished attempts of ``day``, best first (earlier finish breaks ties)."""
    return list(DailyAttempt.objects.filter(day=day, score__isnull=False)
                .select_related("user").order_by("-score", "finished_at", "pk")[:limit])


@dataclass(frozen=True)
class Ranked:
    """A leaderboard row with its rank: equal keys share a rank (1, 1, 3: "competition"
    ranking), so a tie never looks like a win."""

    rank: int
    row: Any


def ranked(rows: list[Any], *, key: Callable[[Any], Any]) -> list[Ranked]:
    """``rows`` (already best first) with shared ranks for equal ``key``.

    >>> [r.rank for r in ranked([5, 5, 3], key=lambda x: x)]
    [1, 1, 3]
    """
    out: list[Ranked] = []
    for i, row in enumerate(rows):
        rank = out[-1].rank if out and key(out[-1].row) == key(row) else i + 1
        out.append(Ranked(rank=rank, row=row))
    return out


def daily_players(day: date) -> int:
    """How many players started ``day``'s challenge."""
    return DailyAttempt.objects.filter(day=day).count()


@dataclass(frozen=True)
class AllTimeRow:
    username: str
    best: int
    days: int
    total: int


def alltime_leaderboard(*, limit: int = LEADERBOARD_SIZE) -> list[AllTimeRow]:
    """Every player's best daily score (with days played and their total), best first."""
    rows = (DailyAttempt.objects.filter(score__isnull=False).values("user__username")
            .annotate(best=Max("score"), days=Count("id"), total=Sum("score"))
            .order_by("-best", "-total", "user__username")[:limit])
    return [AllTimeRow(username=r["user__username"], best=r["best"], days=r["days"],
                       total=r["total"]) for r in rows]


def daily_attempt(user: Any, day: date) -> DailyAttempt | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return DailyAttempt.objects.filter(user=user, day=day).select_related("match").first()


def my_games(user: Any) -> list[game_pages.MyMatch]:
    """The user's Dice Slayer matches with "your move" markers (the framework's lobby query,
    three queries whatever the number of games)."""
    return [m for m in game_pages.my_matches(user) if m.match.game == engine.SLUG]


def open_versus_games(user: Any) -> list[Match]:
    """Public versus games waiting for a second player (not the user's own)."""
    qs = (Match.objects.filter(game=engine.SLUG, status=Match.Status.FORMING, is_private=False)
          .select_related("created_by").order_by("-created_at"))
    if getattr(user, "is_authenticated", False):
        qs = qs.exclude(seats__user=user)
    return list(qs[:30])


def is_challenged(match: Match, user: Any) -> bool:
    """Whether ``user`` is the player a challenge of ``match`` names (they may open its
    page to accept or decline before they have a seat)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return Challenge.objects.filter(match_id=match.pk, opponent=user).exists()


def challenge_of(match: Match) -> Challenge | None:
    return (Challenge.objects.select_related("challenger", "opponent")
            .filter(match_id=match.pk).first())


def challenges_for_home(user: Any, *, limit: int = 30) -> tuple[list[Challenge], list[Challenge]]:
    """(pending challenges for ``user`` to answer, oldest first; ``user``'s latest
    challenges not accepted yet or never — pending, declined, expired, withdrawn), in one
    query."""
    if not getattr(user, "is_authenticated", False):
        return [], []
    rows = list(Challenge.objects.filter(
        Q(opponent=user, status=Challenge.Status.PENDING)
        | (Q(challenger=user) & ~Q(status=Challenge.Status.ACCEPTED)))
        .select_related("challenger", "opponent").order_by("-created_at")[:limit])
    received = [c for c in rows if c.opponent_id == user.pk and c.is_pending]
    sent = [c for c in rows if c.challenger_id == user.pk][:10]
    return received[::-1], sent


@dataclass
class ReplayStep:
    """One position of a replay: ``state`` after ``phase`` closed (``None``: the start)."""

    index: int
    state: Any
    phase: Phase | None = None
    orders: list[dict[str, Any]] = field(default_factory=list)


class ReplayMismatch(RuntimeError):
    """Replaying the seed and the moves did not give the stored state."""


def replay_steps(match: Match) -> list[ReplayStep]:
    """Every position of ``match`` from its seed and its recorded moves, in two queries.

    Raises :class:`ReplayMismatch` if the result differs from the stored state (it never
    should: engines are pure and every move is recorded).
    """
    if match.state is None:
        return []
    seats = sorted(match.seats.exclude(number__isnull=True).values_list("number", flat=True))
    state = engine.setup(match.config, list(seats), match.seed)
    steps = [ReplayStep(index=0, state=state)]
    phases = list(Phase.objects.filter(match=match, closed_at__isnull=False).order_by("number"))
    by_phase: dict[int, list[Order]] = {}
    for order in Order.objects.filter(phase__match=match).select_related("seat").order_by("id"):
        by_phase.setdefault(order.phase_id, []).append(order)
    for phase in phases:
        moves = []
        for order in by_phase.get(phase.pk, []):
            state = engine.submit(state, order.seat.number, order.payload).state
            moves.append({"seat": order.seat.number, "order": order.payload,
                          "default": order.is_default})
        state = engine.resolve(state, phase.seed).state
        steps.append(ReplayStep(index=len(steps), state=state, phase=phase, orders=moves))
    closed = {p.pk for p in phases}
    # An accepted move of the open phase is in the stored state but not yet resolved.
    if all(pid in closed for pid in by_phase) and engine.dump(state) != match.state:
        raise ReplayMismatch(f"match {match.pk}: replay differs from the stored state")
    return steps
