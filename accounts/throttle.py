"""Throttles over the cache, with maintained libraries: django-axes for logins (site and
admin: per IP and per account, a fixed cool-off so nobody is locked out for good) and
django-ratelimit for the rest (password-reset emails per address and per IP, signups per
IP, bad API tokens per IP). A refusal is a 429 with ``Retry-After``.

Windows and limits are settings (``THROTTLE_RATES``, ``AXES_*``) so tests and operators can
set them; the counters live in the default cache (Redis in production).
"""

from __future__ import annotations

import hashlib
import math

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from axes.handlers.cache import AxesCacheHandler
from axes.helpers import get_cache
from django_ratelimit.core import get_usage

from config.cache import cache_down


def client_ip(request: HttpRequest) -> str:
    """The address to count against. Behind our proxy (``BEHIND_PROXY``) it is the last
    ``X-Forwarded-For`` entry, the one the proxy itself appended (earlier ones are
    whatever the client sent); otherwise the socket's address."""
    if settings.SECURE_PROXY_SSL_HEADER is not None:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last[:64]
    return request.META.get("REMOTE_ADDR") or "0.0.0.0"


def _ip_key(group: str, request: HttpRequest) -> str:
    return client_ip(request)


class ThrottleUnavailable(Exception):
    """The cache that holds the counters is unreachable: the throttle cannot count, so
    what it guards is refused for a moment (fails closed) rather than left unguarded."""


def retry_after(request: HttpRequest, group: str, value: str | None = None, *,
                increment: bool = True) -> int | None:
    """Count one more ``group`` event for ``value`` (the client's IP when None); the
    seconds to wait when its rate (``THROTTLE_RATES[group]``) is now exceeded, else None.
    Raises :class:`ThrottleUnavailable` while the cache is down (``config.cache``)."""
    rate = settings.THROTTLE_RATES[group]
    key = (lambda g, r: value) if value is not None else _ip_key
    usage = get_usage(request, group=f"throttle.{group}", key=key, rate=rate,
                      increment=increment)
    if cache_down():
        raise ThrottleUnavailable(group)
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def email_key(email: str) -> str:
    """A cache key for an address: normalised, hashed (no address in the cache)."""
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()


def too_many(request: HttpRequest, seconds: int, *, json: bool = False) -> HttpResponse:
    """The 429 answer: a page, or the API's JSON error shape."""
    minutes = max(1, math.ceil(seconds / 60))
    message = _("Too many attempts. Try again in %(minutes)d minute(s).") % {"minutes": minutes}
    if json:
        response: HttpResponse = JsonResponse(
            {"ok": False, "error": {"code": "THROTTLED", "message": message, "field": None,
                                    "details": {"retry_after": seconds}}}, status=429)
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def unavailable(request: HttpRequest, *, json: bool = False) -> HttpResponse:
    """The 503 answer while the throttles' cache is down: a page, or the API's JSON shape."""
    seconds = int(settings.CACHE_RETRY_SECONDS) * 2
    message = _("This is paused for a moment while a part of the server is unreachable. "
                "Nothing was changed; try again in a minute.")
    if json:
        response: HttpResponse = JsonResponse(
            {"ok": False, "error": {"code": "SERVICE_UNAVAILABLE", "message": message,
                                    "field": None, "details": {"retry_after": seconds}}},
            status=503)
    else:
        response = render(request, "429.html", {"message": message, "unavailable": True},
                          status=503)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


def axes_lockout(request: HttpRequest, original_response: HttpResponse | None = None,
                 credentials: dict | None = None) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: locked logins (site and admin) get the 429 page with
    the cool-off as ``Retry-After``; while the cache is down, the 503 page."""
    if cache_down():
        return unavailable(request)
    return too_many(request, int(settings.AXES_COOLOFF_TIME.total_seconds()))


class AxesHandler(AxesCacheHandler):
    """django-axes over the cache, failing closed: while the cache is down it cannot count
    failures, so no login is allowed (the 503 page) until it is back. Players already
    logged in keep playing (sessions are in the database)."""

    @property
    def cache(self):  # type: ignore[no-untyped-def]
        """The cache as configured now, in this thread (axes keeps the one it found at
        start-up, which outlives a settings change and is shared across threads)."""
        return get_cache()

    @cache.setter
    def cache(self, value) -> None:  # type: ignore[no-untyped-def]
        pass

    def is_allowed(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        allowed = super().is_allowed(request, credentials)
        return allowed and not cache_down()
