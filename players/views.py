"""Public player pages: a profile per player and a leaderboard per game."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games import registry
from players import selectors

MODE_NAMES = {"ffa": "Free-for-all", "teams": "Teams", "districts": "Districts",
              "identity": "Identity", "versus": "Versus", "solo": "Solo", "daily": "Daily"}


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(request, "players/profile.html", {
        "player": user, "mode_names": MODE_NAMES, **selectors.profile(user)})


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    try:
        entry = registry.get_game(game)
    except registry.UnknownGame:
        raise Http404("No such game.") from None
    boards = [(MODE_NAMES.get(mode, mode), rows)
              for mode, rows in selectors.leaderboard(entry.slug).items()]
    return render(request, "players/leaderboard.html", {
        "game": entry, "boards": boards, "games": registry.all_games()})
