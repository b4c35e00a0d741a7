"""Activate the logged-in user's time zone and language for every request (a profile
with no language chosen keeps the browser's, as ``LocaleMiddleware`` found it).

The preferences come from the cache (``display_prefs``), keyed by the user id in the
session, so a request that needs nothing else of the user — the htmx poll answering 204 —
loads neither the user nor the profile row. A saved profile drops its cache entry
(``accounts.signals``).
"""

from __future__ import annotations

import zoneinfo

from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.utils import timezone, translation

PREFS_TTL = 600


def prefs_key(user_id: object) -> str:
    return f"prefs:{user_id}"


def display_prefs(user_id: object) -> tuple[str, str] | None:
    """(time zone, language) of the user, cached; None without a profile."""
    from accounts.models import Profile

    key = prefs_key(user_id)
    try:
        prefs = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is an accelerator
        prefs = None
    if prefs is None:
        row = Profile.objects.filter(user_id=user_id).values_list("timezone", "language").first()
        prefs = tuple(row) if row else ()
        try:
            cache.set(key, prefs, PREFS_TTL)
        except Exception:  # noqa: BLE001
            pass
    return prefs or None  # type: ignore[return-value]


class UserTimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        user_id = session.get(SESSION_KEY) if session is not None else None
        # a session whose user is gone only picks a display format: nothing is shown by it
        prefs = display_prefs(user_id) if user_id is not None else None
        if prefs is not None:
            tz, language = prefs
            try:
                timezone.activate(zoneinfo.ZoneInfo(tz))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            if language:  # none chosen: the browser's, as LocaleMiddleware found it
                translation.activate(language)
                request.LANGUAGE_CODE = language
        else:
            timezone.deactivate()
        return self.get_response(request)
