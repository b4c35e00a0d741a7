"""Dice Slayer's own ways into a game through the JSON API (docs/api.md "Dice Slayer"):
a solo game, today's daily attempt, a versus challenge (a player, the bot, or an open
game), joining an open game, accepting, declining or withdrawing a challenge, a rematch,
and my pending challenges. The bodies are checked by the pages' own forms
(``SoloStartForm``, ``VersusCreateForm``) and acted on by ``diceslayer.services``; the
moves themselves are the generic ``POST /api/matches/<id>/orders/``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse

from diceslayer import engine, selectors, services
from diceslayer.forms import SoloStartForm, VersusCreateForm
from games.api import _body, _Refused, api_view, error, ok, refusals
from games.forms import parse_int
from games.lib import pages as game_pages
from games.models import Match


def _match(request: HttpRequest, raw_id: str) -> Match:
    """The Dice Slayer match if this user may see it (or is challenged to it), else 404."""
    pk = parse_int(raw_id)
    match = (Match.objects.filter(pk=pk, game=engine.SLUG).first()
             if pk is not None and pk > 0 else None)
    if match is None or not (game_pages.can_view(match, request.user)
                             or selectors.is_challenged(match, request.user)):
        raise _Refused(error(404, "NOT_FOUND", "No such game."))
    return match


def _json(match: Match) -> dict[str, Any]:
    challenge = selectors.challenge_of(match)
    return {"id": match.pk, "name": match.name, "game": match.game, "status": match.status,
            "variant": (match.config or {}).get("variant"), "version": match.version,
            "challenge": None if challenge is None else {
                "challenger": challenge.challenger.get_username(),
                "opponent": challenge.opponent.get_username(),
                "status": getattr(challenge, "status", None),
                "expires_at": challenge.expires_at.isoformat() if challenge.expires_at else None},
            "url": reverse("diceslayer:play", args=[match.pk]),
            "api_url": reverse("games:api-match", args=[match.pk])}


def _created(match: Match) -> JsonResponse:
    response = ok(match=_json(match))
    response.status_code = 201
    return response


def _form_error(form: Any) -> JsonResponse:
    field, msgs = next(iter(form.errors.items()))
    key = None if field == "__all__" else field
    return error(400, "INVALID", f"{field}: {msgs[0]}" if key else str(msgs[0]), field=key,
                 details={"errors": {k: [str(m) for m in v] for k, v in form.errors.items()}})


def _strings(data: dict[str, Any], types: dict[str, tuple[type, ...]]) -> dict[str, str]:
    """The body's values as the form would have them posted (a wrong JSON type: 400)."""
    out: dict[str, str] = {}
    for key, value in data.items():
        if value is None:
            continue
        if not isinstance(value, types[key]) or (isinstance(value, bool) and bool not in types[key]):
            raise _Refused(error(400, "INVALID", f"{key} has the wrong type.", field=key))
        if isinstance(value, bool):
            if value:
                out[key] = "on"
            continue
        out[key] = str(value)
    return out


@api_view(("POST",), scope="lobby")
@refusals
def solo(request: HttpRequest) -> JsonResponse:
    """Body ``{"variant": "solo"}`` (optional): a new solo game, started at once (201)."""
    data = _body(request, frozenset({"variant"}))
    form = SoloStartForm(_strings(data, {"variant": (str,)}) or {"variant": "solo"})
    if not form.is_valid():
        return _form_error(form)
    return _created(services.solo_start(user=request.user, variant=form.cleaned_data["variant"]))


@api_view(("POST",), scope="lobby")
@refusals
def daily(request: HttpRequest) -> JsonResponse:
    """Start today's daily attempt, or get it back: a second start is never a second
    attempt (201 when it was started now, 200 when it already was)."""
    _body(request, frozenset())
    attempt, created = services.daily_start(user=request.user)
    match = Match.objects.get(pk=attempt.match_id)
    response = ok(match=_json(match), created=created, day=services.today().isoformat())
    if created:
        response.status_code = 201
    return response


VERSUS_TYPES: dict[str, tuple[type, ...]] = {
    "variant": (str,), "against": (str,), "opponent": (str,), "turn_hours": (int,),
    "target_score": (int,), "bots_enabled": (bool,)}


@api_view(("GET", "POST"), scope="lobby")
@refusals
def challenges(request: HttpRequest) -> JsonResponse:
    """GET: challenges waiting for my answer and mine not accepted yet. POST ``{"against":
    "user" | "bot" | "open", "opponent": "name", "variant": "versus2", "turn_hours": 24,
    "target_score": 0, "bots_enabled": false}``: a versus game (201)."""
    if request.method != "POST":
        waiting, sent = selectors.challenges_for_home(request.user)
        return ok(waiting=[_json(c.match) for c in waiting], sent=[_json(c.match) for c in sent])
    data = _body(request, frozenset(VERSUS_TYPES))
    posted = {"variant": "versus2", "against": VersusCreateForm.OPPONENT_USER,
              "turn_hours": str(services.DEFAULT_TURN_HOURS), "target_score": "0",
              **_strings(data, VERSUS_TYPES)}
    form = VersusCreateForm(posted)
    if not form.is_valid():
        return _form_error(form)
    fields = form.cleaned_data
    opponent = None
    if fields["against"] == VersusCreateForm.OPPONENT_USER:
        opponent = services.user_by_username(fields["opponent"])
    match = services.versus_create(
        challenger=request.user, variant=fields["variant"], opponent=opponent,
        against_bot=fields["against"] == VersusCreateForm.OPPONENT_BOT,
        turn_hours=fields["turn_hours"], target_score=fields["target_score"],
        bots_enabled=fields["bots_enabled"])
    return _created(match)


def _action(request: HttpRequest, match_id: str, act) -> JsonResponse:
    match = _match(request, match_id)
    _body(request, frozenset())
    result = act(match)
    if isinstance(result, Match) and result.pk != match.pk:
        return _created(result)
    match.refresh_from_db()
    return ok(match=_json(match))


@api_view(("POST",), scope="lobby")
@refusals
def join(request: HttpRequest, match_id: str) -> JsonResponse:
    """Join an open versus game: the second player starts it."""
    return _action(request, match_id,
                   lambda m: services.versus_join(match=m, user=request.user))


@api_view(("POST",), scope="lobby")
@refusals
def accept(request: HttpRequest, match_id: str) -> JsonResponse:
    """The challenged player accepts: the match starts."""
    return _action(request, match_id,
                   lambda m: services.challenge_accept(match=m, user=request.user))


@api_view(("POST",), scope="lobby")
@refusals
def decline(request: HttpRequest, match_id: str) -> JsonResponse:
    """The challenged player declines: the match is cancelled."""
    match = _match(request, match_id)
    if not selectors.is_challenged(match, request.user):
        return error(403, "NOT_CHALLENGED", "Only the challenged player declines; the "
                                            "challenger withdraws.")
    return _action(request, match_id,
                   lambda m: services.challenge_decline(match=m, user=request.user))


@api_view(("POST",), scope="lobby")
@refusals
def withdraw(request: HttpRequest, match_id: str) -> JsonResponse:
    """The challenger withdraws a challenge not accepted yet: the match is cancelled."""
    match = _match(request, match_id)
    if selectors.is_challenged(match, request.user):
        return error(403, "NOT_CHALLENGER", "Only the challenger withdraws; the challenged "
                                            "player declines.")
    return _action(request, match_id,
                   lambda m: services.challenge_decline(match=m, user=request.user))


@api_view(("POST",), scope="lobby")
@refusals
def rematch(request: HttpRequest, match_id: str) -> JsonResponse:
    """A new game against the same opponent with the same rules, after a finished one (201)."""
    return _action(request, match_id,
                   lambda m: services.versus_rematch(match=m, user=request.user))


# --- the OpenAPI description of these URLs (games.api_schema) --------------------------

def _document() -> None:
    from games.api_schema import (
        BOOL, DT, EMPTY_BODY, INT, MATCH_ID, STR, nullable, obj, ok_body, op, register,
    )

    tag = "Dice Slayer"
    game = obj({"id": INT, "name": STR, "game": STR, "status": STR, "variant": nullable(STR),
                "version": INT, "challenge": nullable(obj({
                    "challenger": STR, "opponent": STR, "status": nullable(STR),
                    "expires_at": DT})), "url": STR, "api_url": STR})
    paths: dict[str, Any] = {
        "/api/diceslayer/solo/": {"post": op(
            "A new solo game, started at once", tag=tag, method="post", status="201",
            scope="lobby", body=obj({"variant": {"enum": list(services.SOLO_VARIANTS)}},
                                    closed=True),
            ok_schema=ok_body(match=game))},
        "/api/diceslayer/daily/": {"post": op(
            "Today's daily attempt: started (201) or the one already started (200)", tag=tag,
            method="post", status=("200", "201"), scope="lobby", body=EMPTY_BODY,
            ok_schema=ok_body(match=game, created=BOOL, day=STR))},
        "/api/diceslayer/challenges/": {
            "get": op("Challenges waiting for my answer, and mine not accepted yet", tag=tag,
                      ok_schema=ok_body(waiting={"type": "array", "items": game},
                                        sent={"type": "array", "items": game})),
            "post": op("A versus game: challenge a player, play the bot, or open a game",
                       tag=tag, method="post", status="201", scope="lobby",
                       body=obj({"against": {"enum": ["user", "bot", "open"]},
                                 "opponent": {**STR, "maxLength": 150},
                                 "variant": {"enum": list(services.VERSUS_VARIANTS)},
                                 "turn_hours": {"enum": list(services.TURN_HOURS_CHOICES)},
                                 "target_score": {**INT, "minimum": 0, "maximum": 100000},
                                 "bots_enabled": BOOL}, required=(), closed=True),
                       ok_schema=ok_body(match=game))},
    }
    for name, summary, created in (
            ("join", "Join an open versus game (the second player starts it)", False),
            ("accept", "Accept a challenge: the match starts", False),
            ("decline", "Decline a challenge: the match is cancelled", False),
            ("withdraw", "Withdraw my challenge: the match is cancelled", False),
            ("rematch", "A new game against the same opponent, same rules", True)):
        paths[f"/api/diceslayer/matches/{{match_id}}/{name}/"] = {
            "parameters": [MATCH_ID], "post": op(
                summary, tag=tag, method="post", status="201" if created else "200",
                scope="lobby", body=EMPTY_BODY, ok_schema=ok_body(match=game))}
    register(paths)


_document()
