"""Junk in a request's address or form is a 400 with a clear message, never a 500.

PostgreSQL refuses text with a NUL byte (``DataError``), so a ``%00`` in a path parameter
(``/players/u/%00/``) or a query value reached the database as an error. This middleware,
early in the stack, refuses a request whose path, query string or form (urlencoded or multipart) holds a
NUL or another control character (C0 and DEL; tabs and line breaks stay allowed in form
values, where a text box may hold them) before any view or lookup sees it. The answer is
a small page (or the API's JSON error shape) that says what was wrong.
docs/security.md "No 5xx on any input".
"""

from __future__ import annotations

import re
from typing import Callable
from urllib.parse import parse_qsl

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

#: never in an address: every C0 control and DEL
_IN_PATH = re.compile(r"[\x00-\x1f\x7f]")
#: never in a form or query value: the same, except tab, line feed and carriage return
_IN_VALUE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
MAX_CHECKED_BODY = 1024 * 1024  # larger form bodies are refused by Django's own limits


def bad_part(request: HttpRequest) -> str | None:
    """Which part of the request holds a control character ("address", "query", "form"),
    or None when it is clean."""
    if _IN_PATH.search(request.path_info) or _IN_PATH.search(request.path):
        return "address"
    query = request.META.get("QUERY_STRING", "")
    if "%" in query or _IN_VALUE.search(query):
        for key, value in parse_qsl(query, keep_blank_values=True):
            if _IN_PATH.search(key) or _IN_VALUE.search(value):
                return "query"
    if request.method == "POST" and request.content_type in FORM_TYPES:
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0
        if 0 < size <= MAX_CHECKED_BODY:
            for key, values in request.POST.lists():
                if _IN_PATH.search(key) or any(_IN_VALUE.search(v) for v in values):
                    return "form"
    return None


def refusal(request: HttpRequest, part: str) -> HttpResponse:
    messages = {
        "address": _("The address holds a control character (such as %00): there is no such "
                     "page."),
        "query": _("The address's query holds a control character (such as %00)."),
        "form": _("A form field holds a control character (such as a NUL byte). Remove it "
                  "and send the form again."),
    }
    message = str(messages[part])
    if request.path_info.startswith("/api/"):
        return JsonResponse({"ok": False, "error": {"code": "BAD_INPUT", "message": message,
                                                    "field": None, "details": {"part": part}}},
                            status=400)
    return HttpResponse(render_to_string("bad_input.html", {"message": message}), status=400)


class BadInputMiddleware:
    """Refuse control characters in the address, the query and forms (400)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        part = bad_part(request)
        if part is None:
            return self.get_response(request)
        # before the locale middleware: answer in the browser's language
        with translation.override(translation.get_language_from_request(request)):
            return refusal(request, part)
