"""``{{ user.get_username|shown_name }}``: a deleted account reads "former player"
(``accounts.names``)."""

from __future__ import annotations

from django import template

from accounts.names import shown_name as _shown_name

register = template.Library()


@register.filter
def shown_name(username: str | None) -> str:
    return _shown_name(username)
