"""Marks a logged-in reader as "on the page" of a match for every GET of a URL with a
``match_id`` (the match page, its polls, a game's own table), so no "your move" email goes
to someone who is looking (``games.lib.presence``; a cache write, no query)."""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY
from django.utils.timezone import now as timezone_now

from games.lib import presence


class PresenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match_id = view_kwargs.get("match_id")
        # the user id from the session: the user row is not loaded for this (the 204 poll
        # reads no user at all)
        session = getattr(request, "session", None)
        user_id = session.get(SESSION_KEY) if session is not None else None
        if request.method == "GET" and isinstance(match_id, int) and user_id is not None:
            try:
                presence.mark_seen(match_id=match_id, user_id=int(user_id), now=timezone_now())
            except Exception:  # noqa: BLE001 - a cache outage must not break the page
                pass
        return None
