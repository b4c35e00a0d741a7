"""Template tags for the generic match page's Sanguosha board and order form: the table
drawn from the ``view`` the framework already passes (never from raw state)."""

from __future__ import annotations

from typing import Any

from django import template

from sanguosha.pages import board_context

register = template.Library()


@register.simple_tag(takes_context=True)
def sanguosha_board(context: Any, view: Any, seat: Any, director: bool, match: Any) -> dict[str, Any]:
    """``{% sanguosha_board view seat director match as t %}``: seats, hand, piles, buttons."""
    if not view:
        return {}
    me = seat.number if seat is not None and getattr(seat, "number", None) is not None else None
    names = context.get("names") or {}
    finished = getattr(match, "status", "") == "finished"
    return board_context(view, me, names, finished=finished, omniscient=bool(director))
