"""Message text: cleaning what a player typed (plain text, at most 2,000 characters) and
rendering it escaped with its links made clickable (``rel="nofollow noopener"``)."""

from __future__ import annotations

import re

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop

from config.textclean import clean_text as strip_invisible
from games.exceptions import ApplicationError
from press.models import MAX_LENGTH

EMPTY = gettext_noop("Write something first.")
TOO_LONG = gettext_noop("A message has at most %(limit)s characters (this one has %(n)s).")
NOT_TEXT = gettext_noop("text must be a string.")

URL_RE = re.compile(r"\bhttps?://[^\s<>\"']+", re.IGNORECASE)
_TRAILING = ".,;:!?)]}'\""


def clean_text(raw: object) -> str:
    """The text to store: newlines normalised, control, bidi and zero-width characters
    dropped (``config.textclean``), outer blanks stripped; refused when empty or too
    long."""
    if not isinstance(raw, str):
        raise ApplicationError(NOT_TEXT, code="INVALID", status=400, field="text")
    text = strip_invisible(raw.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if not text:
        raise ApplicationError(EMPTY, code="EMPTY", status=400, field="text")
    if len(text) > MAX_LENGTH:
        raise ApplicationError(gettext(TOO_LONG) % {"limit": MAX_LENGTH, "n": len(text)},
                               code="TOO_LONG",
                               status=400, field="text", details={"max_length": MAX_LENGTH})
    return text


def render_text(text: str) -> SafeString:
    """HTML for a message: everything escaped, http(s) links clickable.

    >>> render_text("<b>hi</b> https://x.org/a.")
    '&lt;b&gt;hi&lt;/b&gt; <a href="https://x.org/a" rel="nofollow noopener" target="_blank">https://x.org/a</a>.'
    """
    out: list[str] = []
    pos = 0
    for m in URL_RE.finditer(text):
        url = m.group(0).rstrip(_TRAILING)
        if len(url) <= len("https://"):
            continue
        out.append(escape(text[pos:m.start()]))
        out.append(format_html('<a href="{}" rel="nofollow noopener" target="_blank">{}</a>',
                               url, url))
        pos = m.start() + len(url)
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))  # noqa: S308 - every piece above is escaped
