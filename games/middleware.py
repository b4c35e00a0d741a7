"""Marks a logged-in reader as "on the page" of a match for every GET of a URL with a
``match_id`` (the match page, its polls, a game's own table), so no "your move" email goes
to someone who is looking (``games.lib.presence``; a cache write, no query)."""

from __future__ import annotations

from django.utils.timezone import now as timezone_now

from games.lib import presence


class PresenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match_id = view_kwargs.get("match_id")
        user = getattr(request, "user", None)
        if (request.method == "GET" and isinstance(match_id, int) and user is not None
                and user.is_authenticated):
            try:
                presence.mark_seen(match_id=match_id, user_id=user.pk, now=timezone_now())
            except Exception:  # noqa: BLE001 - a cache outage must not break the page
                pass
        return None
