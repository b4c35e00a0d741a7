"""The lobby through the JSON API (docs/api.md "Lobby"): the games and their settings, the
public match list, creating a match, joining (also by invite code), leaving, starting.

Creating a match goes through the page's own ``MatchCreateForm`` (the JSON body is turned
into the form's fields, so the game's ``config_schema``, its ``config_prepare`` hook and
``validate_config`` refuse exactly what the form refuses) and ``MatchCreateForm.create``;
the other actions call the same services as the pages. Authentication, scopes, the error
shape and the body limits are ``games.api``'s.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms as django_forms
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from games import registry
from games.api import _body, _match_for, _Refused, api_view, error, ok, refusals
from games.forms import CONFIG_PREFIX, LobbyFilterForm, MatchCreateForm
from games.lib import lobby as lobby_list
from games.lib import pages
from games.models import Match
from games.selectors import may_start
from games.services.matches import match_join, match_leave, match_start

#: the match fields a create body may carry (besides ``game`` and ``config``)
MATCH_FIELDS = ("name", "min_players", "max_players", "timezone", "phase_hours", "starts_at",
                "is_private", "early_close", "bots_enabled", "join", "press")
CREATE_FIELDS = frozenset({"game", "config", *MATCH_FIELDS})


def config_field_json(spec: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"key": spec.key, "type": spec.type, "default": spec.default,
                           "label": spec.label or spec.key.replace("_", " ").capitalize()}
    if spec.help:
        out["help"] = spec.help
    if spec.choices:
        out["choices"] = [c for c, _ in spec.choices]
    if spec.min is not None:
        out["min"] = spec.min
    if spec.max is not None:
        out["max"] = spec.max
    return out


@api_view(("GET",))
def games_list(request: HttpRequest) -> JsonResponse:
    """Every installed game with its seats and its settings (``config_schema``)."""
    out = []
    for entry in registry.all_games():
        form = MatchCreateForm(game=entry)
        config = []
        for spec in form.schema:
            item = config_field_json(spec)
            item["default"] = form.defaults.get(spec.key, spec.default)
            field = form.fields.get(CONFIG_PREFIX + spec.key)
            if isinstance(field, django_forms.ChoiceField) and not spec.choices:
                item["choices"] = [c for c, _ in field.choices]  # a game's own (Kill Game's maps)
            config.append(item)
        out.append({"slug": entry.slug, "name": str(entry.name), "min_players": entry.min_seats,
                    "max_players": entry.max_seats, "config": config})
    return ok(games=out)


def _lobby_row(row: Any, bot_ids: set[int]) -> dict[str, Any]:
    return {"id": row.pk, "name": row.name, "game": row.game, "status": row.status,
            "players": row.players, "min_players": row.min_players,
            "max_players": row.max_players, "bot_table": row.pk in bot_ids,
            "url": reverse("games:match-detail", args=[row.pk])}


@api_view(("GET",))
def lobby(request: HttpRequest) -> JsonResponse:
    """``?game=&status=&bots=``: the public matches of the lobby page (newest first), the
    same filters (unknown values fall back to the defaults, as on the page); ``bots``:
    ``any`` (default), ``hide`` (no table with a bot account seated) or ``only``."""
    game, status = LobbyFilterForm(request.GET or None).filters()
    bots = request.GET.get("bots", "any")
    if bots not in ("any", "hide", "only"):
        return error(400, "INVALID", _("bots must be any, hide or only."), field="bots")
    rows = lobby_list.public_rows(game=game, status=status, bots=bots)
    bot_ids = bot_tables([r.pk for r in rows])
    return ok(matches=[_lobby_row(r, bot_ids) for r in rows], filters={
        "game": game, "status": status, "bots": bots})


def bot_tables(match_ids: list[int]) -> set[int]:
    """The matches among ``match_ids`` with a bot account (``Profile.is_bot``) seated."""
    if not match_ids:
        return set()
    from games.models import Seat

    return set(Seat.objects.filter(match_id__in=match_ids, removed_at__isnull=True,
                                   user__profile__is_bot=True)
               .values_list("match_id", flat=True))


def _form_value(field: django_forms.Field, value: Any) -> Any:
    """A JSON value as the form field expects it posted (``None``: leave it out)."""
    if value is None:
        return None
    if isinstance(field, django_forms.BooleanField):
        if not isinstance(value, bool):
            raise TypeError
        return "on" if value else None
    if isinstance(field, django_forms.TypedChoiceField) and isinstance(value, bool):
        # a choice that cleans to a bool (Kill Game's deadlines: "check" -> True)
        for choice, _label in field.choices:
            if field.coerce(choice) is value:
                return choice
        raise TypeError
    if isinstance(field, django_forms.JSONField):
        return json.dumps(value)
    if isinstance(value, (dict, list)):
        raise TypeError
    if isinstance(value, bool):
        raise TypeError
    return str(value)


def _form_data(form_fields: dict[str, django_forms.Field], body: dict[str, Any]) -> dict[str, Any]:
    """The create body as the form's POST data: match fields by name, ``config`` keys as
    ``cfg_<key>``; missing ones take the form's initial value (as the page shows them)."""
    config = body.get("config")
    config = {} if config is None else config
    if not isinstance(config, dict):
        raise _Refused(error(400, "INVALID", _("config must be a JSON object."), field="config"))
    values: dict[str, Any] = {}
    for key, value in config.items():
        name = CONFIG_PREFIX + key
        if name not in form_fields:
            raise _Refused(error(400, "INVALID", _("Unknown setting %(key)s for this game.")
                                 % {"key": repr(key)},
                                 field=f"config.{key}"))
        values[name] = (value, f"config.{key}")
    for key in MATCH_FIELDS:
        if key in body:
            if key not in form_fields:
                raise _Refused(error(400, "INVALID", _("This game has no %(key)s setting.")
                                     % {"key": repr(key)},
                                     field=key))
            values[key] = (body[key], key)
    data: dict[str, Any] = {}
    for name, field in form_fields.items():
        if name in values:
            value, label = values[name]
        else:
            value, label = field.initial, name
            if callable(value):
                value = value()
            if isinstance(field, django_forms.TypedChoiceField) and not isinstance(value, bool):
                data[name] = value  # already a choice
                continue
        try:
            posted = _form_value(field, value)
        except TypeError:
            raise _Refused(error(400, "INVALID",
                                 _("%(field)s has the wrong type.") % {"field": label},
                                 field=label)) from None
        if posted is not None:
            data[name] = posted
    return data


def _form_errors(form: MatchCreateForm) -> JsonResponse:
    errors = {}
    for name, msgs in form.errors.items():
        key = ("config." + name[len(CONFIG_PREFIX):]) if name.startswith(CONFIG_PREFIX) else (
            None if name == "__all__" else name)
        errors[key or "__all__"] = [str(m) for m in msgs]
    first = next(iter(errors))
    return error(400, "INVALID", f"{errors[first][0]}" if first == "__all__"
                 else f"{first}: {errors[first][0]}",
                 field=None if first == "__all__" else first, details={"errors": errors})


@api_view(("GET", "POST"), scope="lobby")
@refusals
def matches(request: HttpRequest) -> JsonResponse:
    """GET: my matches (``games.api.matches``); POST: create a match (201)."""
    if request.method != "POST":
        from games.api import matches as my_matches

        return my_matches.__wrapped__(request)  # type: ignore[attr-defined]
    body = _body(request, CREATE_FIELDS)
    slug = body.get("game")
    if not isinstance(slug, str) or not slug:
        return error(400, "INVALID", _("game is required: a game's slug (GET /api/games/)."),
                     field="game")
    try:
        entry = registry.get_game(slug)
    except registry.UnknownGame:
        return error(400, "UNKNOWN_GAME", _("There is no game called %(slug)s.")
                     % {"slug": repr(slug)}, field="game")
    form = MatchCreateForm(game=entry)
    form = MatchCreateForm(_form_data(form.fields, body), game=entry)
    if not form.is_valid():
        return _form_errors(form)
    match = form.create(user=request.user)  # ApplicationError -> the JSON refusal
    response = ok(match=match_json(request, match))
    response.status_code = 201
    return response


def match_json(request: HttpRequest, match: Match) -> dict[str, Any]:
    """A forming or any match as the lobby shows it, with its invite link for those who
    may see it (the same rule as the match page: seated, creator, director)."""
    seat = pages.seat_of(match, request.user)
    invite = None
    if match.is_private and (seat is not None or request.user.is_staff
                             or match.created_by_id == request.user.pk):
        invite = {"code": match.invite_code,
                  "url": request.build_absolute_uri(
                      reverse("games:match-invite", args=[match.invite_code]))}
    return {"id": match.pk, "name": match.name, "game": match.game, "status": match.status,
            "version": match.version, "is_private": match.is_private,
            "min_players": match.min_players, "max_players": match.max_players,
            "players": match.seats.filter(removed_at__isnull=True).count(),
            "seat": seat.number if seat is not None else None, "joined": seat is not None,
            "may_start": match.status == Match.Status.FORMING and may_start(match, request.user),
            "invite": invite, "url": reverse("games:match-detail", args=[match.pk])}


@api_view(("POST",), scope="lobby")
@refusals
def join(request: HttpRequest, match_id: str) -> JsonResponse:
    """Take a seat in a forming public match (a private one: ``POST /api/join/<code>/``)."""
    match = _match_for(request, match_id)
    _body(request, frozenset())
    match_join(match=match, user=request.user)
    match.refresh_from_db()
    return ok(match=match_json(request, match))


@api_view(("POST",), scope="lobby")
@refusals
def join_by_invite(request: HttpRequest, code: str) -> JsonResponse:
    """The invite link's join: the code lets anyone with it into a private match."""
    match = Match.objects.filter(invite_code=code).first() if 0 < len(code) <= 64 else None
    if match is None:
        return error(404, "NOT_FOUND", _("This invite link is not valid."))
    _body(request, frozenset())
    match_join(match=match, user=request.user, invite_code=code)
    match.refresh_from_db()
    return ok(match=match_json(request, match))


@api_view(("POST",), scope="lobby")
@refusals
def leave(request: HttpRequest, match_id: str) -> JsonResponse:
    match = _match_for(request, match_id)
    _body(request, frozenset())
    if pages.seat_of(match, request.user) is None:
        return error(403, "NOT_A_PARTICIPANT", _("You do not have a seat in this match."))
    match_leave(match=match, user=request.user)
    match.refresh_from_db()
    return ok(match=match_json(request, match))


@api_view(("POST",), scope="lobby")
@refusals
def start(request: HttpRequest, match_id: str) -> JsonResponse:
    """The creator (or the director) starts a forming match."""
    match = _match_for(request, match_id)
    _body(request, frozenset())
    if not may_start(match, request.user):
        return error(403, "NOT_ALLOWED",
                     _("Only the match's creator or the director can start it."))
    match_start(match=match, actor=request.user)
    match.refresh_from_db()
    return ok(match=match_json(request, match))


@api_view(("GET",))
@refusals
def match_lobby(request: HttpRequest, match_id: str) -> JsonResponse:
    """A match as the lobby shows it (seats taken, who may start, the invite link)."""
    return ok(match=match_json(request, _match_for(request, match_id)))
