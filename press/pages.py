"""What the press panel and page show: the reader's latest messages with phase markers,
the pinned announcements, the form's choices (public, team, seats) and the mute list, in a
fixed number of queries whatever the number of messages (older ones are paged)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext

from accounts.names import shown_name
from games.lib.htmlcache import page_address
from games.models import Match, Seat
from press import access, selectors, services
from press.models import Message, PressRules

C = Message.Channel


def panel_context(request: HttpRequest, match: Match, *, before_id: int | None = None,
                  error: str | None = None, posted: dict[str, Any] | None = None,
                  mark_read: bool = True, limit: int = selectors.PAGE_SIZE,
                  seats: list[Any] | None = None, show_mutes: bool = False) -> dict[str, Any]:
    """Context of templates/press/fragments/panel.html (``reader`` None: nothing shown).
    The mute list (one more query) is shown on the messages page, not on match pages."""
    reader = access.reader_for(match, request.user)
    ctx: dict[str, Any] = {"match": match, "reader": reader, "press_error": error,
                           "posted": posted or {}, "rows": [], "pinned": []}
    if reader is None:
        return ctx
    messages, more = selectors.messages_page(reader, before_id=before_id, limit=limit)
    rows = selectors.rows_for(reader, messages)
    newest = max((m.pk for m in messages), default=0)
    if mark_read and before_id is None and newest and reader.is_player \
            and selectors.unread_counts(request.user, [match.pk]):
        services.read_mark(match=match, user=request.user, last_id=newest)
    pin = reader.press.pinned if reader.press.pk else None
    writable = access.can_write(reader)
    full = reader.press.rules == PressRules.FULL and reader.is_player
    alive = reader.is_player and (match.state is None or reader.alive)
    others: list[dict[str, Any]] = []
    if reader.is_player and ((full and writable) or show_mutes):  # names for the form
        if seats is None:
            seats = list(match.seats.filter(removed_at__isnull=True, number__isnull=False)
                         .select_related("user").order_by("number"))
        ticked = {str(n) for n in (posted or {}).get("seats") or []}
        others = [{"number": s.number, "name": _name(s), "checked": str(s.number) in ticked}
                  for s in seats if s.number is not None and s.removed_at is None
                  and s.number != reader.number]
    ctx.update(
        shown=bool(rows or reader.press.rules != PressRules.NONE or reader.director),
        rows=rows, more=more, first_id=messages[0].pk if messages else None,
        last_id=newest if before_id is None else selectors.last_id(reader),
        pinned=selectors.rows_for(reader, [pin]) if pin and not pin.is_hidden
        and before_id is None else [],
        can_write=writable, director=reader.director,
        can_private=writable and full and alive and reader.number is not None,
        can_team=writable and full and alive and bool(reader.team()),
        others=others, muted=selectors.muted_seats(reader) if show_mutes else set(),
        show_mutes=show_mutes,
        rules=reader.press.get_rules_display(),
        list_url=reverse("press:list", args=[match.pk]),
        page_url=reverse("press:page", args=[match.pk]),
        next_url=_next_url(request),
    )
    return ctx


def _name(seat: Any) -> str:
    """A seat's player name: a ``Seat`` with its user, or the match page's ``SeatRow``."""
    if not seat.user_id:
        return gettext("bot")
    if isinstance(seat, Seat):
        return shown_name(seat.user.get_username())
    return shown_name(seat.username)


def _next_url(request: HttpRequest) -> str:
    """Where a no-JS form returns to: the page that showed the panel."""
    match = getattr(request, "resolver_match", None)
    if request.method == "GET" and not (match and match.namespace == "press"):
        # the address the panel's cache key holds (no query: made-up parameters would
        # make a new entry each)
        return page_address(request)
    return request.POST.get("next") or request.GET.get("next") or ""
