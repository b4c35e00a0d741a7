"""The JSON API for scripts and bots (docs/api.md): my matches, a match's view for me, my
diary since a sequence number, submit an order, check in, withdraw a check-in.

Authentication: the browser session (unsafe methods then need the CSRF token, as on the
pages) or ``Authorization: Token <key>`` (``accounts.ApiToken``, looked up by its SHA-256;
no CSRF: no cookie is involved; a ``read`` token may only GET). Permissions are the pages'
(``games.lib.pages.can_view``). Every answer is ``{"ok": true, ...}`` or ``{"ok": false,
"error": {"code", "message", "field", "details"}}`` with a 4xx status; answers are built
only from the player view and the seat's diary rows.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.http.request import RawPostDataException
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import reverse
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts import throttle
from accounts.models import ApiToken, hash_api_key
from accounts.names import shown_name
from games import selectors
from games.exceptions import ApplicationError
from games.forms import parse_int
from games.lib import pages, safejson
from games.models import Match, Phase, Seat
from games.services.orders import order_submit
from games.services.seats import seat_checkin, seat_checkin_withdraw, seat_is_checked_in

MAX_BODY_BYTES = 64 * 1024
TOKEN_LAST_USED_GRANULARITY_S = 60
MAX_TOKEN_CHARS = 200


def error(status: int, code: str, message: str, *, field: str | None = None,
          details: dict[str, Any] | None = None) -> JsonResponse:
    return JsonResponse({"ok": False, "error": {"code": code, "message": message,
                                                "field": field, "details": details or {}}},
                        status=status)


def ok(**data: Any) -> JsonResponse:
    return JsonResponse({"ok": True, **data})


def _user_from_token(request: HttpRequest, need: str = "play"
                     ) -> tuple[Any, JsonResponse | None]:
    header = request.headers.get("Authorization", "")
    if not header:
        return None, None
    kind, _sep, key = header.partition(" ")
    key = key.strip()
    if kind.lower() != "token" or not key:
        return None, error(401, "BAD_AUTH_HEADER",
                           _("Use the header 'Authorization: Token <key>'."))
    try:
        wait = throttle.retry_after(request, "api_bad_token_ip", increment=False)
    except throttle.ThrottleUnavailable:
        wait = None  # the cache is down: a right token still works (it is in the database)
    if wait is not None:  # too many wrong tokens from here: not even a right one, for now
        return None, throttle.too_many(request, wait, json=True)
    now = timezone_now()
    token = (ApiToken.objects.select_related("user")
             .filter(key_hash=hash_api_key(key[:MAX_TOKEN_CHARS])).first())
    if token is None or not token.is_usable(now) or not token.user.is_active:
        try:
            wait = throttle.retry_after(request, "api_bad_token_ip")
        except throttle.ThrottleUnavailable:
            # a wrong token cannot be counted now: refused with a 503 (fails closed)
            return None, throttle.unavailable(request, json=True)
        if wait is not None:
            return None, throttle.too_many(request, wait, json=True)
        return None, error(401, "BAD_TOKEN", _("This API token is not valid (wrong, expired "
                                             "or revoked)."))
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > TOKEN_LAST_USED_GRANULARITY_S:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    if not token.allows(request.method or "", need):
        return None, error(403, "TOKEN_SCOPE", _(
        "This token (scope %(scope)s) may not do this; it needs the %(need)s scope (make a "
        "'%(need_plain)s' or 'all' token).") % {"scope": repr(token.scope), "need": repr(need),
                                                 "need_plain": need},
                           details={"scope": token.scope, "needs": need})
    return token.user, None


def _csrf_failure(request: HttpRequest) -> JsonResponse | None:
    """Session-authenticated unsafe requests need the CSRF token (as on the pages)."""
    def _noop(req: HttpRequest) -> None:  # pragma: no cover - never called
        return None

    check = CsrfViewMiddleware(_noop)
    check.process_request(request)
    reason = check.process_view(request, None, (), {})
    if reason is not None:
        return error(403, "CSRF", _("CSRF check failed: send the X-CSRFToken header, "
                                  "or use an API token."))
    return None


def api_view(methods: tuple[str, ...], *, scope: str = "play"
             ) -> Callable[[Callable[..., JsonResponse]], Callable[..., JsonResponse]]:
    """Authenticate (token or session), check the method, turn errors into JSON. A token
    acts (anything but GET) only if its scope grants ``scope`` ("play": orders and
    check-ins; "press": messages)."""
    def decorator(fn: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
        @csrf_exempt
        @wraps(fn)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in methods:
                resp = error(405, "METHOD_NOT_ALLOWED",
                             _("Use %(methods)s on this URL.") % {"methods": " / ".join(methods)})
                resp["Allow"] = ", ".join(methods)
                return resp
            user, failure = _user_from_token(request, scope)
            if failure is not None:
                return failure
            if user is not None:
                request.user = user
            else:
                if not request.user.is_authenticated:
                    return error(401, "NOT_AUTHENTICATED",
                                 _("Log in, or send 'Authorization: Token <key>'."))
                if request.method not in ("GET", "HEAD", "OPTIONS"):
                    failure = _csrf_failure(request)
                    if failure is not None:
                        return failure
            try:
                return fn(request, *args, **kwargs)
            except ApplicationError as exc:
                status = exc.client_status
                return JsonResponse({"ok": False, "error": exc.as_dict()}, status=status)
        return wrapper
    return decorator


class _Refused(Exception):
    def __init__(self, response: JsonResponse) -> None:
        self.response = response


def _match_for(request: HttpRequest, raw_id: str) -> Match:
    match_id = parse_int(raw_id)
    match = Match.objects.filter(pk=match_id).first() if match_id is not None and match_id > 0 else None
    if match is None or not pages.can_view(match, request.user):
        raise _Refused(error(404, "NOT_FOUND", _("No such match.")))
    return match


def _seat_for(request: HttpRequest, match: Match) -> Seat:
    seat = pages.seat_of(match, request.user)
    if seat is None:
        raise _Refused(error(403, "NOT_A_PARTICIPANT",
                             _("You do not have a seat in this match.")))
    if pages.game_or_none(match.game) is None:
        raise _Refused(error(409, "GAME_NOT_INSTALLED",
                             _("The game %(game)s is not installed on this server.") % {
                                 "game": repr(match.game)}))
    return seat


def _body(request: HttpRequest, allowed: frozenset[str]) -> dict[str, Any]:
    too_large = _Refused(error(413, "TOO_LARGE", _("The request body is too large.")))
    if (parse_int(request.META.get("CONTENT_LENGTH")) or 0) > MAX_BODY_BYTES:
        raise too_large
    try:
        raw = request.body
    except RawPostDataException:  # a multipart body already parsed by the CSRF check
        raise _Refused(error(400, "BAD_JSON", _("Send the body as JSON."))) from None
    except RequestDataTooBig:
        raise too_large from None
    if len(raw) > MAX_BODY_BYTES:
        raise too_large
    if not raw.strip():
        return {}
    try:
        data = safejson.loads(raw, max_bytes=MAX_BODY_BYTES)
    except safejson.JsonRefused as exc:
        raise _Refused(error(400, "BAD_JSON", _("The body is not valid JSON: %(error)s.") % {
            "error": exc})) from None
    if not isinstance(data, dict):
        raise _Refused(error(400, "BAD_JSON", _("The body must be a JSON object.")))
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise _Refused(error(400, "INVALID",
                             _("Unknown field %(field)s; this URL takes %(fields)s.") % {
                                 "field": repr(unknown[0]), "fields": ", ".join(sorted(allowed))},
                             field=unknown[0]))
    return data


def _optional_int(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Refused(error(400, "INVALID", _("%(key)s must be a whole number.") % {"key": key},
                             field=key))
    return value


def refusals(fn: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> JsonResponse:
        try:
            return fn(*args, **kwargs)
        except _Refused as refused:
            return refused.response
    return wrapper


# --- serialisers -----------------------------------------------------------------------

def bot_account(user: Any) -> bool:
    """Whether a program plays ``user``'s account (``Profile.is_bot``, set by the director)."""
    profile = getattr(user, "profile", None) if user is not None else None
    return bool(getattr(profile, "is_bot", False))


def _phase_json(phase: Phase | None, seat: Seat | None) -> dict[str, Any] | None:
    if phase is None:
        return None
    counts = pages.checkin_summary(phase)
    awaited = bool(seat is not None and seat.number is not None
                   and seat.number in (phase.awaited or []))
    return {"id": phase.pk, "number": phase.number, "kind": phase.kind, "turn": phase.turn,
            "opens_at": phase.opens_at.isoformat() if phase.opens_at else None,
            "deadline_at": phase.deadline_at.isoformat() if phase.deadline_at else None,
            "awaited_count": counts["awaited"], "checked_in_count": counts["checked_in"],
            "away_count": counts["away"],
            "you_are_awaited": awaited,
            "you_checked_in": bool(seat is not None and awaited and seat_is_checked_in(phase, seat)),
            "checkin_final": phase.checkin_final, "default_text": phase.default_text}


def _match_json(match: Match, seat: Seat | None) -> dict[str, Any]:
    return {"id": match.pk, "name": match.name, "game": match.game, "status": match.status,
            "version": match.version,
            "seat_version": seat.version if seat is not None else None,
            "is_private": match.is_private,
            "timezone": match.timezone, "seat": seat.number if seat is not None else None,
            "url": reverse("games:match-detail", args=[match.pk])}


# --- endpoints -------------------------------------------------------------------------

@api_view(("GET",))
def matches(request: HttpRequest) -> JsonResponse:
    """My matches, with the open phase and whether it is my move."""
    out = []
    for mm in pages.my_matches(request.user):
        item = _match_json(mm.match, mm.seat)
        ph = mm.phase if mm.match.status in pages.LIVE_STATUSES else None
        item["phase"] = None if ph is None else {
            "id": ph.pk, "kind": ph.kind, "turn": ph.turn,
            "deadline_at": ph.deadline_at.isoformat() if ph.deadline_at else None}
        item["your_move"] = mm.your_move
        out.append(item)
    return ok(matches=out)


@api_view(("GET",))
@refusals
def match_view(request: HttpRequest, match_id: str) -> JsonResponse:
    """The match as this user may see it: the player view, the open phase, the outcome."""
    match = _match_for(request, match_id)
    seat, director = pages.viewer_of(request, match)
    phase = selectors.current_phase(match) if match.status in pages.LIVE_STATUSES else None
    players = [{"seat": s.number, "name": shown_name(s.user.get_username()) if s.user_id else None,
                "bot": s.is_bot, "bot_account": bot_account(s.user)}
               for s in match.seats.filter(removed_at__isnull=True)
               .select_related("user", "user__profile").order_by("number", "joined_at")]
    return ok(match=_match_json(match, seat), phase=_phase_json(phase, seat), players=players,
              view=pages.player_view(match, seat, director), omniscient=director,
              outcome=match.outcome if match.status == Match.Status.FINISHED else None)


@api_view(("GET",))
@refusals
def diary(request: HttpRequest, match_id: str) -> JsonResponse:
    """``?since=<seq>``: my diary rows with a higher sequence number, oldest first."""
    match = _match_for(request, match_id)
    since_raw = request.GET.get("since", "0")
    since = parse_int(since_raw)
    if since is None or since < 0:
        return error(400, "INVALID", _("since must be a whole number ≥ 0."), field="since")
    seat, director = pages.viewer_of(request, match)
    number = seat.number if seat is not None else None
    rows = pages.diary_lines(request, match, number, director, since_seq=since)
    entries = [{"seq": r.seq, "turn": r.turn, "phase_kind": r.phase_kind, "kind": r.kind,
                "text": r.text, "public": r.is_public,
                "created_at": r.created_at.isoformat() if r.created_at else None}
               for r in rows]
    last = max([since, *(e["seq"] for e in entries)])
    return ok(entries=entries, last_seq=last, version=match.version)


@api_view(("POST",))
@refusals
def order_submit_view(request: HttpRequest, match_id: str) -> JsonResponse:
    """Body ``{"order": {...}, "phase_id": 12, "version": 34, "seat_version": 5}`` (the
    last three optional: send them to be refused when the phase, or what this seat saw,
    has moved on; another seat's private order never makes them stale)."""
    match = _match_for(request, match_id)
    seat = _seat_for(request, match)
    data = _body(request, frozenset({"order", "phase_id", "version", "seat_version"}))
    order = data.get("order")
    if not isinstance(order, dict):
        return error(400, "INVALID", _("order must be a JSON object."), field="order")
    order_row = order_submit(match=match, seat=seat, payload=order,
                             phase_id=_optional_int(data, "phase_id"),
                             version=_optional_int(data, "version"),
                             seat_version=_optional_int(data, "seat_version"))
    match.refresh_from_db(fields=["version"])
    seat.refresh_from_db(fields=["version"])
    return ok(order={"id": getattr(order_row, "pk", None), "phase_id": getattr(order_row, "phase_id", None)},
              version=match.version, seat_version=seat.version)


@api_view(("POST",))
@refusals
def checkin(request: HttpRequest, match_id: str) -> JsonResponse:
    """Body ``{"phase_id": 12, "version": 34, "seat_version": 5}`` (all optional): I am
    done for this phase."""
    match = _match_for(request, match_id)
    seat = _seat_for(request, match)
    data = _body(request, frozenset({"phase_id", "version", "seat_version"}))
    seat_checkin(match=match, seat=seat, phase_id=_optional_int(data, "phase_id"),
                 version=_optional_int(data, "version"),
                 seat_version=_optional_int(data, "seat_version"))
    match.refresh_from_db(fields=["version"])
    seat.refresh_from_db(fields=["version"])
    return ok(checked_in=True, version=match.version, seat_version=seat.version)


@api_view(("POST",))
@refusals
def checkin_withdraw(request: HttpRequest, match_id: str) -> JsonResponse:
    """Body ``{"phase_id": 12}`` (optional): take my check-in back while the phase is open."""
    match = _match_for(request, match_id)
    seat = _seat_for(request, match)
    data = _body(request, frozenset({"phase_id"}))
    seat_checkin_withdraw(match=match, seat=seat, phase_id=_optional_int(data, "phase_id"))
    match.refresh_from_db(fields=["version"])
    seat.refresh_from_db(fields=["version"])
    return ok(checked_in=False, version=match.version, seat_version=seat.version)

