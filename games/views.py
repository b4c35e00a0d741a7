"""The generic pages: the lobby, match creation, the match page with its htmx fragments,
and one POST URL per player action (join, leave, start, order, check in, withdraw).

Every page and fragment is built from ``player_view_for`` and the seat's own diary rows
(``diary_for_seat``), never from ``Match.state`` (docs/design.md "Hidden information"); staff
without a seat get the omniscient view. Lookup and permission go together in
``_get_match_for_user``; services raise ``ApplicationError`` and the views answer it with
the message and its 4xx status, never a 500.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import registry
from games.context_processors import your_move_count_known
from games.exceptions import ApplicationError
from games.forms import LobbyFilterForm, MatchCreateForm, OrderForm, parse_int
from games.lib import lobby as lobby_list
from games.lib import lookback, pages
from games.lib.polls import fast_poll
from games.lookback_views import match_phase_page
from games.models import Match, Seat
from games.selectors import may_start
from games.services.matches import match_create, match_join, match_leave, match_start
from games.services.notifications import seat_email_mode_set
from games.services.orders import order_submit
from games.services.seats import seat_checkin, seat_checkin_withdraw

NOT_A_PLAYER = _("You do not have a seat in this match.")
ORDER_SAVED = _("Your order is saved. You can change it until you check in or the phase closes.")
CHECKED_IN = _("You checked in.")
CHECKIN_WITHDRAWN = _("Your check-in is withdrawn: you can change your orders.")
JOINED = _("You joined the match.")
LEFT = _("You left the match.")
STARTED = _("The match has started.")
CREATED = _("The match is created.")
NOT_ALLOWED_TO_START = _("Only the match's creator or the director can start it.")
UNKNOWN_GAME = _("There is no game called {slug!r}.")
GAME_NOT_INSTALLED = _("The game {slug!r} is not installed on this server; nothing can be played now.")
BAD_TURN = _("turn must be a whole number, 0 or more.")
DAMAGED_FORM = _("This form is damaged ({name} is not a number); reload the page and try again.")


def _get_match_for_user(request: HttpRequest, match_id: int) -> Match:
    """The match if this user may look at it, else 404 (a private match a stranger
    does not know of does not exist for them)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not pages.can_view(match, request.user):
        raise Http404("No such match.")
    return match


def _get_seat_for_user(match: Match, user: Any) -> Seat | None:
    """The user's live seat in this match, or None."""
    return pages.seat_of(match, user)



class _DamagedForm(Exception):
    pass


def _hidden_int(request: HttpRequest, name: str) -> int | None:
    """A hidden ``phase_id`` / ``version`` field: absent → None, junk → refused (400)."""
    raw = request.POST.get(name, "").strip()
    if not raw:
        return None
    value = parse_int(raw)
    if value is None:
        raise _DamagedForm(DAMAGED_FORM.format(name=name))
    return value



# --- lobby and creation ----------------------------------------------------------------

@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Home page: public matches filtered by game and status (rows rendered once and
    shared, ``games.lib.lobby``), and the user's own matches with a "your move" marker
    where the user is awaited and has not checked in; three queries in all."""
    filters = LobbyFilterForm(request.GET or None)
    game, status = filters.filters()
    open_matches = lobby_list.public_rows(game=game, status=status)
    mine = lobby_list.my_rows(request.user)
    joined = {mm.match_id for mm in mine}  # the reader's live seats
    your_move_count_known(request, sum(1 for mm in mine if mm.your_move))
    if mine:
        unread: dict[int, int] = {}
        for app in registry.all_apps():  # other apps plug in (press: unread messages)
            if app.unread_counts is not None:  # one cache call for all the reader's matches
                for match_id, count in app.unread_counts(request.user, sorted(joined)).items():
                    unread[match_id] = unread.get(match_id, 0) + count
        for mm in mine:
            mm.unread = unread.get(mm.match_id, 0)
    filter_game, filter_status = lobby_list.filter_fields(game=game, status=status)
    return render(request, "games/lobby.html", {
        "filter_game": filter_game, "filter_status": filter_status,
        "open_matches": open_matches, "my_matches": mine,
        "open_rows": lobby_list.rows_html(request, open_matches, joined=joined),
        "games": registry.all_games(), "status": status})


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """"My games": the reader's live matches by deadline (soonest first), whether each
    waits for them and whether they acted; the list, the nav count and the title come
    from one query (``selectors.my_games``)."""
    from games.context_processors import my_games_for_request

    games = my_games_for_request(request)
    names = {g.slug: g.name for g in registry.all_games()}
    return render(request, "games/my_games.html", {
        "games": games, "rows": [(g, names.get(g.game, g.game)) for g in games],
        "waiting": sum(1 for g in games if g.your_move)})


@login_required
@require_GET
def match_create_choose(request: HttpRequest) -> HttpResponse:
    """Step one of creating a match: pick the game."""
    return render(request, "games/match_create_choose.html", {"games": registry.all_games()})


@login_required
@require_http_methods(["GET", "POST"])
def match_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Create a public or private match of ``slug`` with the game's config form."""
    try:
        game = registry.get_game(slug)
    except registry.UnknownGame:
        raise Http404(UNKNOWN_GAME.format(slug=slug)) from None
    form = MatchCreateForm(request.POST or None, game=game)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                match = match_create(
                    game=game.slug, name=data["name"], created_by=request.user,
                    config=data["config"], min_players=data["min_players"],
                    max_players=data["max_players"], timezone=data["timezone"],
                    schedule=form.schedule(), is_private=data["is_private"],
                    starts_at=data.get("starts_at"), bots_enabled=data.get("bots_enabled", False),
                    early_close=bool(data.get("early_close")))
                if data.get("join"):
                    match_join(match=match, user=request.user, invite_code=match.invite_code)
                for app in registry.all_apps():  # other apps plug in (press: its rules)
                    if app.match_created is not None:
                        app.match_created(match, data)
            except ApplicationError as exc:
                form.add_error(_form_field(form, exc.field), exc.message)
                status = exc.client_status
            else:
                messages.success(request, CREATED)
                return redirect("games:match-detail", match_id=match.pk)
    return render(request, "games/match_create.html", {"form": form, "game": game},
                  status=status)


def _form_field(form: Any, field: str | None) -> str | None:
    if not field:
        return None
    field = field.removeprefix("config.")
    for name in (field, f"cfg_{field}"):
        if name in form.fields:
            return name
    return None


# --- joining ---------------------------------------------------------------------------

@login_required
@require_POST
def match_join_view(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _get_match_for_user(request, match_id)
    try:
        match_join(match=match, user=request.user)
    except ApplicationError as exc:
        return _match_page(request, match, status=exc.client_status, error=exc.message)
    messages.success(request, JOINED)
    return redirect("games:match-detail", match_id=match.pk)


@login_required
@require_POST
def match_leave_view(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _get_match_for_user(request, match_id)
    if _get_seat_for_user(match, request.user) is None:
        return _match_page(request, match, status=403, error=NOT_A_PLAYER)
    try:
        match_leave(match=match, user=request.user)
    except ApplicationError as exc:
        return _match_page(request, match, status=exc.client_status, error=exc.message)
    messages.success(request, LEFT)
    return redirect("games:lobby")


@login_required
@require_POST
def match_start_view(request: HttpRequest, match_id: int) -> HttpResponse:
    """The creator (or the director) starts a forming match by hand."""
    match = _get_match_for_user(request, match_id)
    if not may_start(match, request.user):
        return _match_page(request, match, status=403, error=NOT_ALLOWED_TO_START)
    try:
        match_start(match=match, actor=request.user)
    except ApplicationError as exc:
        return _match_page(request, match, status=exc.client_status, error=exc.message)
    messages.success(request, STARTED)
    return redirect("games:match-detail", match_id=match.pk)


@login_required
@require_http_methods(["GET", "POST"])
def match_invite(request: HttpRequest, code: str) -> HttpResponse:
    """``/join/<code>/``: GET shows the match and a join button, POST joins."""
    match = Match.objects.filter(invite_code=code).first()
    if match is None:
        raise Http404("This invite link is not valid.")
    seat = _get_seat_for_user(match, request.user)
    if seat is not None:
        return redirect("games:match-detail", match_id=match.pk)
    error, status = None, 200
    if request.method == "POST":
        try:
            match_join(match=match, user=request.user, invite_code=code)
        except ApplicationError as exc:
            error, status = exc.message, exc.client_status
        else:
            messages.success(request, JOINED)
            return redirect("games:match-detail", match_id=match.pk)
    players = match.seats.filter(removed_at__isnull=True).count()
    return render(request, "games/match_invite.html",
                  {"match": match, "code": code, "error": error, "players": players,
                   "game": pages.game_or_none(match.game)}, status=status)


# --- the match page --------------------------------------------------------------------

@require_GET
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match page; a logged-out visitor of a public match gets the spectator view
    (a private one sends them to log in)."""
    match = pages.page_match(match_id)
    if match is not None and not request.user.is_authenticated and match.is_private:
        return redirect_to_login(request.get_full_path())
    if match is None or not pages.can_watch(match, request.user):
        raise Http404("No such match.")
    if lookback.PHASE_PARAM in request.GET:  # an earlier phase as the reader saw it
        return match_phase_page(request, match)
    return _match_page(request, match)


def _match_page(request: HttpRequest, match: Match, *, status: int = 200,
                error: str | None = None, order_form: Any = None,
                order_error: str | None = None,
                checkin_error: str | None = None) -> HttpResponse:
    """Render the whole match page (also for a refused action, with its message); an
    htmx action gets the fragments instead (games/fragments/action.html)."""
    if request.method == "POST" and getattr(request, "htmx", False):
        match = Match.objects.get(pk=match.pk)  # the action may have changed it
    ctx = pages.match_context(request, match, order_form=order_form, order_error=order_error)
    ctx["action_error"] = error
    ctx["checkin_error"] = checkin_error  # shown next to the check-in button
    if request.method == "POST" and getattr(request, "htmx", False):
        return render(request, "games/fragments/action.html", ctx, status=status)
    return render(request, "games/match_detail.html", ctx, status=status)


def _action_done(request: HttpRequest, match: Match, message: str,
                 anchor: str = "") -> HttpResponse:
    """After a player action: Post/Redirect/Get with the message, or for htmx the
    fragments (and the message) at once."""
    messages.success(request, message)
    if getattr(request, "htmx", False):
        return _match_page(request, match)
    return redirect(reverse("games:match-detail", args=[match.pk]) + anchor)


@fast_poll(visitors=True)
@require_GET
def match_poll(request: HttpRequest, match_id: int) -> HttpResponse:
    """``?v=<version>``: 204 when the match has not changed, else every fragment (oob).
    The unchanged case is mostly answered before this view, by ``FastPollMiddleware``
    (``games.lib.polls``, one query); this is the full way, with the same answer.

    A poll whose session expired must not swap the login page into the match page:
    htmx gets ``HX-Redirect`` to the login page instead; plain GETs the usual redirect."""
    # a visitor's page polls with a=1; a logged-in page whose session expired does not
    visitor = (request.GET.get("a") == "1"
               and Match.objects.filter(pk=match_id, is_private=False).exists())
    if not request.user.is_authenticated and not visitor:
        login = f"{reverse('accounts:login')}?next={reverse('games:match-detail', args=[match_id])}"
        if getattr(request, "htmx", False):
            return HttpResponse(status=200, headers={"HX-Redirect": login})
        return redirect_to_login(request.get_full_path())
    match = (Match.objects.get(pk=match_id) if not request.user.is_authenticated
             else _get_match_for_user(request, match_id))
    if pages.poll_unchanged(request, match):
        return HttpResponse(status=204)
    ctx = pages.match_context(request, match)
    seen_phase = parse_int(request.GET.get("p"))
    phase = ctx["phase"]
    seen_can_order = request.GET.get("o") == "1"
    ctx["swap_order_form"] = ((phase.pk if phase else None) != seen_phase
                              or ctx["can_order"] != seen_can_order)
    return render(request, "games/fragments/poll.html", ctx)


@login_required
@require_GET
def match_diary(request: HttpRequest, match_id: int) -> HttpResponse:
    """``?turn=<n>[&part=<name>]``: one older turn of the reader's diary, loaded on demand
    (the match page opens only the latest turn). htmx gets the fragment (the game's
    ``diary_turn_template``, or the generic one); a plain GET goes to the match page with
    that turn open, so the link works without JavaScript."""
    match = _get_match_for_user(request, match_id)
    turn = parse_int(request.GET.get("turn"))
    if turn is None or turn < 0:
        return HttpResponse(BAD_TURN, status=400, content_type="text/plain; charset=utf-8")
    part = request.GET.get("part", "")
    if not getattr(request, "htmx", False):
        url = reverse("games:match-detail", args=[match.pk])
        return redirect(f"{url}?{pages.DIARY_PARAM}={turn}#{part or 'diary'}-t{turn}")
    return render(request, *pages.diary_turn(request, match, turn, part))


# --- player actions --------------------------------------------------------------------

def _seat_or_refuse(request: HttpRequest, match: Match) -> tuple[Seat | None, HttpResponse | None]:
    """The user's seat, or the page with the refusal (no seat: 403; game not installed:
    409, since the engine is needed to act)."""
    seat = _get_seat_for_user(match, request.user)
    if seat is None:
        return None, _match_page(request, match, status=403, error=NOT_A_PLAYER)
    if pages.game_or_none(match.game) is None:
        return None, _match_page(request, match, status=409,
                                 error=GAME_NOT_INSTALLED.format(slug=match.game))
    return seat, None


@login_required
@require_POST
def order_submit_view(request: HttpRequest, match_id: int) -> HttpResponse:
    """Turn the posted form into an order payload (the game's ``order_from_post`` or the
    generic JSON field) and submit it with the phase and version the page showed."""
    match = _get_match_for_user(request, match_id)
    seat, refused = _seat_or_refuse(request, match)
    if refused:
        return refused
    try:
        phase_id = _hidden_int(request, "phase_id")
        version = _hidden_int(request, "version")
        seat_version = _hidden_int(request, "seat_version")
    except _DamagedForm as exc:
        return _match_page(request, match, status=400, order_error=str(exc))
    form = None
    try:
        payload = pages.order_payload_from_post(match.game, request.POST)
    except pages.OrderFormInvalid as exc:
        form = exc.form
        return _match_page(request, match, status=400, order_form=form,
                           order_error=exc.message)
    try:
        order_submit(match=match, seat=seat, payload=payload, phase_id=phase_id,
                     version=version, seat_version=seat_version)
    except ApplicationError as exc:
        form = OrderForm(request.POST) if not pages.has_custom_order_form(match.game) else None
        return _match_page(request, match, status=exc.client_status, order_form=form,
                           order_error=exc.message)
    return _action_done(request, match, ORDER_SAVED, "#order")


EMAIL_MODE_SAVED = _("Your email choice for this match is saved.")


@login_required
@require_POST
def seat_email_view(request: HttpRequest, match_id: int) -> HttpResponse:
    """The per-match override of the reader's phase-email mode (empty = the profile's)."""
    match = _get_match_for_user(request, match_id)
    seat = _get_seat_for_user(match, request.user)
    if seat is None:
        return _match_page(request, match, status=403, error=NOT_A_PLAYER)
    try:
        seat_email_mode_set(seat=seat, mode=request.POST.get("email_mode", "").strip())
    except ApplicationError as exc:
        return _match_page(request, match, status=exc.client_status, error=exc.message)
    messages.success(request, EMAIL_MODE_SAVED)
    return redirect(reverse("games:match-detail", args=[match.pk]) + "#email-pref")


@login_required
@require_POST
def checkin_view(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _get_match_for_user(request, match_id)
    seat, refused = _seat_or_refuse(request, match)
    if refused:
        return refused
    try:
        seat_checkin(match=match, seat=seat, phase_id=_hidden_int(request, "phase_id"),
                     version=_hidden_int(request, "version"),
                     seat_version=_hidden_int(request, "seat_version"))
    except _DamagedForm as exc:
        return _match_page(request, match, status=400, checkin_error=str(exc))
    except ApplicationError as exc:
        return _match_page(request, match, status=exc.client_status, checkin_error=exc.message)
    return _action_done(request, match, CHECKED_IN)


@login_required
@require_POST
def checkin_withdraw_view(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _get_match_for_user(request, match_id)
    seat, refused = _seat_or_refuse(request, match)
    if refused:
        return refused
    try:
        seat_checkin_withdraw(match=match, seat=seat, phase_id=_hidden_int(request, "phase_id"))
    except _DamagedForm as exc:
        return _match_page(request, match, status=400, checkin_error=str(exc))
    except ApplicationError as exc:
        return _match_page(request, match, status=exc.client_status, checkin_error=exc.message)
    return _action_done(request, match, CHECKIN_WITHDRAWN)

