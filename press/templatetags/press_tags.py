"""Template tags that plug press into other apps' pages with one line each: the panel on a
match page, the unread badge in the nav and per match in the lobby lists."""

from __future__ import annotations

from typing import Any

from django import template

from games import registry
from games.lib import pages as game_pages
from press import access, selectors
from press.pages import panel_context
from press.text import render_text

register = template.Library()


@register.inclusion_tag("press/fragments/panel.html", takes_context=True)
def press_panel(context: template.Context) -> dict[str, Any]:
    request, match = context.get("request"), context.get("match")
    if request is None or match is None or not getattr(match, "pk", None):
        return {"reader": None}
    game_pages.load_heavy(match)  # the reader's view (alive, team) needs the state
    # the match page's seats (``SeatRow``: number, user_id, username), when it has them
    seats = context.get("seats")
    if not (isinstance(seats, list) and all(isinstance(s, game_pages.SeatRow) for s in seats)):
        seats = None
    return panel_context(request, match, seats=seats)


@register.simple_tag(takes_context=True)
def press_version(context: template.Context) -> int:
    """The match's press version (press/freshness.py), for the panel's cache key: from the
    match page's match row, else the settings row the panel reads next."""
    match = context.get("match")
    if match is None or not getattr(match, "pk", None):
        return 0
    loaded = getattr(match, "press_version", None)  # the match page's row carries it
    if loaded is not None:
        return int(loaded)
    return access.settings_for(match).version


@register.simple_tag(takes_context=True)
def press_unread(context: template.Context, match_id: int) -> int:
    """Unread messages of one of my matches (0 if none); no query (cache counters)."""
    request = context.get("request")
    if request is None:
        return 0
    return selectors.unread_counts(request.user, [match_id]).get(match_id, 0)


#: the framework's pages that show a match's messages (and so mark them read while
#: rendering); each game adds its own one-match pages (:func:`reading_pages`)
READING_PAGES = frozenset({"games:match-detail", "press:page"})


def reading_pages() -> frozenset[str]:
    """Every page that shows a match's messages: ours and each game's
    (``GameHooks.match_pages()``)."""
    pages = set(READING_PAGES)
    for game in registry.all_games():
        pages |= game.hooks.match_pages()
    return frozenset(pages)


@register.inclusion_tag("press/fragments/nav_unread.html", takes_context=True)
def press_nav_unread(context: template.Context) -> dict[str, Any]:
    """The nav badge. On a page that shows a match's messages the nav is rendered before
    the panel marks them read, so that match's count is left out here already."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"press_unread_total": 0, "press_poll": False}
    total = selectors.unread_total(user)
    resolved = getattr(request, "resolver_match", None)
    if total and resolved is not None and resolved.view_name in reading_pages():
        match_id = resolved.kwargs.get("match_id")
        if isinstance(match_id, int):
            total -= selectors.unread_counts(user, [match_id]).get(match_id, 0)
    return {"press_unread_total": max(0, total), "press_poll": True}


@register.filter
def press_text(text: str) -> Any:
    return render_text(text)


@register.simple_tag
def press_seat_boxes(others: Any) -> Any:
    """The press form's recipients, a check box per seat ("N. name"), written in Python:
    a hundred seats through a template loop (each number localized) was most of the
    panel's rendering."""
    from games.lib.escape import conditional_escape
    from django.utils.safestring import mark_safe

    out = []
    for o in others or ():
        number = conditional_escape(str(o["number"]))
        checked = " checked" if o.get("checked") else ""
        out.append(f'<label><input type="checkbox" name="seats" value="{number}"{checked}> '
                   f'{number}. {conditional_escape(o["name"])}</label> ')
    return mark_safe("".join(out))  # noqa: S308 - every value escaped
