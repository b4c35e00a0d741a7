"""Ratings when a match ends: which rating a match counts for (game and mode), who placed
where, and the Glicko-2 update of every rated player — in the close's own transaction.

The game names the mode (``GameHooks.rating_mode``); the mode decides the pairing:

- a side mode (``SIDE_MODES``: teams, districts, identity): each winner beat each loser;
  players on the same side (or among the losers) are not paired. A draw pairs everyone.
- a par mode (``PAR_MODES``: solo, daily): one game against a par opponent
  (``RATING_SOLO_PAR`` points, rated 1500) — above par a win, at par a draw.
- any other mode: a placement by the outcome's scores (winners first), every pair of
  players a game.
Bots and director-ended matches are not rated; nor is a match whose rules say unrated.
"""

from __future__ import annotations

from django.conf import settings

from games import registry
from games.models import Match, Seat
from players import glicko2
from players.models import MatchRules, Rating, RatingChange

SIDE_MODES = {"teams", "districts", "identity"}
PAR_MODES = {"solo", "daily"}
PAR = glicko2.Rating(1500.0, 50.0)


def rating_mode(match: Match) -> str | None:
    """The mode a match is rated in (None: not rated): the game's ``GameHooks.rating_mode``,
    else ``"standard"`` (a placement by its outcome)."""
    try:
        hook = registry.get_game(match.game).hooks.rating_mode
    except registry.UnknownGame:
        hook = None
    return hook(match) if hook is not None else "standard"


def _pairs(mode: str, seats: list[int], outcome: dict) -> dict[int, list[tuple[int, float]]]:
    winners = {int(w) for w in outcome.get("winners", [])}
    scores = {int(k): v for k, v in (outcome.get("scores") or {}).items()}
    if mode in SIDE_MODES and winners:
        out: dict[int, list[tuple[int, float]]] = {s: [] for s in seats}
        for w in seats:
            if w not in winners:
                continue
            for loser in seats:
                if loser not in winners:
                    out[w].append((loser, 1.0))
                    out[loser].append((w, 0.0))
        return out
    # placement: winners first, then by score (higher better); equal keys draw
    keyed = {s: (0 if s in winners else 1, -scores.get(s, 0)) for s in seats}
    if mode in SIDE_MODES:  # a draw of sides: everyone level
        keyed = {s: (0, 0) for s in seats}
    order = sorted(set(keyed.values()))
    return glicko2.placement_results({s: order.index(k) for s, k in keyed.items()})


def match_rate(match: Match) -> list[RatingChange]:
    """Rate a finished match once (a second call changes nothing)."""
    outcome = match.outcome or {}
    if outcome.get("ended_by_director") or match.status != Match.Status.FINISHED:
        return []
    rules = MatchRules.objects.filter(match=match).first()
    if rules is not None and not rules.rated:
        return []
    mode = rating_mode(match)
    if mode is None or RatingChange.objects.filter(match=match).exists():
        return []
    seats = {s.number: s.user_id for s in Seat.objects.filter(
        match=match, user__isnull=False, is_bot=False, number__isnull=False)}
    if not seats:
        return []
    existing = {r.user_id: r for r in Rating.objects.select_for_update().filter(
        game=match.game, mode=mode, user_id__in=seats.values())}
    ratings = {uid: existing.get(uid) or Rating(user_id=uid, game=match.game, mode=mode)
               for uid in seats.values()}
    before = {uid: r.as_glicko() for uid, r in ratings.items()}
    if len(seats) == 1 or mode in PAR_MODES:
        number, uid = next(iter(seats.items()))
        score = (outcome.get("scores") or {}).get(str(number), 0)
        par = settings.RATING_SOLO_PAR
        result = 1.0 if score > par else 0.5 if score == par else 0.0
        results = {uid: [glicko2.Result(PAR, result)]}
    else:
        pairs = _pairs(mode, sorted(seats), outcome)
        results = {seats[s]: [glicko2.Result(before[seats[o]], score) for o, score in pairs[s]]
                   for s in seats}
    changes = []
    for uid, res in results.items():
        if not res:
            continue
        rating = ratings[uid]
        new = glicko2.rate(before[uid], res)
        changes.append(RatingChange(match=match, user_id=uid, game=match.game, mode=mode,
                                    rating_before=rating.rating, rating_after=new.rating,
                                    rd_after=new.rd))
        rating.rating, rating.rd, rating.volatility = new.rating, new.rd, new.volatility
        rating.games += 1
        rating.save()
    RatingChange.objects.bulk_create(changes)
    return changes
