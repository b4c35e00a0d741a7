"""Template tags that plug press into other apps' pages with one line each: the panel on a
match page, the unread badge in the nav and per match in the lobby lists."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Seat
from press import selectors
from press.pages import panel_context
from press.text import render_text

register = template.Library()


@register.inclusion_tag("press/fragments/panel.html", takes_context=True)
def press_panel(context: template.Context) -> dict[str, Any]:
    request, match = context.get("request"), context.get("match")
    if request is None or match is None or not getattr(match, "pk", None):
        return {"reader": None}
    seats = context.get("seats")  # the match page's seat list, when it has one
    if not (isinstance(seats, list) and all(
            isinstance(s, Seat) and Seat.user.is_cached(s) for s in seats)):
        seats = None
    return panel_context(request, match, seats=seats)


@register.simple_tag(takes_context=True)
def press_unread(context: template.Context, match_id: int) -> int:
    """Unread messages of one of my matches (0 if none); no query (cache counters)."""
    request = context.get("request")
    if request is None:
        return 0
    return selectors.unread_counts(request.user, [match_id]).get(match_id, 0)


@register.inclusion_tag("press/fragments/nav_unread.html", takes_context=True)
def press_nav_unread(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"press_unread_total": selectors.unread_total(user) if user else 0,
            "press_poll": bool(user and user.is_authenticated)}


@register.filter
def press_text(text: str) -> Any:
    return render_text(text)
