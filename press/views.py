"""The press pages: the panel's htmx list (204 while nothing new), the messages page with
older messages paged, and one POST URL per action (post, report, hide, mute). Every form
works without JavaScript (Post/Redirect/Get back to the page it came from); htmx gets the
panel fragment instead. Refusals answer their message with a 4xx, never a 500.
"""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django.utils.translation import gettext, gettext_noop

from games.exceptions import ApplicationError
from games.forms import parse_int
from games.lib import pages as game_pages
from games.lib import polls
from games.lib.polls import fast_poll
from games.models import Match
from press import access, selectors, services
from press.pages import panel_context

POSTED = gettext_noop("Your message is posted.")
REPORTED = gettext_noop("Thank you: the director will read this message.")
MUTED = gettext_noop("You no longer read this player in this match.")
UNMUTED = gettext_noop("You read this player again.")
HIDDEN = gettext_noop("The message is hidden.")
SHOWN = gettext_noop("The message is shown again.")
DAMAGED = gettext_noop("This form is damaged; reload the page and try again.")


def _get_match_for_user(request: HttpRequest, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not game_pages.can_view(match, request.user):
        raise Http404("No such match.")
    return match


def _back(request: HttpRequest, match: Match) -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        nxt = reverse("press:page", args=[match.pk])
    return nxt.split("#")[0] + "#press"


def _panel(request: HttpRequest, match: Match, *, status: int = 200,
           error: str | None = None) -> HttpResponse:
    """htmx: the panel fragment; otherwise the messages page (with the refusal)."""
    posted = {"text": request.POST.get("text", ""), "to": request.POST.get("to", "all"),
              "seats": request.POST.getlist("seats"), "next": request.POST.get("next", "")}
    ctx = panel_context(request, match, error=error, posted=posted if error else None,
                        show_mutes=not getattr(request, "htmx", False))
    if getattr(request, "htmx", False):
        return render(request, "press/fragments/panel.html", ctx, status=status)
    return render(request, "press/messages.html", ctx, status=status)


def _done(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        return _panel(request, match)
    flash.success(request, gettext(message))
    return redirect(_back(request, match))


@login_required
@require_GET
def page(request: HttpRequest, match_id: int) -> HttpResponse:
    """All my messages of a match, newest page first; ``?before=<id>`` pages back."""
    match = _get_match_for_user(request, match_id)
    before = parse_int(request.GET.get("before"))
    ctx = panel_context(request, match, before_id=before if before and before > 0 else None,
                        show_mutes=True)
    return render(request, "press/messages.html", ctx)


@require_GET
def message_list(request: HttpRequest, match_id: int) -> HttpResponse:
    """The polled list: ``?after=<id>`` → 204 while the reader has nothing newer."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    match = _get_match_for_user(request, match_id)
    reader = access.reader_for(match, request.user)
    after = parse_int(request.GET.get("after")) or 0
    if reader is None or selectors.last_id(reader) <= after:
        return HttpResponse(status=204)
    ctx = panel_context(request, match)
    return render(request, "press/fragments/list.html", ctx)


@login_required
@require_POST
def post(request: HttpRequest, match_id: int) -> HttpResponse:
    """The panel's form: ``to`` = all | team | private (+ ``seats``), ``text``."""
    match = _get_match_for_user(request, match_id)
    seats = [parse_int(s) for s in request.POST.getlist("seats")]
    if any(s is None for s in seats):
        return _panel(request, match, status=400, error=gettext(DAMAGED))
    # ticked players make the message private; otherwise "team" or the public board
    to: object = "team" if request.POST.get("to") == "team" else (seats or "all")
    try:
        services.message_post(match=match, user=request.user, to=to,
                              text=request.POST.get("text", ""))
    except services.RateLimited as exc:
        resp = _panel(request, match, status=429, error=exc.message)
        resp["Retry-After"] = str(exc.retry_after)
        return resp
    except ApplicationError as exc:
        return _panel(request, match, status=exc.client_status, error=exc.message)
    return _done(request, match, POSTED)


@login_required
@require_POST
def report(request: HttpRequest, match_id: int, message_id: int) -> HttpResponse:
    match = _get_match_for_user(request, match_id)
    try:
        services.message_report(match=match, user=request.user, message_id=message_id,
                                reason=request.POST.get("reason", ""))
    except ApplicationError as exc:
        return _panel(request, match, status=exc.client_status, error=exc.message)
    return _done(request, match, REPORTED)


@login_required
@require_POST
def hide(request: HttpRequest, match_id: int, message_id: int) -> HttpResponse:
    """The director hides (``hide=1``) or shows again (``hide=0``) a message."""
    match = _get_match_for_user(request, match_id)
    on = request.POST.get("hide", "1") != "0"
    try:
        services.message_hide(match=match, actor=request.user, message_id=message_id, hide=on)
    except ApplicationError as exc:
        return _panel(request, match, status=exc.client_status, error=exc.message)
    return _done(request, match, HIDDEN if on else SHOWN)


@login_required
@require_POST
def mute(request: HttpRequest, match_id: int) -> HttpResponse:
    """``seat`` and ``mute=1|0``: stop (or start again) reading a seat in this match."""
    match = _get_match_for_user(request, match_id)
    seat = parse_int(request.POST.get("seat"))
    if seat is None:
        return _panel(request, match, status=400, error=gettext(DAMAGED))
    on = request.POST.get("mute", "1") != "0"
    try:
        services.mute_set(match=match, user=request.user, seat_number=seat, muted=on)
    except ApplicationError as exc:
        return _panel(request, match, status=exc.client_status, error=exc.message)
    return _done(request, match, MUTED if on else UNMUTED)


def _unread_unchanged(request: HttpRequest, kwargs: dict) -> bool:
    """The poll's shortcut (``games.lib.polls``): the count the nav shows (``?v=``) is
    still the reader's, for an account the session still vouches for."""
    seen = parse_int(request.GET.get("v"))
    if seen is None:
        return False
    user_id = polls.session_account(request)
    return user_id is not None and seen == selectors.unread_total_of(user_id)


@fast_poll(check=_unread_unchanged)
@require_GET
def unread(request: HttpRequest) -> HttpResponse:
    """The nav's unread badge (polled by htmx every 10 s with the count it shows as
    ``?v=``): 204 while that count holds, else the badge (a visitor's stops polling)."""
    total = selectors.unread_total(request.user)
    if request.user.is_authenticated and parse_int(request.GET.get("v")) == total:
        return HttpResponse(status=204)
    return render(request, "press/fragments/nav_unread.html",
                  {"press_unread_total": total, "press_poll": request.user.is_authenticated})
