"""Template context of every page: the reader's "your move" count (nav badge and the
"(2) Phases" title), read lazily and at most once per request, from the same single query
as the "My games" page (``selectors.my_games``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games import selectors


def my_games_for_request(request: HttpRequest) -> list[selectors.MyGame]:
    """``selectors.my_games`` of the request's user, memoised on the request."""
    if not hasattr(request, "_my_games"):
        request._my_games = selectors.my_games(getattr(request, "user", None))  # type: ignore[attr-defined]
    return request._my_games  # type: ignore[attr-defined]


def your_move_count_known(request: HttpRequest, count: int) -> None:
    """A view that loaded the reader's seats itself (the lobby's "My matches", same rule
    as ``MyGame.your_move``) hands the count over: the nav needs no query of its own."""
    request._your_move_count = count  # type: ignore[attr-defined]


class _Count:
    """A number the template reads only if it shows it (no query on fragments)."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request

    def __call__(self) -> int:
        known = getattr(self.request, "_your_move_count", None)
        if known is not None:
            return int(known)
        return sum(1 for g in my_games_for_request(self.request) if g.your_move)


def your_move(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_move_count": _Count(request)}
