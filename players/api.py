"""Absence through the JSON API (docs/api.md "Away and takeover"): away periods, a match's
seats (absent, away, open for a new player), the takeover vote, claiming an open seat, the
emergency pause, and the director opening a seat. Each calls the service the pages call
(``players.away``, ``players.takeover``) with the pages' permissions; authentication,
scopes and the error shape are ``games.api``'s.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.utils.timezone import now as timezone_now

from games.api import _body, _match_for, _Refused, api_view, error, ok, refusals
from games.api_director import require_director
from games.forms import parse_int
from games.models import Match, Seat
from games.selectors import seat_for_user
from players import takeover
from players.away import away_cancel, away_declare, away_until
from players.forms import AwayForm
from players.models import Away, EmergencyPause, SeatRecord, TakeoverVote


def _away_json(period: Away) -> dict[str, Any]:
    return {"id": period.pk, "starts_at": period.starts_at.isoformat(),
            "ends_at": period.ends_at.isoformat()}


@api_view(("GET", "POST"), scope="lobby")
@refusals
def away(request: HttpRequest) -> JsonResponse:
    """GET: my away periods not over yet; POST ``{"first": "2026-12-24", "last":
    "2026-12-27"}`` (days in my time zone): declare one (201), bounded as on the page."""
    if request.method == "POST":
        data = _body(request, frozenset({"first", "last"}))
        form = AwayForm({k: v for k, v in data.items() if isinstance(v, str)})
        for key in ("first", "last"):
            if not isinstance(data.get(key), str):
                return error(400, "INVALID", f"{key} is required: a date, YYYY-MM-DD.", field=key)
        if not form.is_valid():
            field, msgs = next(iter(form.errors.items()))
            return error(400, "INVALID", f"{field}: {msgs[0]}", field=field)
        period = away_declare(user=request.user, first=form.cleaned_data["first"],
                              last=form.cleaned_data["last"])
        response = ok(away=_away_json(period))
        response.status_code = 201
        return response
    periods = Away.objects.filter(user=request.user, ends_at__gt=timezone_now())
    return ok(away=[_away_json(p) for p in periods], max_days=settings.AWAY_MAX_DAYS,
              window_days=settings.AWAY_WINDOW_DAYS)


@api_view(("POST",), scope="lobby")
@refusals
def away_cancel_view(request: HttpRequest, away_id: str) -> JsonResponse:
    """End (or drop, if not begun) one of my away periods."""
    pk = parse_int(away_id)
    period = Away.objects.filter(pk=pk, user=request.user).first() if pk and pk > 0 else None
    if period is None:
        return error(404, "NOT_FOUND", "No such away period.")
    _body(request, frozenset())
    away_cancel(away=period, user=request.user)
    return ok(cancelled=True)


def _seat(match: Match, number: str) -> Seat:
    n = parse_int(number)
    seat = (Seat.objects.select_related("user").filter(match=match, number=n).first()
            if n is not None and 0 <= n < 10_000 else None)
    if seat is None:
        raise _Refused(error(404, "NOT_FOUND", "No such seat."))
    return seat


@api_view(("GET",))
@refusals
def seats(request: HttpRequest, match_id: str) -> JsonResponse:
    """Who holds each seat, who is away or absent, which seats are open, my votes."""
    match = _match_for(request, match_id)
    mine = seat_for_user(match, request.user)
    rows = list(Seat.objects.filter(match=match, number__isnull=False).select_related("user"))
    records = {r.seat_id: r for r in SeatRecord.objects.filter(seat__match=match)}
    away_map = away_until([s.user_id for s in rows if s.user_id])
    voted = set(TakeoverVote.objects.filter(voter=mine).values_list("seat_id", flat=True)
                ) if mine else set()
    out = []
    for s in rows:
        record = records.get(s.pk)
        until = away_map.get(s.user_id)
        out.append({"seat": s.number,
                    "name": s.user.get_username() if s.user_id else None,
                    "bot": s.is_bot,
                    "away_until": until.isoformat() if until else None,
                    "absent": bool(record and record.absent_since),
                    "open": bool(record and record.takeover_open_since),
                    "you_voted": s.pk in voted})
    pauses_left = None
    if mine is not None:
        pauses_left = (settings.EMERGENCY_PAUSES_PER_MATCH
                       - EmergencyPause.objects.filter(seat=mine).count())
    return ok(seats=out, your_seat=mine.number if mine else None,
              emergency_pauses_left=pauses_left)


def _act(action) -> Any:
    with transaction.atomic():
        return action()


@api_view(("POST",), scope="play")
@refusals
def vote(request: HttpRequest, match_id: str, number: str) -> JsonResponse:
    """My vote to open an absent seat for a new player (a majority of the others opens it)."""
    match = _match_for(request, match_id)
    seat, mine = _seat(match, number), seat_for_user(match, request.user)
    _body(request, frozenset())
    if mine is None:
        return error(403, "NOT_A_PARTICIPANT", "Only players of this match vote.")
    votes, needed = _act(lambda: takeover.takeover_vote(seat=seat, voter=mine))
    return ok(votes=votes, needed=needed, open=votes >= needed)


@api_view(("POST",), scope="lobby")
@refusals
def claim(request: HttpRequest, match_id: str, number: str) -> JsonResponse:
    """Take a seat open for a new player: I play on from its state."""
    match = _match_for(request, match_id)
    seat = _seat(match, number)
    _body(request, frozenset())
    fresh = _act(lambda: takeover.takeover_claim(seat=seat, user=request.user))
    return ok(seat=fresh.number, match_id=match.pk)


@api_view(("POST",), scope="play")
@refusals
def emergency_pause(request: HttpRequest, match_id: str) -> JsonResponse:
    """My seat's rationed emergency pause: the open deadline moves later."""
    match = _match_for(request, match_id)
    mine = seat_for_user(match, request.user)
    _body(request, frozenset())
    if mine is None:
        return error(403, "NOT_A_PARTICIPANT", "Only players of this match pause.")
    _act(lambda: takeover.emergency_pause(seat=mine))
    return ok(paused=True, hours=settings.EMERGENCY_PAUSE_HOURS)


@api_view(("POST",), scope="director")
@refusals
def seat_open(request: HttpRequest, match_id: str, number: str) -> JsonResponse:
    """The director opens a seat for a replacement."""
    match = _match_for(request, match_id)
    require_director(request)
    seat = _seat(match, number)
    _body(request, frozenset())
    _act(lambda: takeover.takeover_open(seat=seat, actor=request.user))
    return ok(seat=seat.number, open=True)


# --- the OpenAPI description of these URLs (games.api_schema) --------------------------

def _document() -> None:
    from games.api_schema import (
        BOOL, DT, EMPTY_BODY, INT, MATCH_ID, STR, nullable, obj, ok_body, op, register,
    )

    tag = "Away and takeover"
    number = {"name": "number", "in": "path", "required": True, "schema": INT,
              "description": "The seat's number."}
    period = obj({"id": INT, "starts_at": STR, "ends_at": STR})
    register({
        "/api/away/": {
            "get": op("My away periods not over yet", tag=tag, ok_schema=ok_body(
                away={"type": "array", "items": period}, max_days=INT, window_days=INT)),
            "post": op("Declare an away period (days in my time zone)", tag=tag,
                       method="post", status="201", scope="lobby",
                       body=obj({"first": {"type": "string", "format": "date"},
                                 "last": {"type": "string", "format": "date"}}, closed=True),
                       ok_schema=ok_body(away=period))},
        "/api/away/{away_id}/cancel/": {
            "parameters": [{"name": "away_id", "in": "path", "required": True, "schema": INT}],
            "post": op("End (or drop) one of my away periods", tag=tag, method="post",
                       scope="lobby", body=EMPTY_BODY, ok_schema=ok_body(cancelled=BOOL))},
        "/api/matches/{match_id}/seats/": {"parameters": [MATCH_ID], "get": op(
            "Seats: who holds each, away, absent, open for a new player, my votes", tag=tag,
            ok_schema=ok_body(seats={"type": "array", "items": obj({
                "seat": INT, "name": nullable(STR), "bot": BOOL, "away_until": DT,
                "absent": BOOL, "open": BOOL, "you_voted": BOOL})},
                your_seat=nullable(INT), emergency_pauses_left=nullable(INT)))},
        "/api/matches/{match_id}/seats/{number}/vote/": {"parameters": [MATCH_ID, number],
            "post": op("Vote to open an absent seat for a new player", tag=tag, method="post",
                       scope="play", body=EMPTY_BODY,
                       ok_schema=ok_body(votes=INT, needed=INT, open=BOOL))},
        "/api/matches/{match_id}/seats/{number}/claim/": {"parameters": [MATCH_ID, number],
            "post": op("Take a seat open for a new player", tag=tag, method="post",
                       scope="lobby", body=EMPTY_BODY,
                       ok_schema=ok_body(seat=nullable(INT), match_id=INT))},
        "/api/matches/{match_id}/emergency-pause/": {"parameters": [MATCH_ID],
            "post": op("My seat's rationed emergency pause: the deadline moves later",
                       tag=tag, method="post", scope="play", body=EMPTY_BODY,
                       ok_schema=ok_body(paused=BOOL, hours=INT))},
        "/api/matches/{match_id}/director/seats/{number}/open/": {
            "parameters": [MATCH_ID, number],
            "post": op("Open a seat for a replacement", tag="Director", method="post",
                       scope="director", body=EMPTY_BODY,
                       ok_schema=ok_body(seat=INT, open=BOOL),
                       description="Staff accounts only (403 otherwise).")},
    })


_document()
