"""A database outage answers 503 with ``Retry-After``, never a 500 (docs/operations.md).

Two doors, one answer (:func:`outage_response`):

- :class:`DatabaseOutageMiddleware` turns an ``OperationalError`` / ``InterfaceError``
  raised by a view into the answer (``process_exception``);
- :func:`server_error`, the project's ``handler500``, does the same for one raised by a
  middleware (a session or user lookup), and is Django's plain 500 page otherwise.

Pages get ``503.html`` rendered without a request context (the context processors would
query the dead database); the JSON API (``/api/``) and clients asking for JSON get the
API's error shape ``{"ok": false, "error": {"code", "message", "field", "details"}}``.
"""

from __future__ import annotations

import logging
import sys
from typing import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults
from django.utils.translation import gettext, gettext_noop

from accounts import throttle
from games.lib.transient import is_database_outage

log = logging.getLogger(__name__)

OUTAGE_CODE = "SERVICE_UNAVAILABLE"
OUTAGE_MESSAGE = gettext_noop(
    "The database is unreachable for a moment. Nothing was changed; try again shortly.")


def _wants_json(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return (request.path_info.startswith("/api/")
            or ("application/json" in accept and "text/html" not in accept))


def outage_response(request: HttpRequest) -> HttpResponse:
    seconds = settings.OUTAGE_RETRY_AFTER_SECONDS
    response: HttpResponse
    if _wants_json(request):
        response = JsonResponse({"ok": False, "error": {
            "code": OUTAGE_CODE, "message": gettext(OUTAGE_MESSAGE), "field": None,
            "details": {"retry_after": seconds}}}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"retry_after": seconds}),
                                status=503)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOutageMiddleware:
    """A view that hits a dead database answers 503, not 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, throttle.ThrottleUnavailable):
            return throttle.unavailable(request, json=_wants_json(request))
        if is_cache_outage(exception):
            log.warning("cache outage on %s %s: %r", request.method, request.path, exception)
            return outage_response(request)
        if not is_database_outage(exception):
            return None
        log.warning("database outage on %s %s: %r", request.method, request.path, exception)
        return outage_response(request)


def is_cache_outage(exc: BaseException) -> bool:
    """Redis refused or timed out where a caller reached it directly (the cache backend
    itself turns an outage into a miss, ``config.cache``): a 503, never a 500."""
    import redis

    return isinstance(exc, (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError))


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """``handler500``: a database or Redis outage raised outside a view is a 503 too."""
    exc = sys.exc_info()[1]
    if exc is not None and isinstance(exc, throttle.ThrottleUnavailable):
        return throttle.unavailable(request, json=_wants_json(request))
    if exc is not None and (is_database_outage(exc) or is_cache_outage(exc)):
        return outage_response(request)
    return defaults.server_error(request, template_name=template_name)
