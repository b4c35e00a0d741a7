"""The press JSON API (docs/api.md), on the framework's API conventions (``games.api``:
token or session auth, ``{"ok": ...}`` answers, the same error shape):

- ``GET /api/matches/<id>/messages/?since=<id>``: the messages the caller may read, with
  an id above ``since``, oldest first (at most ``API_LIMIT``; ``more`` says if there are
  further ones);
- ``POST`` the same URL (a token needs the ``press`` or ``all`` scope) with ``{"to": "all" | "team" | [seat, ...], "text": "..."}`` →
  201 ``{"ok": true, "message": {...}}``; refusals ``PRESS_DISABLED``,
  ``NOT_A_PARTICIPANT``, ``TOO_LONG``, ``RATE_LIMITED`` (429 with ``Retry-After``) …
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games.api import _body, _match_for, api_view, error, refusals
from games.exceptions import ApplicationError
from games.forms import parse_int
from press import access, selectors, services

API_LIMIT = 200


@api_view(("GET", "POST"), scope="press")
@refusals
def messages(request: HttpRequest, match_id: str) -> JsonResponse:
    match = _match_for(request, match_id)
    if request.method == "POST":
        return _post(request, match)
    since = parse_int(request.GET.get("since", "0"))
    if since is None or since < 0:
        return error(400, "INVALID", _("since must be a whole number ≥ 0."), field="since")
    reader = access.reader_for(match, request.user)
    if reader is None:
        return error(404, "NOT_FOUND", _("No such match."))
    rows = list(selectors.readable(reader).filter(id__gt=since).order_by("id")[:API_LIMIT + 1])
    more = len(rows) > API_LIMIT
    out = [r.as_json() for r in selectors.rows_for(reader, rows[:API_LIMIT])]
    return JsonResponse({"ok": True, "messages": out, "more": more,
                         "last_id": max([since, *(m["id"] for m in out)])})


def _post(request: HttpRequest, match) -> JsonResponse:
    data = _body(request, frozenset({"to", "text"}))
    try:
        message = services.message_post(match=match, user=request.user,
                                        to=data.get("to", "all"), text=data.get("text"))
    except services.RateLimited as exc:
        resp = JsonResponse({"ok": False, "error": exc.as_dict()}, status=429)
        resp["Retry-After"] = str(exc.retry_after)
        return resp
    except ApplicationError as exc:
        return JsonResponse({"ok": False, "error": exc.as_dict()}, status=exc.client_status)
    reader = access.reader_for(match, request.user)
    row = selectors.rows_for(reader, [message])[0]
    return JsonResponse({"ok": True, "message": row.as_json()}, status=201)
