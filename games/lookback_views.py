"""The past-phase page (``/m/<id>/?phase=<n>``) and its JSON twin
(``GET /api/matches/<id>/phases/<n>/``): an earlier phase as the reader saw it then.

Access is the live page's (``games.views.match_detail`` / ``games.api._match_for``), and
what is shown comes only from ``games.lib.lookback`` (the game's ``player_view`` of the
stored snapshot, the reader's diary rows). A bad ``phase`` is a clear 400/404 page, the
still-open phase is the live page (a redirect), never a 500. docs/looking-back.md.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from accounts.names import shown_name
from games import api
from games.lib import htmlcache, lookback, pages
from games.models import Match, Phase


def _names(seats: list[pages.SeatRow]) -> dict[int, str]:
    return {s.number: (shown_name(s.username) if s.user_id else "bot") for s in seats
            if s.number is not None and s.removed_at is None}


def _lang(request: HttpRequest) -> str:
    return getattr(request, "LANGUAGE_CODE", None) or "en"


def phase_json(phase: Phase) -> dict[str, Any]:
    return {"number": phase.number, "turn": phase.turn, "kind": phase.kind,
            "opens_at": phase.opens_at.isoformat() if phase.opens_at else None,
            "closed_at": phase.closed_at.isoformat() if phase.closed_at else None}


def _nav(match: Match, phases: list[Phase], selected: int | None) -> dict[str, Any]:
    """The selector's context: closed phases newest first, the selected one, its
    neighbours (after the newest closed phase comes "now": the live page)."""
    prev_n, next_n = lookback.neighbours(phases, selected) if selected is not None else (
        phases[-1].number if phases else None, None)
    return {"history": list(reversed(phases)), "lookback_selected": selected,
            "lookback_prev": prev_n, "lookback_next": next_n,
            "lookback_now": reverse("games:match-detail", args=[match.pk])}


def _past_html(request: HttpRequest, match: Match, phase: Phase, seat: Any, director: bool,
               seats: list[pages.SeatRow]) -> str:
    """The past board and diary, rendered once per (phase, reader, roster, language) and
    kept: a past phase never changes."""
    reader = lookback.reader_for(seat, director)
    # the status too: a board may word a finished match differently (Sanguosha's table)
    key = lookback.cache_key(f"page.{match.status}", match, phase.number, reader,
                             htmlcache.roster_digest(seats))
    html = htmlcache.cache_get(key)
    if html is None:
        game = pages.game_or_none(match.game)
        hooks = game.hooks if game else None
        names = _names(seats)
        every_name = {s.number: (shown_name(s.username) if s.user_id else "bot")
                      for s in seats if s.number is not None}
        view = lookback.past_view(match, phase, reader) if game else None
        rows = lookback.past_diary(match, phase, reader, _lang(request), names=every_name)
        html = render_to_string("games/fragments/past_phase.html", {
            "match": match, "seat": seat if reader.seat_number is not None else None,
            "director": reader.director, "names": names, "view": view, "past": phase,
            "diary_groups": [(phase.turn, rows)], "diary_older": None,
            "own_diary": bool(hooks and hooks.own_diary),
            "board_template": (hooks.board_template if hooks and hooks.board_template
                               else pages.GENERIC_BOARD),
            "csrf_token": htmlcache.csrf_placeholder(),  # never a request's own token
        }, request=request)
        htmlcache.cache_set(key, html)
    if htmlcache.csrf_placeholder() in html:  # a board with a form: this request's token
        html = htmlcache.fill_csrf(html, get_token(request))
    return mark_safe(html)


def match_phase_page(request: HttpRequest, match: Match) -> HttpResponse:
    """``?phase=<n>`` on the match page (access already checked by the caller)."""
    seats = pages.seat_rows(match)
    seat, director = pages.viewer_of(request, match)
    phases = lookback.closed_phases(match)
    ctx: dict[str, Any] = {"match": match, "game": pages.game_or_none(match.game),
                           "seat": seat, "director": director}
    try:
        number = lookback.parse_number(request.GET.get(lookback.PHASE_PARAM))
        phase = lookback.closed_phase(match, number)
    except lookback.BadPhase as exc:
        if exc.code == "PHASE_OPEN":  # the open phase: that is the live page
            return redirect("games:match-detail", match_id=match.pk)
        ctx.update(_nav(match, phases, None))
        ctx["lookback_error"] = exc.message
        return render(request, "games/match_phase.html", ctx, status=exc.status)
    ctx.update(_nav(match, phases, phase.number))
    ctx["past"] = phase
    ctx["past_html"] = _past_html(request, match, phase, seat, director, seats)
    return render(request, "games/match_phase.html", ctx)


@api.api_view(("GET",))
@api.refusals
def api_phase(request: HttpRequest, match_id: str, number: str) -> JsonResponse:
    """``GET /api/matches/<id>/phases/<n>/``: the board as the reader saw it while phase
    ``n`` was open (the game's player view of the stored snapshot) and the reader's diary
    rows of that phase. Kept in the HTML cache: it never changes."""
    match = api._match_for(request, match_id)
    try:
        n = lookback.parse_number(number)
        phase = lookback.closed_phase(match, n)
    except lookback.BadPhase as exc:
        details = {"current": reverse("games:api-match", args=[match.pk])}
        return api.error(exc.status, exc.code, exc.message, field="phase", details=details)
    if pages.game_or_none(match.game) is None:
        return api.error(409, "GAME_NOT_INSTALLED",
                         f"The game {match.game!r} is not installed on this server.")
    seat, director = pages.viewer_of(request, match)
    reader = lookback.reader_for(seat, director)
    seats = pages.seat_rows(match)
    key = lookback.cache_key("api", match, phase.number, reader, htmlcache.roster_digest(seats))
    body = htmlcache.cache_get(key)  # the view and the diary: they never change
    if body is None:
        every_name = {s.number: (shown_name(s.username) if s.user_id else "bot")
                      for s in seats if s.number is not None}
        rows = lookback.past_diary(match, phase, reader, _lang(request), names=every_name)
        body = json.dumps({
            "view": lookback.past_view(match, phase, reader),
            "diary": [{"seq": r.seq, "turn": r.turn, "phase_kind": r.phase_kind,
                       "kind": r.kind, "text": r.text, "public": r.is_public}
                      for r in rows]}, ensure_ascii=False, default=str)
        htmlcache.cache_set(key, body)
    # the neighbours move on as later phases close: read each time, never kept
    prev_n, next_n = lookback.neighbours(lookback.closed_phases(match), phase.number)
    page = reverse("games:match-detail", args=[match.pk])
    head = json.dumps({
        "ok": True, "match": {"id": match.pk, "name": match.name, "game": match.game,
                              "url": page},
        "seat": reader.seat_number, "omniscient": reader.director,
        "phase": phase_json(phase), "previous": prev_n, "next": next_n,
        "page": f"{page}?phase={phase.number}"}, ensure_ascii=False)
    body = head[:-1] + ", " + body[1:]  # one object: the fresh head, the kept parts
    return HttpResponse(body, content_type="application/json")  # type: ignore[return-value]
