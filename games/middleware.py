"""The match pages' two middlewares: presence ("on the page") and the poll's shortcut.

``PresenceMiddleware`` marks a logged-in reader as "on the page" of a match for every GET
of a URL with a ``match_id`` (the match page, its polls, a game's own table), so no "your
move" email goes to someone who is looking (``games.lib.presence``; a cache write, no
query).

``FastPollMiddleware`` (right after the session middleware) answers an unchanged htmx poll
with 204 before the rest of the stack runs (``games.lib.polls``): no user row, no
preferences, no view; it marks presence itself. Anything else passes through untouched.
"""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils.timezone import now as timezone_now

from games.lib import polls, presence


def _mark_seen(request, match_id: int) -> None:
    # the user id from the session: the user row is not loaded for this
    session = getattr(request, "session", None)
    user_id = session.get(SESSION_KEY) if session is not None else None
    if user_id is None:
        return
    try:
        presence.mark_seen(match_id=match_id, user_id=int(user_id), now=timezone_now())
    except Exception:  # noqa: BLE001 - a cache outage must not break the page
        pass


class PresenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match_id = view_kwargs.get("match_id")
        if request.method == "GET" and isinstance(match_id, int):
            _mark_seen(request, match_id)
        return None


class FastPollMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and "v=" in request.META.get("QUERY_STRING", ""):
            answer = self._shortcut(request)
            if answer is not None:
                return answer
        return self.get_response(request)

    @staticmethod
    def _shortcut(request) -> HttpResponse | None:
        try:
            found = resolve(request.path_info)
        except Resolver404:
            return None
        spec = getattr(found.func, "fast_poll", None)
        if not isinstance(spec, polls.FastPoll):
            return None
        request.get_host()  # a bad Host header is refused here as on the full way (400)
        if not polls.answers_204(request, spec, found.kwargs):
            return None
        match_id = found.kwargs.get("match_id")
        if isinstance(match_id, int):
            _mark_seen(request, match_id)
        return HttpResponse(status=204)
