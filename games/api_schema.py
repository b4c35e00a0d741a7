"""The JSON API's OpenAPI 3.1 description, written here beside the views (not generated):
``/api/schema/`` serves it as JSON, ``/api/docs/`` renders it for people on the server
(no script, nothing from another site: inside the CSP). ``tests/games/api/test_schema.py``
checks it against the URLconf (every ``/api/`` URL documented, nothing documented that does
not exist) and ``tests/games/api/test_schemathesis.py`` calls every operation with data
generated from it.

Apps that add API URLs document them next to their views and call :func:`register` at
import (``players.api``, ``diceslayer.api``); the framework's own paths are below.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import get_resolver
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from games import registry

Schema = dict[str, Any]

_EXTRA: dict[str, dict[str, Any]] = {}

ERROR_STATUSES = {
    "400": "The body is not JSON or not an object, a field is unknown or has the wrong type, "
           "a value is refused (INVALID, BAD_JSON, MALFORMED, …).",
    "401": "No or bad credentials (NOT_AUTHENTICATED, BAD_TOKEN, BAD_AUTH_HEADER).",
    "403": "Not allowed: no seat, not the creator or the director, a token without the "
           "scope (TOKEN_SCOPE, details.needs names it), a session POST without CSRF.",
    "404": "No such match (or a private one you are not in), seat, period or invite.",
    "409": "Not now: the match or phase does not allow it (NOT_FORMING, MATCH_FULL, "
           "STALE_PHASE, MATCH_OVER, …).",
    "413": "The body is larger than 64 KiB (TOO_LARGE).",
    "422": "A well-formed order the rules do not allow now (the game's code).",
    "503": "Not available on this server now (PUSH_OFF: no push keys configured; the "
           "database or the cache is away: retry after Retry-After).",
    "429": "Too many wrong tokens from this address, or too many messages (THROTTLED, "
           "RATE_LIMITED); wait Retry-After seconds.",
}
READ_ERRORS = ("400", "401", "403", "404", "429")
WRITE_ERRORS = ("400", "401", "403", "404", "409", "413", "422", "429")


def nullable(schema: Schema) -> Schema:
    t = schema.get("type")
    if isinstance(t, str):
        return {**schema, "type": [t, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
OBJ: Schema = {"type": "object"}
DT: Schema = nullable({"type": "string", "format": "date-time"})


def obj(props: dict[str, Schema], *, required: tuple[str, ...] | None = None,
        closed: bool = False) -> Schema:
    out: Schema = {"type": "object", "properties": props,
                   "required": list(props if required is None else required)}
    if closed:
        out["additionalProperties"] = False
    return out


def ok_body(**props: Schema) -> Schema:
    return obj({"ok": {"const": True}, **props})


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def op(summary: str, *, tag: str, ok_schema: Schema, method: str = "get",
       status: str | tuple[str, ...] = "200", scope: str | None = None,
       body: Schema | None = None, query: tuple[Schema, ...] = (),
       description: str = "") -> dict[str, Any]:
    """One operation: its success answer(s) and the error answers of its kind."""
    statuses = (status,) if isinstance(status, str) else status
    responses: dict[str, Any] = {s: {"description": "OK" if s == "200" else "Created",
                                     "content": {"application/json": {"schema": ok_schema}}}
                                 for s in statuses}
    for s in (READ_ERRORS if method == "get" else WRITE_ERRORS):
        responses[s] = {"$ref": f"#/components/responses/E{s}"}
    out: dict[str, Any] = {"summary": summary, "tags": [tag], "responses": responses}
    if scope:
        out["x-token-scope"] = scope
        description = (description + f" A token needs the `{scope}` scope "
                       f"(or `all`).").strip()
    if description:
        out["description"] = description
    if query:
        out["parameters"] = list(query)
    if body is not None:
        out["requestBody"] = {"required": False,
                              "content": {"application/json": {"schema": body}}}
    return out


def _with_409(operation: dict[str, Any]) -> dict[str, Any]:
    operation["responses"]["409"] = {"$ref": "#/components/responses/E409"}
    return operation


def query_param(name: str, schema: Schema, description: str) -> Schema:
    return {"name": name, "in": "query", "required": False, "schema": schema,
            "description": description}


def register(paths: dict[str, dict[str, Any]]) -> None:
    """Add an app's documented paths (``{"/api/…/": {"get": op(...)}}``)."""
    _EXTRA.update(paths)


# --- the shapes ------------------------------------------------------------------------

EMPTY_BODY: Schema = obj({}, closed=True)
PHASE_SHORT = nullable(obj({"id": INT, "kind": STR, "turn": INT, "deadline_at": DT}))
PHASE = nullable(obj({
    "id": INT, "number": INT, "kind": STR, "turn": INT, "opens_at": DT, "deadline_at": DT,
    "awaited_count": INT, "checked_in_count": INT, "you_are_awaited": BOOL,
    "you_checked_in": BOOL, "checkin_final": BOOL, "default_text": nullable(STR)}))
MATCH_STATUS: Schema = {"type": "string",
                        "enum": ["forming", "running", "paused", "finished", "cancelled"]}
MY_MATCH = obj({"id": INT, "name": STR, "game": STR, "status": MATCH_STATUS, "version": INT,
                "seat_version": nullable(INT), "is_private": BOOL, "timezone": STR,
                "seat": nullable(INT), "url": STR, "phase": PHASE_SHORT, "your_move": BOOL})
LOBBY_MATCH = obj({
    "id": INT, "name": STR, "game": STR, "status": MATCH_STATUS, "version": INT,
    "is_private": BOOL, "min_players": INT, "max_players": INT, "players": INT,
    "seat": nullable(INT), "joined": BOOL, "may_start": BOOL,
    "invite": nullable(obj({"code": STR, "url": STR})), "url": STR})
LOBBY_ROW = obj({"id": INT, "name": STR, "game": STR, "status": MATCH_STATUS, "players": INT,
                 "min_players": INT, "max_players": INT, "bot_table": BOOL, "url": STR})
VERSIONS = {"version": INT, "seat_version": INT}
DIRECTOR_MATCH = obj({"id": INT, "status": MATCH_STATUS, "version": INT,
                      "phase": nullable(obj({"id": INT, "number": INT, "kind": STR,
                                             "deadline_at": DT, "closed": BOOL}))})
MESSAGE = obj({"id": INT, "channel": STR, "text": STR, "hidden": BOOL,
               "created_at": STR}, required=("id", "channel", "text"))
CONFIG_SETTING = obj({"key": STR, "type": {"enum": ["int", "bool", "str", "choice", "json"]},
                      "default": {}, "label": STR},
                     required=("key", "type", "default", "label"))
CREATE_BODY = obj({
    "game": {**STR, "description": "A game's slug (GET /api/games/)."},
    "name": {**STR, "maxLength": 100},
    "min_players": INT, "max_players": INT,
    "timezone": {**STR, "description": "An IANA zone, e.g. Europe/Rome."},
    "phase_hours": nullable({**INT, "minimum": 1, "maximum": 336}),
    "starts_at": nullable({**STR, "format": "date-time"}),
    "is_private": BOOL, "early_close": BOOL, "bots_enabled": BOOL,
    "join": {**BOOL, "description": "Take a seat at once (default true)."},
    "press": {"enum": ["", "full", "public", "none"]},
    "config": {**OBJ, "description": "The game's settings by key (GET /api/games/); only "
                                     "the ones that differ from the defaults are needed."},
}, required=("game", "name"), closed=True)

def _create_body() -> Schema:
    body = copy.deepcopy(CREATE_BODY)
    body["properties"]["game"]["enum"] = [g.slug for g in registry.all_games()]
    body["properties"]["name"]["minLength"] = 1
    return body


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": INT,
            "description": "The match's id."}

# the framework's paths (games.api, games.api_lobby, games.api_director; press and the
# account export are documented here too, being few)
def _core_paths() -> dict[str, dict[str, Any]]:
    lobby = "Lobby"
    play = "Play"
    director = "Director"
    return {
        "/api/schema/": {"get": op("This document (OpenAPI 3.1)", tag="About",
                                   ok_schema=OBJ)},
        "/api/games/": {"get": op(
            "The installed games and their settings", tag=lobby,
            ok_schema=ok_body(games={"type": "array", "items": obj({
                "slug": STR, "name": STR, "min_players": INT, "max_players": INT,
                "config": {"type": "array", "items": CONFIG_SETTING}})}))},
        "/api/lobby/": {"get": op(
            "Public matches, newest first (the lobby page's list)", tag=lobby,
            query=(query_param("game", STR, "A game's slug; unknown: all games."),
                   query_param("status", {"enum": ["open", "forming", "running", "finished",
                                                   "all"]},
                               "Default open (forming or running)."),
                   query_param("bots", {"enum": ["any", "hide", "only"]},
                               "Tables with a bot account seated: any (default), hide, only.")),
            ok_schema=ok_body(matches={"type": "array", "items": LOBBY_ROW},
                              filters=obj({"game": nullable(STR), "status": STR, "bots": STR}))
        )},
        "/api/join/{code}/": {
            "parameters": [{"name": "code", "in": "path", "required": True, "schema": STR,
                            "description": "The invite link's code."}],
            "post": op("Join a (private) match by its invite code", tag=lobby, method="post",
                       scope="lobby", body=EMPTY_BODY, ok_schema=ok_body(match=LOBBY_MATCH))},
        "/api/matches/": {
            "get": op("My matches, with the open phase and whether it is my move", tag=play,
                      ok_schema=ok_body(matches={"type": "array", "items": MY_MATCH})),
            "post": op("Create a match of any game with its settings", tag=lobby,
                       method="post", status="201", scope="lobby", body=_create_body(),
                       ok_schema=ok_body(match=LOBBY_MATCH),
                       description="Checked as the new-match form checks it (the game's "
                                   "config_schema and validate_config); a refusal names the "
                                   "field (`config.<key>` for a setting) and lists every "
                                   "error in details.errors.")},
        "/api/matches/{match_id}/": {"parameters": [MATCH_ID], "get": op(
            "The match as I may see it: my player view, the open phase, the outcome",
            tag=play, ok_schema=ok_body(
                match=obj({"id": INT, "name": STR, "game": STR, "status": MATCH_STATUS,
                           "version": INT, "seat_version": nullable(INT), "seat": nullable(INT)},
                          ),
                phase=PHASE,
                players={"type": "array", "items": obj({"seat": nullable(INT),
                                                        "name": nullable(STR), "bot": BOOL,
                                                        "bot_account": BOOL})},
                view={"type": ["object", "null"]}, omniscient=BOOL,
                outcome={"type": ["object", "null"]}))},
        "/api/matches/{match_id}/lobby/": {"parameters": [MATCH_ID], "get": op(
            "The match as the lobby shows it: seats taken, may I start it, its invite link",
            tag=lobby, ok_schema=ok_body(match=LOBBY_MATCH))},
        "/api/matches/{match_id}/diary/": {"parameters": [MATCH_ID], "get": op(
            "My diary rows after a sequence number, oldest first", tag=play,
            query=(query_param("since", {**INT, "minimum": 0}, "The last seq you read."),),
            ok_schema=ok_body(entries={"type": "array", "items": obj({
                "seq": INT, "turn": nullable(INT), "phase_kind": nullable(STR), "kind": STR,
                "text": STR, "public": BOOL, "created_at": DT})}, last_seq=INT, version=INT))},
        "/api/matches/{match_id}/phases/{number}/": {
            "parameters": [MATCH_ID, {"name": "number", "in": "path", "required": True,
                                      "schema": INT, "description": "A closed phase's number."}],
            "get": _with_409(op(
                "An earlier phase as my seat saw it: the player view of its snapshot and my "
                "diary rows of that phase (docs/looking-back.md)", tag=play,
                ok_schema=ok_body(
                    match=obj({"id": INT, "name": STR, "game": STR, "url": STR}),
                    seat=nullable(INT), omniscient=BOOL,
                    phase=obj({"number": INT, "turn": INT, "kind": STR, "opens_at": DT,
                               "closed_at": DT}),
                    previous=nullable(INT), next=nullable(INT), page=STR,
                    view={"type": ["object", "null"]},
                    diary={"type": "array", "items": obj({
                        "seq": INT, "turn": nullable(INT), "phase_kind": nullable(STR),
                        "kind": STR, "text": STR, "public": BOOL})}),
                description="409 PHASE_OPEN for the open phase (read GET "
                            "/api/matches/{match_id}/ instead)."))},
        "/api/matches/{match_id}/join/": {"parameters": [MATCH_ID], "post": op(
            "Take a seat in a forming public match", tag=lobby, method="post", scope="lobby",
            body=EMPTY_BODY, ok_schema=ok_body(match=LOBBY_MATCH))},
        "/api/matches/{match_id}/leave/": {"parameters": [MATCH_ID], "post": op(
            "Give up my seat before the start", tag=lobby, method="post", scope="lobby",
            body=EMPTY_BODY, ok_schema=ok_body(match=LOBBY_MATCH))},
        "/api/matches/{match_id}/start/": {"parameters": [MATCH_ID], "post": op(
            "Start a forming match (its creator or the director)", tag=lobby, method="post",
            scope="lobby", body=EMPTY_BODY, ok_schema=ok_body(match=LOBBY_MATCH))},
        "/api/matches/{match_id}/orders/": {"parameters": [MATCH_ID], "post": op(
            "Submit (or replace) an order for my seat", tag=play, method="post", scope="play",
            body=obj({"order": OBJ, "phase_id": INT, "version": INT, "seat_version": INT},
                     required=("order",), closed=True),
            ok_schema=ok_body(order=obj({"id": nullable(INT), "phase_id": nullable(INT)}),
                              **VERSIONS),
            description="`order` is the game's order object; send phase_id, version and "
                        "seat_version as read to be refused (409) when they moved on.")},
        "/api/matches/{match_id}/checkin/": {"parameters": [MATCH_ID], "post": op(
            "I am done for this phase (CHECK)", tag=play, method="post", scope="play",
            body=obj({"phase_id": INT, "version": INT, "seat_version": INT}, required=(),
                     closed=True),
            ok_schema=ok_body(checked_in={"const": True}, **VERSIONS))},
        "/api/matches/{match_id}/checkin/withdraw/": {"parameters": [MATCH_ID], "post": op(
            "Take my check-in back while the phase is open", tag=play, method="post",
            scope="play", body=obj({"phase_id": INT}, required=(), closed=True),
            ok_schema=ok_body(checked_in={"const": False}, **VERSIONS))},
        "/api/matches/{match_id}/messages/": {
            "parameters": [MATCH_ID],
            "get": op("The messages I may read, oldest first", tag="Press",
                      query=(query_param("since", {**INT, "minimum": 0}, "The last id read."),),
                      ok_schema=ok_body(messages={"type": "array", "items": MESSAGE},
                                        more=BOOL, last_id=INT)),
            "post": op("Write a message: the public board, my team, or chosen seats",
                       tag="Press", method="post", status="201", scope="press",
                       body=obj({"to": {"anyOf": [{"enum": ["all", "team"]},
                                                  {"type": "array", "items": INT}]},
                                 "text": {**STR, "maxLength": 2000}}, closed=True),
                       ok_schema=ok_body(message=MESSAGE))},
        "/api/me/export/": {"get": op("Everything held about me, as a download",
                                      tag="Account", ok_schema=ok_body(format=STR))},
        **{f"/api/matches/{{match_id}}/director/{name}/": {"parameters": [MATCH_ID], "post": op(
            summary, tag=director, method="post", scope="director", body=body,
            ok_schema=ok_body(match=DIRECTOR_MATCH, **extra),
            description="Staff accounts only (403 NOT_DIRECTOR otherwise).")}
           for name, summary, body, extra in (
               ("pause", "Pause a running match (nothing closes until resumed)", EMPTY_BODY, {}),
               ("resume", "Resume a paused match (the deadline moves by the paused time)",
                EMPTY_BODY, {}),
               ("extend", "Move the open deadline later, at most MAX_EXTEND_HOURS (72 by "
                          "default) at a time",
                obj({"hours": {"type": "number", "exclusiveMinimum": 0},
                     "request_id": {**STR, "minLength": 1, "maxLength": 64}},
                    required=("hours",), closed=True), {"applied": BOOL}),
               ("close-now", "Close the open phase now", EMPTY_BODY, {"closed": BOOL}),
               ("cancel", "End the match now with a reason (forming: cancelled; running: "
                          "finished, nobody wins)",
                obj({"reason": {**STR, "minLength": 1, "maxLength": 200}}, closed=True), {}),
           )},
    }


def _game_error_codes() -> dict[str, list[str]]:
    """Each installed game's own refusal codes (its engine's ``errors`` module)."""
    out: dict[str, list[str]] = {}
    for entry in registry.all_games():
        try:
            errors = importlib.import_module(f"{entry.engine.__name__}.errors")
        except ImportError:
            continue
        codes = set(getattr(errors, "CODES", ()))
        codes |= {v for k, v in vars(errors).items()
                  if k.startswith("CODE_") and isinstance(v, str)}
        if codes:
            out[entry.slug] = sorted(codes)
    return out


def document() -> dict[str, Any]:
    """The whole OpenAPI document (every app's paths loaded with the URLconf)."""
    get_resolver().url_patterns  # noqa: B018 - imports every app's api module (register)
    error_body = obj({"ok": {"const": False}, "error": obj({
        "code": STR, "message": STR, "field": nullable(STR), "details": OBJ})})
    responses = {f"E{s}": {"description": text,
                           "content": {"application/json": {"schema": ref("Error")}}}
                 for s, text in ERROR_STATUSES.items()}
    paths = {**_core_paths(), **copy.deepcopy(_EXTRA)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Play-by-web JSON API", "version": "1",
                 "description": "Scripts and bots: the same permissions as the pages; every "
                                "answer has `ok`, a refusal has the error shape and a 4xx "
                                "status and changes nothing. See docs/api.md.",
                 "x-error-codes-per-game": _game_error_codes()},
        "servers": [{"url": "/"}],
        "security": [{"token": []}, {"session": []}],
        "tags": [{"name": n} for n in dict.fromkeys(  # in order of first use
            ("Lobby", "Play", "Press", "Director", *(
                o["tags"][0] for item in paths.values() for o in item.values()
                if isinstance(o, dict) and "tags" in o), "Account", "About"))],
        "paths": dict(sorted(paths.items())),
        "components": {
            "securitySchemes": {
                "token": {"type": "apiKey", "in": "header", "name": "Authorization",
                          "description": "`Token <key>` (a key made on the profile page; "
                                         "scopes read, play, press, lobby, director, all). "
                                         "No CSRF token needed."},
                "session": {"type": "apiKey", "in": "cookie", "name": "sessionid",
                            "description": "A logged-in browser; POSTs also need the "
                                           "X-CSRFToken header."}},
            "schemas": {"Error": error_body},
            "responses": responses,
        },
    }


def describe(schema: Schema) -> str:
    """A short human type for the docs page: ``integer``, ``string or null``, ``one of a, b``."""
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) if v != "" else "''" for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    if "anyOf" in schema:
        return " or ".join(describe(s) for s in schema["anyOf"])
    t = schema.get("type", "any")
    if t == "array":
        return f"array of {describe(schema.get('items', {}))}"
    text = " or ".join(t) if isinstance(t, list) else t
    bounds = [f"{k} {schema[k]}" for k in ("minimum", "maximum", "minLength", "maxLength",
                                           "exclusiveMinimum") if k in schema]
    return text + (f" ({', '.join(bounds)})" if bounds else "")


def code_spans(text: str) -> SafeString:
    """The document's Markdown-ish ```code``` spans as ``<code>``, the rest escaped."""
    parts = str(text).split("`")
    return mark_safe("".join(  # noqa: S308 - every part is escaped here
        (f"<code>{escape(p)}</code>" if i % 2 else str(escape(p))) for i, p in enumerate(parts)))


@require_GET
def schema_view(request: HttpRequest) -> JsonResponse:
    return JsonResponse(document(), json_dumps_params={"ensure_ascii": False})


@require_GET
def docs_view(request: HttpRequest) -> HttpResponse:
    """The document for people: one section per tag, each operation with its body fields
    and answers, rendered on the server from :func:`document`."""
    doc = document()
    ops: dict[str, list[dict[str, Any]]] = {t["name"]: [] for t in doc["tags"]}
    for path, item in doc["paths"].items():
        for method in ("get", "post", "put", "patch", "delete"):
            if method not in item:
                continue
            o = item[method]
            body = (o.get("requestBody", {}).get("content", {}).get("application/json", {})
                    .get("schema", {}))
            ops.setdefault(o["tags"][0], []).append({
                "method": method.upper(), "path": path, "summary": o["summary"],
                "description": code_spans(o.get("description", "")),
                "scope": o.get("x-token-scope"),
                "params": [p for p in item.get("parameters", []) + o.get("parameters", [])],
                "body": [(name, describe(sub), name in (body.get("required") or ()))
                         for name, sub in sorted((body.get("properties") or {}).items())],
                "statuses": sorted(o["responses"])})
    return render(request, "games/api_docs.html", {
        "doc": doc, "sections": [(t, v) for t, v in ops.items() if v],
        "intro": code_spans(doc["info"]["description"]),
        "schemes": [(name, code_spans(scheme["description"]))
                    for name, scheme in doc["components"]["securitySchemes"].items()],
        "errors": sorted(ERROR_STATUSES.items()),
        "game_codes": sorted(doc["info"]["x-error-codes-per-game"].items())})
