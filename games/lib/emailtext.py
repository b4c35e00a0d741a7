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
    flat = _FOLD.sub(" ", html).strip()
    if not flat:
        return "\n"
    # characters per line: as many as fit when each takes the most bytes any one here does
    top = ord(max(flat))
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
    return _RUNS.sub("\n\n", _BLANKS.sub("\n", text)).strip("\n") + "\n"
