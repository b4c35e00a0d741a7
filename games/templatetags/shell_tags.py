"""``{% memo key1 key2 … %}…{% endmemo %}``: a piece of the page shell rendered once per
process for each value of its keys (plus the language and the script prefix, always),
then served from ``games.lib.htmlcache.local`` — the nav's links and forms, the head's
scripts.

The keys must name everything the block shows; the block's ``{% csrf_token %}`` is
rendered as the cache's one CSRF placeholder and replaced by this reader's own token. Rendered without a CSRF token
in the context (no request) or with a key that cannot be a dict key, the block is simply
rendered.
"""

from __future__ import annotations

import itertools
from typing import Any

from django import template
from django.urls import get_script_prefix
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.lib import htmlcache

register = template.Library()
_blocks = itertools.count()  # a block's identity for the memo, fixed when it is parsed


class MemoNode(template.Node):
    def __init__(self, nodelist: template.NodeList, keys: list[Any]) -> None:
        self.nodelist = nodelist
        self.keys = keys
        self.block = next(_blocks)

    def render(self, context: template.Context) -> str:
        token = context.get("csrf_token")
        if not token or str(token) == "NOTPROVIDED":
            return self.nodelist.render(context)
        key = ("shell", self.block, get_language(), get_script_prefix(),
               *(k.resolve(context) for k in self.keys))
        try:
            html = htmlcache.local.get(key)
        except TypeError:  # a key value that is not hashable: no memo for it
            return self.nodelist.render(context)
        if html is None:
            with context.push(csrf_token=htmlcache.csrf_placeholder()):
                html = self.nodelist.render(context)
            htmlcache.local.put(key, html)
        return mark_safe(htmlcache.fill_csrf(html, token))  # noqa: S308 - rendered by the template


@register.tag("memo")
def do_memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    keys = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, keys)
