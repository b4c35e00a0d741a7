"""Public player pages: a profile per player and a leaderboard per game."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.timezone import now as timezone_now
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import registry
from games.exceptions import ApplicationError
from games.models import DirectorAction, Match, Seat
from games.selectors import match_get_for_user, seat_for_user
from players import selectors, takeover
from players.away import away_cancel, away_declare, away_until
from players.forms import AwayForm, MatchRulesForm
from players.models import Away, EmergencyPause, MatchRules, SeatRecord, TakeoverVote

MODE_NAMES = {"ffa": "Free-for-all", "teams": "Teams", "districts": "Districts",
              "identity": "Identity", "versus": "Versus", "solo": "Solo", "daily": "Daily"}


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(request, "players/profile.html", {
        "player": user, "mode_names": MODE_NAMES, **selectors.profile(user)})


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    try:
        entry = registry.get_game(game)
    except registry.UnknownGame:
        raise Http404("No such game.") from None
    boards = [(MODE_NAMES.get(mode, mode), rows)
              for mode, rows in selectors.leaderboard(entry.slug).items()]
    return render(request, "players/leaderboard.html", {
        "game": entry, "boards": boards, "games": registry.all_games()})


# --- absence: a match's seats page, takeover, emergency pause, away periods ------------

def _match_for(request: HttpRequest, match_id: int) -> Match:
    try:
        return match_get_for_user(user=request.user, match_id=match_id)
    except Match.DoesNotExist:
        raise Http404("No such match.") from None


def _seat(match: Match, number: str) -> Seat:
    try:
        return Seat.objects.select_related("user").get(match=match, number=int(number))
    except (Seat.DoesNotExist, ValueError, OverflowError):
        raise Http404("No such seat.") from None


def _seats_page(request: HttpRequest, match: Match, *, status: int = 200,
                error: str = "") -> HttpResponse:
    mine = seat_for_user(match, request.user)
    seats = list(Seat.objects.filter(match=match, number__isnull=False).select_related("user"))
    records = {r.seat_id: r for r in SeatRecord.objects.filter(seat__match=match)}
    away = away_until([s.user_id for s in seats if s.user_id])
    my_votes = set(TakeoverVote.objects.filter(voter=mine).values_list("seat_id", flat=True)
                   ) if mine else set()
    rules = MatchRules.objects.filter(match=match).first() or MatchRules(match=match)
    rows = [{"seat": s, "record": records.get(s.pk), "away_until": away.get(s.user_id),
             "voted": s.pk in my_votes} for s in seats]
    for row in rows:  # who may vote on an absent seat, and why not me / nobody
        record = row["record"]
        if record is None or record.absent_since is None or record.takeover_open_since:
            continue
        why = takeover.ineligible(match, excluding=row["seat"])
        eligible = [s for s in seats if s.user_id and not s.is_bot and s.removed_at is None
                    and s.pk not in why]
        row["voters"] = [s.user.get_username() for s in eligible]
        row["needed"] = takeover.needed_votes(len(eligible))
        row["votes"] = TakeoverVote.objects.filter(seat=row["seat"], voter__in=eligible).count()
        if mine is not None and mine.pk in why:
            row["why_not_me"] = gettext(why[mine.pk])
        if not eligible:
            row["nobody"] = (gettext(takeover.NOBODY_VOTES) % {"hours": rules.open_after_hours}
                             if rules.open_after_hours else gettext(takeover.NOBODY_VOTES_NO_AUTO))
    pauses_left = None
    if mine is not None:
        pauses_left = (settings.EMERGENCY_PAUSES_PER_MATCH
                       - EmergencyPause.objects.filter(seat=mine).count())
    return render(request, "players/match_seats.html", {
        "match": match, "rows": rows, "mine": mine, "pauses_left": pauses_left,
        "running": match.status == Match.Status.RUNNING, "rules": rules,
        "rules_form": MatchRulesForm(instance=rules) if request.user.is_staff else None,
        "error": error, "pause_hours": settings.EMERGENCY_PAUSE_HOURS}, status=status)


@require_GET
def match_seats(request: HttpRequest, match_id: int) -> HttpResponse:
    """Who holds each seat, who is away or absent, seats open for a new player."""
    return _seats_page(request, _match_for(request, match_id))


def _act(request: HttpRequest, match: Match, action) -> HttpResponse:
    try:
        with transaction.atomic():
            action()
    except ApplicationError as exc:
        return _seats_page(request, match, status=exc.client_status, error=exc.message)
    return redirect("players:match-seats", match_id=match.pk)


@login_required
@require_POST
def seat_vote(request: HttpRequest, match_id: int, number: str) -> HttpResponse:
    match = _match_for(request, match_id)
    seat, mine = _seat(match, number), seat_for_user(match, request.user)
    if mine is None:
        return _seats_page(request, match, status=403, error="Only players of this match vote.")
    return _act(request, match, lambda: takeover.takeover_vote(seat=seat, voter=mine))


@login_required
@require_POST
def seat_open(request: HttpRequest, match_id: int, number: str) -> HttpResponse:
    match = _match_for(request, match_id)
    seat = _seat(match, number)
    return _act(request, match, lambda: takeover.takeover_open(seat=seat, actor=request.user))


@login_required
@require_POST
def seat_claim(request: HttpRequest, match_id: int, number: str) -> HttpResponse:
    match = _match_for(request, match_id)
    seat = _seat(match, number)
    response = _act(request, match, lambda: takeover.takeover_claim(seat=seat, user=request.user))
    if response.status_code == 302:
        return redirect("games:match-detail", match_id=match.pk)
    return response


@login_required
@require_POST
def match_emergency_pause(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_for(request, match_id)
    mine = seat_for_user(match, request.user)
    if mine is None:
        return _seats_page(request, match, status=403, error="Only players of this match pause.")
    return _act(request, match, lambda: takeover.emergency_pause(seat=mine))


@login_required
@require_POST
def match_rules(request: HttpRequest, match_id: int) -> HttpResponse:
    """The director sets the match's rating and absence rules."""
    match = _match_for(request, match_id)
    if not request.user.is_staff:
        return _seats_page(request, match, status=403, error="Only the director sets these.")
    rules = MatchRules.objects.filter(match=match).first() or MatchRules(match=match)
    form = MatchRulesForm(request.POST, instance=rules)
    if not form.is_valid():
        return _seats_page(request, match, status=400, error="; ".join(
            f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
    form.save()
    DirectorAction.objects.create(match=match, actor=request.user, action="player_rules",
                                  details=form.cleaned_data)
    return redirect("players:match-seats", match_id=match.pk)


@require_GET
def open_seats(request: HttpRequest) -> HttpResponse:
    rows = [r for r in takeover.open_seats() if not r.seat.match.is_private]
    return render(request, "players/open_seats.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def away(request: HttpRequest) -> HttpResponse:
    """Declare or end away periods (vacation)."""
    form = AwayForm(request.POST or None)
    status, error = 200, ""
    if request.method == "POST":
        if "cancel" in request.POST:
            try:
                period = Away.objects.get(pk=int(request.POST["cancel"]), user=request.user)
            except (Away.DoesNotExist, ValueError, OverflowError):
                raise Http404("No such away period.") from None
            away_cancel(away=period, user=request.user)
            return redirect("players:away")
        status = 400
        if form.is_valid():
            try:
                away_declare(user=request.user, first=form.cleaned_data["first"],
                             last=form.cleaned_data["last"])
            except ApplicationError as exc:
                error, status = exc.message, exc.client_status
            else:
                return redirect("players:away")
    periods = Away.objects.filter(user=request.user, ends_at__gt=timezone_now())
    return render(request, "players/away.html", {
        "form": form, "periods": periods, "error": error,
        "max_days": settings.AWAY_MAX_DAYS, "window_days": settings.AWAY_WINDOW_DAYS},
        status=status)
