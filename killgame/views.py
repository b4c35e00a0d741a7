"""Kill Game's own screens: the order POST that keeps the engine error next to its control,
the public spectator page (no login: map states and the public feed) and the post-game
replay, turn by turn from the Snapshots (§18.7: everything is public once the match is over).

The generic match page (``games:match-detail``) shows the Kill Game board through the
registry hooks; these views reuse its context (``games.lib.pages.match_context``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from django.views.decorators.http import require_GET, require_POST

from accounts.names import shown_name
from games import selectors
from games.exceptions import ApplicationError
from games.forms import parse_int
from games.lib import htmlcache, lookback
from games.lib import pages as game_pages
from games.lib.text import say
from games.models import DiaryEntry, Match, Seat
from games.registry import get_rules
from games.rules import Event
from games.services.orders import order_submit
from killgame import pages, services

# said in the reader's language where they are shown
ORDER_SAVED = gettext_noop(
    "Your order is saved. You can change it until you press CHECK or the phase closes.")
CHECK_SAVED = gettext_noop("CHECK: your orders are locked for this phase.")
WITHDRAWN = gettext_noop("The order is withdrawn.")
NOT_A_PLAYER = gettext_noop("You do not have a seat in this match.")
DAMAGED_FORM = gettext_noop(
    "This form is damaged (%(name)s is not a number); reload the page and try again.")
NOT_KILLGAME = gettext_noop("This is not a Kill Game match.")
REPLAY_NOT_YET = gettext_noop("The replay opens when the match is over.")


def _match_or_404(request: HttpRequest, match_id: int, *, login: bool = True) -> Match:
    match = Match.objects.filter(pk=match_id, game="killgame").first()
    if match is None:
        raise Http404(NOT_KILLGAME)
    if login and not game_pages.can_view(match, request.user):
        raise Http404("No such match.")
    if not login and match.is_private and not game_pages.can_view(match, request.user):
        raise Http404("No such match.")
    return match


def _page(request: HttpRequest, match: Match, *, status: int, errors: dict[str, str],
          error: str | None = None) -> HttpResponse:
    match.refresh_from_db()
    ctx = game_pages.match_context(request, match)
    shown = pages.controls_on_page(game_pages.resolved(ctx.get("view")))
    errors = {(c if c in shown else "kind"): m for c, m in errors.items()}
    ctx["kg_errors"] = errors
    if errors:
        ctx["kg_posted"] = request.POST  # keep what the player typed
        ctx[htmlcache.NO_CACHE_FLAG] = True  # that answer alone shows them
    if error is None and errors and not ctx.get("can_order"):
        # no order form on the page now (checked in, phase over): say it on top
        error = next(iter(errors.values()))
    ctx["error"] = ctx["action_error"] = error
    if getattr(request, "htmx", False):
        # the framework's htmx answer: every fragment out of band (the form swaps nothing)
        return render(request, "games/fragments/action.html", ctx, status=status)
    return render(request, "games/match_detail.html", ctx, status=status)



@login_required
@require_POST
def order(request: HttpRequest, match_id: int) -> HttpResponse:
    """One order from the board form (the pressed button's ``kind``), submitted with the
    phase and version the page showed. A refusal re-renders the page with the message next
    to the control that caused it (the engine error's ``field``), status 4xx, nothing saved.
    """
    match = _match_or_404(request, match_id)
    seat = game_pages.seat_of(match, request.user)
    if seat is None:
        return _page(request, match, status=403, errors={"kind": _(NOT_A_PLAYER)})
    hidden: dict[str, int | None] = {}
    for name in ("phase_id", "version", "seat_version"):
        raw = request.POST.get(name, "").strip()
        hidden[name] = parse_int(raw) if raw else None
        if raw and hidden[name] is None:
            return _page(request, match, status=400,
                         errors={"kind": _(DAMAGED_FORM) % {"name": name}})
    try:
        payload = pages.order_from_post(request.POST)
    except pages.OrderFieldError as exc:
        return _page(request, match, status=400, errors={exc.control: str(exc)})
    try:
        order_submit(match=match, seat=seat, payload=payload, phase_id=hidden["phase_id"],
                     version=hidden["version"], seat_version=hidden["seat_version"])
    except ApplicationError as exc:
        control = pages.error_control(payload, exc.field)
        if exc.code in ("STALE_VERSION", "STALE_PHASE", "MATCH_PAUSED", "MATCH_OVER",
                        "NO_OPEN_PHASE", "NOT_AWAITED", "ALREADY_CHECKED"):
            # next to the pressed button (its own control), not at the top of the form
            control = pages.error_control(payload, None)
        elif payload.get("type") == "withdraw" and exc.code == "NO_EFFECT":
            control = "withdraw"  # the slot is empty: it has no button to stand next to
        return _page(request, match, status=exc.client_status, errors={control: exc.message})
    kind = payload["type"]
    done = CHECK_SAVED if kind == "check" else WITHDRAWN if kind == "withdraw" else ORDER_SAVED
    messages.success(request, _(done))
    if getattr(request, "htmx", False):
        return _page(request, match, status=200, errors={})
    return redirect(reverse("games:match-detail", args=[match.pk]) + "#order")


def _names(match: Match) -> dict[int, str]:
    return {s.number: (shown_name(s.user.get_username()) if s.user_id else "bot")
            for s in Seat.objects.filter(match=match, number__isnull=False,
                                         removed_at__isnull=True).select_related("user")}


@require_GET
def watch(request: HttpRequest, match_id: int) -> HttpResponse:
    """The spectator page (no login needed for a public match): zone states on the map and
    the public feed — the engine's spectator view (seat ``None``) and public diary rows."""
    match = _match_or_404(request, match_id, login=False)
    view = selectors.player_view_for(match, None) if match.state else None
    # the engine writes Italian itself, English as Msgs said in the reader's language
    lang = str(getattr(request, "LANGUAGE_CODE", "") or "en")
    names = _names(match)
    rows = selectors.diary_for_seat(match, None, lang=lang)
    feed = [{"turn": r.turn, "phase": r.phase_kind, "text": pages.with_names(r.text, names)}
            for r in rows if r.text.strip()]
    feed.reverse()
    board = pages.board(view, match.config, names, lang) if view else {}
    return render(request, "killgame/watch.html", {
        "match": match, "kg": board, "feed": feed, "names": names,
        "phase": selectors.current_phase(match) if match.is_running else None,
        "finished": match.status == Match.Status.FINISHED})


@require_GET
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """After the end, every phase's snapshot with every position (omniscient, §18.7).
    ``?step=N`` picks the snapshot (0 = the start); bad input falls back to the last."""
    match = _match_or_404(request, match_id, login=False)
    if match.status != Match.Status.FINISHED or match.state is None:
        return render(request, "killgame/replay.html",
                      {"match": match, "not_yet": _(REPLAY_NOT_YET)}, status=409)
    snaps = lookback.snapshots(match)  # the same snapshots the phase selector reads
    if not snaps:
        raise Http404("This match has no snapshots.")
    step = parse_int(request.GET.get("step"))
    if step is None or not 0 <= step < len(snaps):
        step = len(snaps) - 1
    snap = snaps[step]
    engine = get_rules(match.game)
    # the one door of games/lib/lookback.py: the director's view and the spectator's
    full = lookback.view_of_state(match, snap.state, lookback.Reader(None, director=True))
    view = lookback.view_of_state(match, snap.state, lookback.Reader(None, director=False))
    names = _names(match)
    positions: dict[str, list[str]] = {}
    people = []
    for p in full["players"]:
        name = names.get(p["seat"], p["pid"])
        people.append({"name": name, "alive": p["alive"], "energy": p["energy"],
                       "zone": pages._zone_name(view, p["zone"]) if p["zone"] else "",
                       "items": p["items"], "firearm": p["firearm"], "knife": p["knife"],
                       "coins": p["coins"], "approval": p["approval"]})
        if p["alive"] and p["zone"]:
            positions.setdefault(p["zone"], []).append(name)
    for m in full["monsters"]:
        if m["alive"] and m["zone"]:
            positions.setdefault(m["zone"], []).append(
                pgettext("killgame", "Monster %(number)s") % {"number": m["number"]})
    view = dict(view)
    view["omniscient"] = {"smoke": full.get("smoke", {}), "gas": full.get("gas", {})}
    view["over"] = True
    drawing = pages.map_drawing(view, match.config, positions=positions)
    lang = "it" if str(getattr(request, "LANGUAGE_CODE", "en")).startswith("it") else "en"
    events: list[Any] = []
    zone_names = services.describe_context(match)
    if snap.phase_id is not None:
        # every row of that phase (public once the match is over, §18.7); a row meant for one
        # player is told from that player's point of view, with their name in front
        for row in DiaryEntry.objects.filter(match=match, phase_id=snap.phase_id).order_by("seq"):
            vis = row.visible_to
            viewer = next(iter(vis)) if vis is not None and len(vis) == 1 else None
            try:
                text = str(say(engine.describe(Event(kind=row.kind, data=row.payload,
                                                     visible_to=vis), viewer, lang, names=names,
                                               **zone_names)))
            except Exception:  # noqa: BLE001 - a broken sentence must not break the page
                text = row.kind
            if not text.strip():
                continue
            events.append(f"{names.get(viewer, '')}: {text}" if viewer is not None else text)
    label = (pgettext("replay step", "Start") if snap.phase is None else
             _("Turn %(turn)s, %(phase)s phase closed") % {
                 "turn": snap.phase.turn,
                 "phase": pgettext("phase", snap.phase.kind.capitalize()).lower()})
    return render(request, "killgame/replay.html", {
        "match": match, "step": step, "steps": len(snaps), "last": len(snaps) - 1,
        "label": label, "map": drawing, "people": people, "events": events,
        "seed": match.seed, "outcome": match.outcome})
