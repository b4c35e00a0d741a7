"""Email bodies with fewer, fuller lines.

Templates are written for people to read, one tag or sentence a line, with blank lines
where a block was left out. On the wire every line costs: a mail server reads the DATA
section line by line, and a client shows stray blank lines. So the HTML part is written
with the whitespace between lines folded to one space (the same rendering: HTML collapses
whitespace, and our emails have no ``<pre>``) and re-wrapped into lines of a few hundred
bytes, well under SMTP's 998, between tags where it can (a sentence stays whole); the text
part keeps its lines (they are what the reader sees) but loses trailing spaces and runs
of blank lines.
"""

from __future__ import annotations

import re

_FOLD = re.compile(r"[ \t]*\n\s*")
_BLANKS = re.compile(r"[ \t]+\n")
_RUNS = re.compile(r"\n{3,}")

#: the HTML part's lines: at most this many bytes (a word longer than that aside)
HTML_LINE_BYTES = 500


def html_compact(html: str) -> str:
    """``html`` with line breaks folded into single spaces, wrapped at spaces."""
    return html_wrap(html_fold(html))


def html_fold(html: str) -> str:
    """``html`` with each run of whitespace that holds a line break folded into one space,
    and without whitespace at either end: ``html_compact`` before the wrapping (a body
    made of pieces folded apart is folded, and wraps as ``html_compact`` wraps it)."""
    return (_FOLD.sub(" ", html) if "\n" in html else html).strip()


def widest(text: str) -> int:
    """The largest code point in ``text`` (0 for nothing; 127 for plain ASCII, found
    without looking at each character)."""
    if not text:
        return 0
    return 0x7F if text.isascii() else ord(max(text))


def html_wrap(flat: str, top: int | None = None) -> str:
    """Folded HTML (``html_fold``) wrapped into lines of at most ``HTML_LINE_BYTES``
    bytes, between tags where it can; ``top``: ``widest(flat)`` if the caller knows it
    (of the pieces ``flat`` was put together from)."""
    if not flat:
        return "\n"
    # characters per line: as many as fit when each takes the most bytes any one here does
    top = widest(flat) if top is None else top
    width = HTML_LINE_BYTES // (1 if top < 0x80 else 2 if top < 0x800 else
                                3 if top < 0x10000 else 4)
    if len(flat) <= width:
        return flat + "\n"
    lines, start = [], 0
    while len(flat) - start > width:
        # between two tags where possible (a sentence stays on one line), else at a space
        cut = flat.rfind("> <", start, start + width) + 1
        if cut <= start:
            cut = flat.rfind(" ", start, start + width + 1)
        if cut <= start:  # one word longer than a line: it gets a line of its own
            cut = flat.find(" ", start + width)
            if cut < 0:
                break
        lines.append(flat[start:cut])
        start = cut + 1
    lines.append(flat[start:])
    return "\n".join(lines) + "\n"


def text_tidy(text: str) -> str:
    """``text`` without trailing spaces and with at most one blank line in a row."""
    return text_tidy_inner(text).strip("\n") + "\n"


def text_tidy_inner(text: str) -> str:
    """``text_tidy`` without the ends' newlines stripped: for a piece of a body (a body
    put together from tidy pieces is made tidy by ``text_tidy`` with little left to do).
    Each pattern is only run where it can match."""
    if " \n" in text or "\t\n" in text:
        text = _BLANKS.sub("\n", text)
    if "\n\n\n" in text:
        text = _RUNS.sub("\n\n", text)
    return text
