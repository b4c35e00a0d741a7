"""Dice Slayer's own screens: the game's home (solo, daily, versus, my games), the play
page with its htmx board (pick, hint, scoring picks, poll), the replay, the daily and
all-time leaderboards, the rules of each variant, and creating or joining a versus match.
The home, the boards and the rules are public (a shared daily link opens without a login);
playing needs one.

Views are thin: lookup and permission in ``_get_match_for_user`` (a private game of
someone else is a 404, as on the generic pages), the work in ``diceslayer.services``, the
context in ``diceslayer.pages``. A refused action answers with the message and a 4xx —
the board fragment for htmx, the whole page otherwise — and changes nothing.
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.utils.translation import gettext_lazy

from diceslayer import engine, pages, selectors, services
from diceslayer.forms import SoloStartForm, VersusCreateForm, order_from_post
from games.exceptions import ApplicationError
from games.forms import parse_int
from games.lib import pages as game_pages
from games.lib.polls import fast_poll
from games.lib.text import say
from games.models import Match

NOT_A_PLAYER = gettext_lazy("You do not play in this game.")
DAMAGED_FORM = gettext_lazy("This form is damaged; reload the page and try again.")
DAILY_ALREADY = gettext_lazy("You already played today's challenge; here is your game.")
DAILY_STARTED = gettext_lazy("Today's challenge: everyone gets the same dice for the same picks. Good luck!")
VERSUS_STARTED = gettext_lazy("The match has started.")
VERSUS_OPEN = gettext_lazy("Your game is open: it starts when someone joins.")
JOINED = gettext_lazy("You joined: the match has started.")
CHALLENGE_SENT = gettext_lazy("Your challenge is sent: the game starts when {name} accepts it.")
ACCEPTED = gettext_lazy("You accepted the challenge: the match has started.")
DECLINED = gettext_lazy("You declined the challenge.")
WITHDRAWN = gettext_lazy("You withdrew your challenge.")
REMATCH_SENT = gettext_lazy("Rematch offered: it starts when {name} accepts it.")
REPLAY_BROKEN = gettext_lazy("This game cannot be replayed.")


def _get_match_for_user(request: HttpRequest, match_id: int) -> Match:
    """The Dice Slayer match if this user may see it, else 404."""
    match = Match.objects.filter(pk=match_id, game=engine.SLUG).first()
    if match is None or not (game_pages.can_view(match, request.user)
                             or selectors.is_challenged(match, request.user)):
        raise Http404("No such game.")
    return match



def _flags(request: HttpRequest) -> tuple[bool, bool]:
    return request.GET.get("hint") == "1", request.GET.get("patterns") == "1"


# --- home --------------------------------------------------------------------------------

@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Public: a visitor reads what the game is, today's best and the rules; playing needs
    a login (the buttons become "Log in to play")."""
    day = services.today()
    signed_in = request.user.is_authenticated
    return render(request, "diceslayer/home.html", {
        "day": day, "attempt": selectors.daily_attempt(request.user, day),
        "games": selectors.my_games(request.user) if signed_in else [],
        "open_games": selectors.open_versus_games(request.user),
        "top_today": selectors.daily_leaderboard(day, limit=5),
        "challenges": selectors.challenges_for_home(request.user),
        "versus_form": VersusCreateForm(),
    })


@login_required
@require_POST
def solo_new(request: HttpRequest) -> HttpResponse:
    form = SoloStartForm(request.POST)
    if not form.is_valid():
        messages.error(request, services.NOT_A_SOLO_VARIANT)
        return redirect("diceslayer:home")
    match = services.solo_start(user=request.user, variant=form.cleaned_data["variant"])
    return redirect("diceslayer:play", match_id=match.pk)


# --- the daily challenge -----------------------------------------------------------------

FIRST_DAILY_DAY = datetime.date(2000, 1, 1)  # days before (or after today) have no page

@login_required
@require_POST
def daily_play(request: HttpRequest) -> HttpResponse:
    """Start today's attempt, or go back to it: a second start is never a second attempt."""
    try:
        attempt, created = services.daily_start(user=request.user)
    except ApplicationError as exc:  # lost a race with our own other tab
        messages.info(request, exc.message)
        attempt = selectors.daily_attempt(request.user, services.today())
        if attempt is None:
            return redirect("diceslayer:home")
        created = False
    messages.info(request, DAILY_STARTED if created else DAILY_ALREADY)
    return redirect("diceslayer:play", match_id=attempt.match_id)


@require_GET
def daily(request: HttpRequest, day: str | None = None) -> HttpResponse:
    """A day's leaderboard (today's by default), with the player's own attempt; public, so
    a shared daily link opens for anyone."""
    today = services.today()
    if day is None:
        when = today
    else:
        try:
            when = datetime.date.fromisoformat(day)
        except ValueError:
            raise Http404("Not a date.") from None
        if not FIRST_DAILY_DAY <= when <= today:  # 0001-01-01 would overflow "the day before"
            raise Http404("No daily challenge on that day.")
    return render(request, "diceslayer/daily.html", {
        "day": when, "today": today, "is_today": when == today,
        "rows": selectors.ranked(selectors.daily_leaderboard(when), key=lambda a: a.score),
        "players": selectors.daily_players(when),
        "attempt": selectors.daily_attempt(request.user, when),
        "prev_day": when - datetime.timedelta(days=1),
        "next_day": when + datetime.timedelta(days=1) if when < today else None,
    })


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Public: every player's best daily score, equal bests sharing a rank."""
    return render(request, "diceslayer/leaderboard.html",
                  {"rows": selectors.ranked(selectors.alltime_leaderboard(), key=lambda r: r.best),
                   "today": services.today()})


@require_GET
def rules(request: HttpRequest, variant: str) -> HttpResponse:
    """Public: the rules of one variant (each is a separate game), linked from its boards."""
    if variant not in pages.VARIANT_LABELS:
        raise Http404("No such variant.")
    return render(request, "diceslayer/rules.html", {
        "variant": variant, "variant_label": say(pages.VARIANT_LABELS[variant]),
        "variants": [(key, say(label)) for key, label in pages.VARIANT_LABELS.items()]})


# --- versus ------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def versus_new(request: HttpRequest) -> HttpResponse:
    form = VersusCreateForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                opponent = None
                if data["against"] == VersusCreateForm.OPPONENT_USER:
                    opponent = services.user_by_username(data["opponent"])
                match = services.versus_create(
                    challenger=request.user, variant=data["variant"], opponent=opponent,
                    against_bot=data["against"] == VersusCreateForm.OPPONENT_BOT,
                    turn_hours=data["turn_hours"], target_score=data["target_score"],
                    bots_enabled=data["bots_enabled"])
            except ApplicationError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
                status = exc.client_status
            else:
                messages.success(request, VERSUS_STARTED if match.status == Match.Status.RUNNING
                                 else CHALLENGE_SENT.format(name=opponent.get_username())
                                 if opponent is not None else VERSUS_OPEN)
                return redirect("diceslayer:play", match_id=match.pk)
    return render(request, "diceslayer/versus_new.html", {"form": form}, status=status)


@login_required
@require_POST
def versus_join(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _get_match_for_user(request, match_id)
    try:
        services.versus_join(match=match, user=request.user)
    except ApplicationError as exc:
        return _page(request, match, status=exc.client_status, error=exc.message)
    messages.success(request, JOINED)
    return redirect("diceslayer:play", match_id=match.pk)


@login_required
@require_POST
def challenge_accept(request: HttpRequest, match_id: int) -> HttpResponse:
    """The challenged player accepts: the match starts (anyone else: refused, 403/404)."""
    match = _get_match_for_user(request, match_id)
    try:
        services.challenge_accept(match=match, user=request.user)
    except ApplicationError as exc:
        match.refresh_from_db()
        return _page(request, match, status=exc.client_status, error=exc.message)
    messages.success(request, ACCEPTED)
    return redirect("diceslayer:play", match_id=match.pk)


@login_required
@require_POST
def challenge_decline(request: HttpRequest, match_id: int) -> HttpResponse:
    """The challenged player declines, or the challenger withdraws: the match is cancelled."""
    match = _get_match_for_user(request, match_id)
    try:
        services.challenge_decline(match=match, user=request.user)
    except ApplicationError as exc:
        match.refresh_from_db()
        return _page(request, match, status=exc.client_status, error=exc.message)
    is_opponent = selectors.is_challenged(match, request.user)
    messages.info(request, DECLINED if is_opponent else WITHDRAWN)
    return redirect("diceslayer:home")


@login_required
@require_POST
def rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """A new game against the same opponent with the same rules, after a finished one."""
    match = _get_match_for_user(request, match_id)
    try:
        new = services.versus_rematch(match=match, user=request.user)
    except ApplicationError as exc:
        return _page(request, match, status=exc.client_status, error=exc.message)
    if new.status == Match.Status.RUNNING:
        messages.success(request, VERSUS_STARTED)
    else:
        challenge = selectors.challenge_of(new)
        messages.success(request, REMATCH_SENT.format(
            name=challenge.opponent.get_username() if challenge else "your opponent"))
    return redirect("diceslayer:play", match_id=new.pk)


# --- the play page -----------------------------------------------------------------------

def _page(request: HttpRequest, match: Match, *, status: int = 200, error: str | None = None,
          hint: bool = False, patterns: bool = False) -> HttpResponse:
    ctx: dict[str, Any] = {"match": match, "error": error}
    if match.state is not None and error is None and request.method == "GET":
        # the board from the HTML cache (pages.kept_board, which reads the seats: the
        # reader's seat comes with them); a game with a board shows no challenge
        # (play.html shows it only before the game)
        ctx.update(pages.kept_board(request, match, hint=hint, patterns=patterns),
                   view=True, can_join=False)
        return render(request, "diceslayer/play.html", ctx, status=status)
    seat = game_pages.seat_of(match, request.user)
    ctx["seat"] = seat
    ctx["can_join"] = (match.status == Match.Status.FORMING and not match.is_private
                       and seat is None)
    ctx.update(pages.challenge_context(match, request.user))
    if match.state is not None:
        ctx.update(pages.board_context(request, match, hint=hint, patterns=patterns,
                                       error=error))
    return render(request, "diceslayer/play.html", ctx, status=status)


def _board(request: HttpRequest, match: Match, *, status: int = 200, error: str | None = None,
           hint: bool = False, patterns: bool = False) -> HttpResponse:
    """The board fragment for htmx, else the whole page."""
    if not request.htmx or match.state is None:
        return _page(request, match, status=status, error=error, hint=hint, patterns=patterns)
    if error is None and request.method == "GET":
        kept = pages.kept_board(request, match, hint=hint, patterns=patterns)
        return HttpResponse(kept["board_html"], status=status)
    ctx = pages.board_context(request, match, hint=hint, patterns=patterns, error=error)
    return render(request, "diceslayer/fragments/board.html", ctx, status=status)


@login_required
@require_GET
def play(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _get_match_for_user(request, match_id)
    hint, patterns = _flags(request)
    return _page(request, match, hint=hint, patterns=patterns)


@fast_poll(game=engine.SLUG, unless=("hint", "patterns"))
@login_required
@require_GET
def board(request: HttpRequest, match_id: int) -> HttpResponse:
    """The board fragment: ``?hint=1`` the bot's advice, ``?patterns=1`` the scoring picks,
    ``?v=<version>`` a poll (204 when nothing changed)."""
    match = _get_match_for_user(request, match_id)
    hint, patterns = _flags(request)
    if not (hint or patterns) and game_pages.poll_unchanged(request, match):
        return HttpResponse(status=204)
    return _board(request, match, hint=hint, patterns=patterns)


@login_required
@require_POST
def pick(request: HttpRequest, match_id: int) -> HttpResponse:
    """Play the pressed die (or wild die, or bomb) and answer with the resolved board."""
    match = _get_match_for_user(request, match_id)
    seat = game_pages.seat_of(match, request.user)
    if seat is None:
        return _board(request, match, status=403, error=NOT_A_PLAYER)
    phase_id = parse_int(request.POST.get("phase_id"))
    version = parse_int(request.POST.get("version"))
    if (request.POST.get("phase_id") and phase_id is None) or (
            request.POST.get("version") and version is None):
        return _board(request, match, status=400, error=DAMAGED_FORM)
    try:
        payload = order_from_post(request.POST)
    except forms.ValidationError as exc:
        return _board(request, match, status=400, error=" ".join(exc.messages))
    try:
        services.move_play(match=match, seat=seat, payload=payload, phase_id=phase_id,
                           version=version)
    except ApplicationError as exc:
        match.refresh_from_db()
        return _board(request, match, status=exc.client_status, error=exc.message)
    if request.htmx:
        return _board(request, match)
    return redirect(reverse("diceslayer:play", args=[match.pk]) + "#ds-board")


# --- replay ------------------------------------------------------------------------------

@login_required
@require_GET
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through the positions, rebuilt from the seed and the recorded moves."""
    match = _get_match_for_user(request, match_id)
    try:
        steps = selectors.replay_steps(match)
    except selectors.ReplayMismatch:
        return _page(request, match, status=409, error=REPLAY_BROKEN)
    if not steps:
        raise Http404("This game has not started.")
    index = parse_int(request.GET.get("step"))
    last = len(steps) - 1
    index = last if index is None else max(0, min(index, last))
    step = steps[index]
    seat = game_pages.seat_of(match, request.user)
    number = seat.number if seat is not None else None
    view = engine.player_view(step.state, number)
    lines = []
    if step.phase is not None:
        lines = [line for line in game_pages.diary_lines(request, match, number, False)
                 if line.phase_id == step.phase.pk]
    names = pages.names_by_seat(match)
    return render(request, "diceslayer/replay.html", {
        "match": match, "view": view, "step": step, "index": index, "last": last,
        "lines": lines, "names": names, "solo": view["variant"] in ("solo", "solo_wild"),
        "moves": [{"who": names.get(m["seat"], ""), **m} for m in step.orders],
        "outcome": match.outcome if match.status == Match.Status.FINISHED else None,
    })
