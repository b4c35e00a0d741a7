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


#: rendered fragments live this long (their key changes with the match version anyway)
FRAGMENT_TTL = 600


class _FragmentNode(template.Node):
    def __init__(self, nodelist: template.NodeList, parts: list[Any]) -> None:
        self.nodelist = nodelist
        self.parts = parts

    def render(self, context: template.Context) -> str:
        from django.core.cache import cache
        from django.utils import timezone, translation

        values = [str(p.resolve(context)) for p in self.parts]
        key = "frag:" + ":".join([*values, translation.get_language() or "",
                                  timezone.get_current_timezone_name()])
        try:
            hit = cache.get(key)
        except Exception:  # noqa: BLE001 - the cache is an accelerator, never a dependency
            hit = None
        if hit is not None:
            return str(hit)
        out = self.nodelist.render(context)
        try:
            cache.set(key, out, FRAGMENT_TTL)
        except Exception:  # noqa: BLE001
            pass
        return out


@register.tag("fragment_cache")
def fragment_cache(parser: Any, token: Any) -> _FragmentNode:
    """``{% fragment_cache "seats" match.pk match.version %}…{% endfragment_cache %}``: the
    block rendered once per key (plus the active language and time zone) and read back
    from the cache; for what every reader sees alike and only changes with the match's
    public version (the seat list, the closed phases). A cache failure renders it."""
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("fragment_cache needs a name and the key parts")
    nodelist = parser.parse(("endfragment_cache",))
    parser.delete_first_token()
    return _FragmentNode(nodelist, [parser.compile_filter(b) for b in bits])
