"""Small display filters for the generic match pages (player view keys and values)."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def label(key: Any) -> str:
    """``"my_guess"`` → ``"My guess"``."""
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def pretty(value: Any) -> str:
    """A JSON value as readable text: scalars plain, lists and dicts as indented JSON."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(_("yes")) if value else str(_("no"))
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, indent=1, ensure_ascii=False, sort_keys=True)
    return str(value)


@register.filter
def is_compound(value: Any) -> bool:
    return isinstance(value, (dict, list, tuple))


@register.filter
def phase_label(kind: Any) -> str:
    """A phase kind for people: ``"ask:choose_character"`` → ``"Choose character"``."""
    return label(str(kind).rsplit(":", 1)[-1])
