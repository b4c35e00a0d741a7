"""Template helpers for Dice Slayer boards: a die face drawn as an inline SVG with pips.

``{% die 4 %}`` draws a 4 (``role="img"`` with the number as its accessible name, so screen
readers and text-based tests read "4"); a face outside 1–6 draws an empty die.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, mark_safe
from django.utils.translation import gettext

register = template.Library()

_L, _C, _R = 27, 50, 73
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_C, _C),),
    2: ((_L, _L), (_R, _R)),
    3: ((_L, _L), (_C, _C), (_R, _R)),
    4: ((_L, _L), (_R, _L), (_L, _R), (_R, _R)),
    5: ((_L, _L), (_R, _L), (_C, _C), (_L, _R), (_R, _R)),
    6: ((_L, _L), (_R, _L), (_L, _C), (_R, _C), (_L, _R), (_R, _R)),
}


@register.simple_tag
def die(face, css: str = "") -> str:
    """An SVG die showing ``face`` (1–6), classes ``die die-<face>`` plus ``css``."""
    try:
        value = int(face)
    except (TypeError, ValueError):
        value = 0
    pips = PIPS.get(value, ())
    circles = mark_safe("".join(
        f'<circle cx="{x}" cy="{y}" r="9" class="pip"/>' for x, y in pips))
    label = str(value) if pips else gettext("empty")
    return format_html(
        '<svg class="die die-{} {}" viewBox="0 0 100 100" role="img" aria-label="{}">'
        '<rect x="4" y="4" width="92" height="92" rx="18" class="face"/>{}</svg>',
        value, css, label, circles)


@register.filter
def faces_text(faces) -> str:
    """``[2, 3, 4]`` → ``"2-3-4"``."""
    return "-".join(str(f) for f in faces or [])


@register.filter
def get_item(mapping, key):
    """``{{ names|get_item:seat }}``: a dict lookup with a variable key."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
