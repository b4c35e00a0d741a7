"""The Three Kingdoms Kill pages: create a table, the table itself (full page, an htmx
fragment polled every few seconds that answers 204 while nothing changed, and one POST URL
for answering the open ask), and the card / character catalogue.

Permissions and refusals follow ``games.views``: lookup and permission together, services
raise ``ApplicationError`` and the view answers with its message and 4xx status; a refused
answer changes nothing. Every page is built by ``sanguosha.pages.table_context`` from the
player view and the reader's diary rows.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.exceptions import ApplicationError
from games.forms import parse_int
from games.lib import pages as game_pages
from games.lib.polls import fast_poll
from games.models import Match
from games.selectors import may_start
from games.services.matches import match_create, match_join, match_start
from games.services.orders import order_submit
from games.services.seats import seat_checkin_withdraw
from sanguosha import pages
from sanguosha.engine.data import RANK_TEXT, SUIT_SYMBOL
from sanguosha.forms import TableCreateForm, schedule_for
from sanguosha.models import CardType, Character, Skill

SLUG = "sanguosha"
ANSWER_SAVED = gettext_lazy("Your answer is in.")
ANSWER_REOPENED = gettext_lazy("You can change your answer until the ask closes.")
NOT_A_PLAYER = gettext_lazy("You do not have a seat at this table.")
NOT_THIS_GAME = gettext_lazy("This match is not a Three Kingdoms Kill table.")
SAT_DOWN = gettext_lazy("You sit at the table.")
STARTED = gettext_lazy("Identities are dealt: the lord chooses a character first.")
NOT_ALLOWED_TO_START = gettext_lazy("Only the table's host or the director can start it.")
DAMAGED = gettext_lazy("This form is damaged (phase_id is not a number); reload the page "
                       "and try again.")


def _get_table(request: HttpRequest, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not game_pages.can_view(match, request.user):
        raise Http404("No such match.")
    if match.game != SLUG:
        raise Http404(NOT_THIS_GAME)
    return match


def _render_table(request: HttpRequest, match: Match, *, status: int = 200,
                  error: str | None = None, fragment: bool = False) -> HttpResponse:
    ctx = pages.table_page(request, match, error=error, fragment=fragment)
    if fragment and ctx["table_html"] is not None:  # kept: the fragment as it is
        return HttpResponse(ctx["table_html"], status=status)
    template = "sanguosha/fragments/table.html" if fragment else "sanguosha/table.html"
    return render(request, template, ctx, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def table_create(request: HttpRequest) -> HttpResponse:
    """A new table for 4–10 players with the sanguosha.md settings (any logged-in user)."""
    form = TableCreateForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                match = match_create(
                    game=SLUG, name=data["name"], created_by=request.user, config=data["config"],
                    min_players=data["min_players"], max_players=data["max_players"],
                    schedule=schedule_for(data["config"]), is_private=data["is_private"],
                    bots_enabled=data["bots_enabled"])
                if data.get("join"):
                    match_join(match=match, user=request.user, invite_code=match.invite_code)
            except ApplicationError as exc:
                form.add_error(None, exc.message)
                status = exc.client_status
            else:
                messages.success(request, gettext_lazy(
                    "The table is set. Share it; start when everyone sits."))
                return redirect("sanguosha:table", match_id=match.pk)
    return render(request, "sanguosha/create.html", {"form": form}, status=status)


@login_required
@require_POST
def table_sit(request: HttpRequest, match_id: int) -> HttpResponse:
    """Take a seat at a forming public table (``match_join``)."""
    match = _get_table(request, match_id)
    try:
        match_join(match=match, user=request.user)
    except ApplicationError as exc:
        status = exc.client_status
        return _render_table(request, match, status=status, error=exc.message)
    messages.success(request, SAT_DOWN)
    return redirect("sanguosha:table", match_id=match.pk)


@login_required
@require_POST
def table_start(request: HttpRequest, match_id: int) -> HttpResponse:
    """The host (or the director) deals identities and starts (``match_start``)."""
    match = _get_table(request, match_id)
    if not may_start(match, request.user):
        return _render_table(request, match, status=403, error=NOT_ALLOWED_TO_START)
    try:
        match_start(match=match, actor=request.user)
    except ApplicationError as exc:
        status = exc.client_status
        return _render_table(request, match, status=status, error=exc.message)
    messages.success(request, STARTED)
    return redirect("sanguosha:table", match_id=match.pk)


@login_required
@require_GET
def table(request: HttpRequest, match_id: int) -> HttpResponse:
    return _render_table(request, _get_table(request, match_id))


@fast_poll(game=SLUG)
@login_required
@require_GET
def table_poll(request: HttpRequest, match_id: int) -> HttpResponse:
    """``?v=<version>``: 204 while the match is unchanged, else the table fragment."""
    match = _get_table(request, match_id)
    if game_pages.poll_unchanged(request, match):  # public version + own seat version
        return HttpResponse(status=204)
    return _render_table(request, match, fragment=True)


@login_required
@require_POST
def answer(request: HttpRequest, match_id: int) -> HttpResponse:
    """Answer the open ask: the posted buttons/boxes become an order (``order_from_post``),
    submitted for the phase the page showed; a later phase refuses it as stale."""
    match = _get_table(request, match_id)
    fragment = bool(getattr(request, "htmx", False))
    seat = game_pages.seat_of(match, request.user)
    if seat is None:
        return _render_table(request, match, status=403, error=NOT_A_PLAYER, fragment=fragment)
    raw_phase = request.POST.get("phase_id", "").strip()
    phase_id = parse_int(raw_phase) if raw_phase else None
    if raw_phase and phase_id is None:
        return _render_table(request, match, status=400, error=DAMAGED, fragment=fragment)
    try:
        payload = game_pages.order_payload_from_post(SLUG, request.POST)
    except game_pages.OrderFormInvalid as exc:
        return _render_table(request, match, status=400, error=exc.message, fragment=fragment)
    try:
        order_submit(match=match, seat=seat, payload=payload, phase_id=phase_id)
    except ApplicationError as exc:
        status = exc.client_status
        return _render_table(request, match, status=status, error=exc.message, fragment=fragment)
    match.refresh_from_db()
    if fragment:
        return _render_table(request, match, fragment=True)
    messages.success(request, ANSWER_SAVED)
    return redirect(reverse("sanguosha:table", args=[match.pk]))


@login_required
@require_POST
def answer_withdraw(request: HttpRequest, match_id: int) -> HttpResponse:
    """Take an answer back while the ask is open, to give another (refused in a Negate
    window once a Negate closed it: ``checkin_final``)."""
    match = _get_table(request, match_id)
    fragment = bool(getattr(request, "htmx", False))
    seat = game_pages.seat_of(match, request.user)
    if seat is None:
        return _render_table(request, match, status=403, error=NOT_A_PLAYER, fragment=fragment)
    raw_phase = request.POST.get("phase_id", "").strip()
    phase_id = parse_int(raw_phase) if raw_phase else None
    if raw_phase and phase_id is None:
        return _render_table(request, match, status=400, error=DAMAGED, fragment=fragment)
    try:
        seat_checkin_withdraw(match=match, seat=seat, phase_id=phase_id)
    except ApplicationError as exc:
        status = exc.client_status
        return _render_table(request, match, status=status, error=exc.message, fragment=fragment)
    match.refresh_from_db()
    if fragment:
        return _render_table(request, match, fragment=True)
    messages.success(request, ANSWER_REOPENED)
    return redirect(reverse("sanguosha:table", args=[match.pk]))


# --- the catalogue ---------------------------------------------------------------------

@require_GET
def catalogue(request: HttpRequest) -> HttpResponse:
    """Every card type and character, English and Chinese names, with links to the rules."""
    return render(request, "sanguosha/catalogue.html", {
        "card_types": CardType.objects.all(),
        "characters": Character.objects.prefetch_related(
            Prefetch("skills", queryset=Skill.objects.order_by("order"))),
    })


@require_GET
def card_detail(request: HttpRequest, slug: str) -> HttpResponse:
    card_type = get_object_or_404(CardType, slug=slug)
    cards = list(card_type.cards.all())
    for c in cards:  # ♠7, not "spade 7": the suit's symbol reads the same in every language
        c.symbol = SUIT_SYMBOL.get(c.suit, c.suit)
        c.rank_text = RANK_TEXT.get(c.rank, c.rank)
    return render(request, "sanguosha/card.html", {
        "card_type": card_type, "cards": cards,
        "skill": Skill.objects.filter(slug=slug).first()})


@require_GET
def character_detail(request: HttpRequest, slug: str) -> HttpResponse:
    character = get_object_or_404(Character, slug=slug)
    return render(request, "sanguosha/character.html", {
        "character": character, "skills": character.skills.all()})
