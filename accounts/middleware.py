"""Activate the logged-in user's time zone and language for every request."""

from __future__ import annotations

import zoneinfo

from django.utils import timezone, translation


class UserTimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
        if profile is not None:
            try:
                timezone.activate(zoneinfo.ZoneInfo(profile.timezone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            translation.activate(profile.language)
            request.LANGUAGE_CODE = profile.language
        else:
            timezone.deactivate()
        return self.get_response(request)
