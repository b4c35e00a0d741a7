"""The director's desk through the JSON API (docs/api.md "Director"): pause, resume, extend
the open deadline (bounded by ``MAX_EXTEND_HOURS``), close the open phase now, cancel (end)
a match. Staff accounts only, with a session or a ``director`` / ``all`` token; each action
is the service the admin's director pages call (``games.services.director``), which logs a
``DirectorAction``. Opening a seat for a replacement is ``players.api``'s.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from games import selectors
from games.api import _body, _match_for, _Refused, api_view, error, ok, refusals
from games.models import Match
from games.services import director

NOT_DIRECTOR = gettext_noop("Only the director (a staff account) can do this.")


def require_director(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise _Refused(error(403, "NOT_DIRECTOR", gettext(NOT_DIRECTOR)))


def _state(match: Match) -> dict[str, Any]:
    match.refresh_from_db()
    phase = selectors.current_phase(match) if match.status in (
        Match.Status.RUNNING, Match.Status.PAUSED) else None
    return {"id": match.pk, "status": match.status, "version": match.version,
            "phase": None if phase is None else {
                "id": phase.pk, "number": phase.number, "kind": phase.kind,
                "deadline_at": phase.deadline_at.isoformat() if phase.deadline_at else None,
                "closed": phase.closed_at is not None}}


def _open_phase(match: Match):
    phase = selectors.current_phase(match)
    if phase is None or phase.closed_at is not None:
        raise _Refused(error(409, "NO_OPEN_PHASE", _("There is no open phase.")))
    return phase


def _director_match(request: HttpRequest, match_id: str) -> Match:
    match = _match_for(request, match_id)
    require_director(request)
    return match


@api_view(("POST",), scope="director")
@refusals
def pause(request: HttpRequest, match_id: str) -> JsonResponse:
    match = _director_match(request, match_id)
    _body(request, frozenset())
    director.match_pause(match=match, actor=request.user)
    return ok(match=_state(match))


@api_view(("POST",), scope="director")
@refusals
def resume(request: HttpRequest, match_id: str) -> JsonResponse:
    match = _director_match(request, match_id)
    _body(request, frozenset())
    director.match_resume(match=match, actor=request.user)
    return ok(match=_state(match))


@api_view(("POST",), scope="director")
@refusals
def extend(request: HttpRequest, match_id: str) -> JsonResponse:
    """Body ``{"hours": 12, "request_id": "..."}``: the open deadline ``hours`` later
    (0 < hours ≤ ``MAX_EXTEND_HOURS``); the same ``request_id`` twice applies once."""
    match = _director_match(request, match_id)
    data = _body(request, frozenset({"hours", "request_id"}))
    hours = data.get("hours")
    if isinstance(hours, bool) or not isinstance(hours, (int, float)):
        return error(400, "INVALID", _("hours must be a number."), field="hours")
    request_id = data.get("request_id")
    if request_id is not None and (not isinstance(request_id, str) or not 0 < len(request_id) <= 64):
        return error(400, "INVALID", _("request_id must be a string of 1 to 64 characters."),
                     field="request_id")
    phase = _open_phase(match)
    token = (hashlib.sha256(f"api:{request.user.pk}:{request_id}".encode()).hexdigest()
             if request_id else None)
    applied = director.phase_extend(phase=phase, hours=hours, actor=request.user, token=token)
    return ok(applied=applied, match=_state(match))


@api_view(("POST",), scope="director")
@refusals
def close_now(request: HttpRequest, match_id: str) -> JsonResponse:
    match = _director_match(request, match_id)
    _body(request, frozenset())
    closed = director.phase_close_now(phase=_open_phase(match), actor=request.user)
    return ok(closed=bool(closed), match=_state(match))


@api_view(("POST",), scope="director")
@refusals
def cancel(request: HttpRequest, match_id: str) -> JsonResponse:
    """Body ``{"reason": "..."}``: end the match now (a forming one is cancelled; a running
    one finishes with no winner), as the admin's "End" does."""
    match = _director_match(request, match_id)
    data = _body(request, frozenset({"reason"}))
    reason = data.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        return error(400, "INVALID", _("reason is required: 1 to 200 characters."), field="reason")
    director.match_end(match=match, actor=request.user, reason=reason.strip())
    return ok(match=_state(match))
