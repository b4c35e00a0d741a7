"""Read-only queries for profiles and leaderboards (a bounded number of queries each)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Sum

from games import registry
from games.models import Match, Seat
from players.models import LeftSeat, Rating, SeatRecord


@dataclass
class GameTally:
    slug: str
    name: str
    played: int = 0
    finished: int = 0
    won: int = 0
    ratings: list[Rating] = field(default_factory=list)


def _game_name(slug: str) -> str:
    try:
        return registry.get_game(slug).name
    except registry.UnknownGame:
        return slug


def profile(user) -> dict:
    """Everything a public profile shows: tallies and ratings per game, running public
    matches, reliability, the finished-match archive and seats left to a replacement."""
    seats = list(Seat.objects.filter(user=user, number__isnull=False)
                 .exclude(match__status=Match.Status.CANCELLED)
                 .select_related("match").defer("match__state", "match__config")
                 .order_by("-match__created_at"))
    tallies: dict[str, GameTally] = {}
    running, archive = [], []
    for seat in seats:
        m = seat.match
        t = tallies.setdefault(m.game, GameTally(m.game, _game_name(m.game)))
        t.played += 1
        if m.status == Match.Status.FINISHED:
            t.finished += 1
            won = seat.number in ((m.outcome or {}).get("winners") or [])
            t.won += won
            if not m.is_private:
                archive.append({"match": m, "won": won, "game_name": t.name})
        elif m.status == Match.Status.RUNNING and not m.is_private:
            running.append({"match": m, "game_name": t.name})
    for rating in Rating.objects.filter(user=user):
        tallies.setdefault(rating.game, GameTally(rating.game, _game_name(rating.game)))
        tallies[rating.game].ratings.append(rating)
    totals = SeatRecord.objects.filter(seat__user=user).aggregate(
        awaited=Sum("awaited"), missed=Sum("missed"))
    awaited, missed = totals["awaited"] or 0, totals["missed"] or 0
    return {
        "tallies": sorted(tallies.values(), key=lambda t: t.name),
        "running": running,
        "archive": archive[:50],
        "reliability": None if not awaited else round(100 * (awaited - missed) / awaited),
        "phases_awaited": awaited,
        "left": list(LeftSeat.objects.filter(user=user).select_related("match", "replaced_by")),
    }


def leaderboard(game: str, *, limit: int = 100) -> dict[str, list[Rating]]:
    """Per mode, the established players by rating, then the provisional ones."""
    boards: dict[str, list[Rating]] = defaultdict(list)
    rows = (Rating.objects.filter(game=game).select_related("user", "user__profile")
            .order_by("mode", "-rating"))
    for r in rows:
        boards[r.mode].append(r)
    out = {}
    for mode, ratings in sorted(boards.items()):
        settled = [r for r in ratings if r.games >= settings.RATING_PROVISIONAL_GAMES]
        provisional = [r for r in ratings if r.games < settings.RATING_PROVISIONAL_GAMES]
        out[mode] = (settled + provisional)[:limit]
    return out
