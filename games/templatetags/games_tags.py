"""Small display filters for the generic match pages (player view keys and values)."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext, pgettext

from games.lib import htmlcache
from games.lib.text import outcome_text

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
    """A phase kind for people: ``"ask:choose_character"`` → ``"Choose character"``, in
    the reader's language (each game lists its phase labels for the catalogue)."""
    return pgettext("phase", label(str(kind).rsplit(":", 1)[-1]))


@register.filter
def outcome_summary(outcome: Any) -> str:
    """A finished match's summary in the reader's language (games.lib.text.outcome_text)."""
    return outcome_text(outcome)


@register.filter
def tr(text: Any) -> Any:
    """An engine's sentence stored as text (a phase's ``default_text``) in the reader's
    language: the stored English is the message id the engine marked with ``T``."""
    return gettext(str(text)) if text else text


class _FragmentNode(template.Node):
    def __init__(self, nodelist: template.NodeList, name: str, scope: str,
                 parts: list[Any]) -> None:
        self.nodelist = nodelist
        self.name = name
        self.scope = scope
        self.parts = parts

    def render(self, context: template.Context) -> str:
        keys = context.get(htmlcache.KEYS_NAME)
        token = context.get("csrf_token")
        if not keys or context.get(htmlcache.NO_CACHE_FLAG) or token is None:
            return self.nodelist.render(context)  # not a cached page, or a refused form
        key = htmlcache.fragment_key(keys[self.scope], self.name,
                                          [p.resolve(context) for p in self.parts])
        hits = context.get("_fragment_hits")
        if hits is None:  # the first fragment of the page: every announced one at once
            hits = htmlcache.prefetch(keys, context.get(htmlcache.PREFETCH_NAME) or [])
            context.dicts[0]["_fragment_hits"] = hits
        # an announced fragment the prefetch did not find is rendered, not asked again
        html = hits[key] if key in hits else htmlcache.cache_get(key)
        if html is None:
            with context.push(csrf_token=htmlcache.csrf_placeholder()):
                html = str(self.nodelist.render(context))
            hits[key] = html  # the same fragment again in this page: rendered once
            writes = context.get(htmlcache.WRITES_NAME)
            if writes is not None:  # inside {% fragment_writes %}: written at its end
                writes[key] = html
            else:
                htmlcache.cache_set(key, html)
        return mark_safe(htmlcache.fill_csrf(html, token))


class _WritesNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        writes: dict[str, str] = {}
        with context.push({htmlcache.WRITES_NAME: writes}):
            html = self.nodelist.render(context)
        htmlcache.cache_set_many(writes)
        return html


@register.tag("fragment_writes")
def fragment_writes_tag(parser: Any, token: Any) -> _WritesNode:
    """``{% fragment_writes %}…{% endfragment_writes %}``: the fragments rendered anew
    inside (``{% fragment_cache %}`` misses) are written to the shared cache together, in
    one round trip at the end of the block, instead of one write each (a page after a
    change renders six or seven)."""
    nodelist = parser.parse(("endfragment_writes",))
    parser.delete_first_token()
    return _WritesNode(nodelist)


@register.simple_tag(takes_context=True)
def page_address(context: template.Context) -> str:
    """``{% page_address as here %}``: the page's address as fragment keys hold it
    (``htmlcache.page_address``: no query, ids as the URL builds them)."""
    request = context.get("request")
    return htmlcache.page_address(request) if request is not None else ""


@register.tag("fragment_cache")
def fragment_cache_tag(parser: Any, token: Any) -> _FragmentNode:
    """``{% fragment_cache "seats" "public" [part …] %}…{% endfragment_cache %}``: the
    block rendered once per key and read back from the cache (games/lib/htmlcache.py).
    The scope says whose it is: ``"public"`` (every reader sees it alike: keyed by the
    match's public version and roster) or ``"reader"`` (also keyed by who reads); the parts
    add what else the block shows (a diary turn asked for…). Pages whose context has no
    ``fragment_keys`` render the block as it is."""
    bits = token.split_contents()[1:]
    if len(bits) < 2 or bits[1].strip("\"'") not in htmlcache.SCOPES:
        raise template.TemplateSyntaxError(
            'fragment_cache needs a name and a scope ("public" or "reader")')
    nodelist = parser.parse(("endfragment_cache",))
    parser.delete_first_token()
    return _FragmentNode(nodelist, bits[0].strip("\"'"), bits[1].strip("\"'"),
                         [parser.compile_filter(b) for b in bits[2:]])


@register.simple_tag
def diary_older_links(turns: Any, part: Any, diary_url: Any, turn_word: Any) -> Any:
    """``{% diary_older_links diary_older part diary_url turn_word %}``: a link per older
    diary turn (htmx swaps the turn in place; without JavaScript the match page with that
    turn), written in Python: a template loop over a long match's turns cost ~50 µs each."""
    from games.lib.escape import conditional_escape as esc

    part, url, word = esc(part), esc(diary_url), esc(turn_word)
    start = esc(gettext("Start"))
    out = []
    for t in turns or ():
        n = esc(t)
        out.append(f'<div id="{part}-t{n}"><a href="?diary={n}#{part}-t{n}" '
                   f'hx-get="{url}?turn={n}&amp;part={part}" hx-target="#{part}-t{n}" '
                   f'hx-swap="outerHTML">{f"{word} {n}" if t else start}</a></div>')
    return mark_safe("".join(out))  # noqa: S308 - every value escaped


@register.simple_tag
def badge_items(labels: Any) -> Any:
    """``{% badge_items seat_labels %}``: the seat list's items, joined in Python (a
    template loop over a hundred seats cost about a millisecond of a page rendered anew)."""
    from games.lib.escape import conditional_escape

    return mark_safe("".join(f'<li class="badge">{conditional_escape(label)}</li>'  # noqa: S308
                             for label in labels or ()))  # every label escaped (or safe)


@register.simple_tag
def lookback_options(history: Any, selected: Any) -> Any:
    """The phase selector's options, newest first ("N · turn T · Kind"), written in
    Python: a template loop with a translated sentence per phase cost most of the
    fragment."""
    from games.lib.escape import conditional_escape

    out = []
    for ph in history or ():
        text = gettext("%(n)s · turn %(turn)s · %(kind)s") % {
            "n": ph.number, "turn": ph.turn, "kind": phase_label(ph.kind)}
        mark = " selected" if ph.number == selected else ""
        out.append(f'<option value="{conditional_escape(ph.number)}"{mark}>'
                   f"{conditional_escape(text)}</option>")
    return mark_safe("".join(out))  # noqa: S308 - every value escaped


@register.simple_tag
def history_rows(history: Any, match: Any) -> Any:
    """The earlier phases' table rows, each linking to that phase as the reader saw it;
    the address reversed once, not per row."""
    from django.urls import reverse
    from django.utils import timezone
    from django.utils.dates import MONTHS_3, WEEKDAYS_ABBR

    from games.lib.escape import conditional_escape

    base = conditional_escape(reverse("games:match-detail", args=[match.pk]))
    title = conditional_escape(gettext("This phase as you saw it"))
    # the ``date:"D j M, H:i"`` filter's output, the day and month names translated once
    days = {k: str(v) for k, v in WEEKDAYS_ABBR.items()}
    months = {k: str(v).title() for k, v in MONTHS_3.items()}
    labels: dict[Any, str] = {}
    out = []
    for ph in history or ():
        n = conditional_escape(ph.number)
        when = ""
        if ph.closed_at is not None:
            local = timezone.template_localtime(ph.closed_at)
            when = f"{days[local.weekday()]} {local.day} {months[local.month]}, {local:%H:%M}"
        if ph.kind not in labels:
            labels[ph.kind] = conditional_escape(phase_label(ph.kind))
        out.append(f'<tr><td><a href="{base}?phase={n}" title="{title}">{n}</a></td>'
                   f"<td>{conditional_escape(ph.turn)}</td><td>{labels[ph.kind]}</td>"
                   f"<td>{conditional_escape(when)}</td></tr>")
    return mark_safe("".join(out))  # noqa: S308 - every value escaped
