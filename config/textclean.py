"""Invisible characters out of what players write: names (accounts, matches, tokens) and
press messages.

Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069, the marks U+200E,
U+200F, U+061C) reorder what follows them, so ``"evil\\u202egnp.exe"`` reads as another
text than it is; zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E,
the soft hyphen U+00AD) make two names that look the same differ. Both are dropped, with
the C0 controls and DEL. One exception in messages: the zero-width joiner between two
emoji (👨‍👩‍👧, 🏳️‍🌈) stays, as it only joins pictures.
"""

from __future__ import annotations

import re
import unicodedata

_INVISIBLE = ("\u00ad\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a-\u202e"
              "\u2060-\u2064\u2066-\u2069\ufeff")
_IN_NAMES = re.compile(f"[\\x00-\\x1f\\x7f{_INVISIBLE}]")
_IN_TEXT = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f{_INVISIBLE}]")
ZWJ = "\u200d"


def _pictograph(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk") or ch in "\ufe0f\u20e3"


def clean_name(text: str) -> str:
    """A name as shown to others: no control, bidi or zero-width character, outer blanks
    stripped."""
    return _IN_NAMES.sub("", text).strip()


def clean_text(text: str) -> str:
    """Message text: line breaks and tabs kept, controls and bidi/zero-width characters
    dropped, except a zero-width joiner between two emoji."""
    def drop(m: re.Match[str]) -> str:
        if m.group(0) == ZWJ:
            before, after = text[m.start() - 1:m.start()], text[m.end():m.end() + 1]
            if before and after and _pictograph(before) and _pictograph(after):
                return ZWJ
        return ""

    return _IN_TEXT.sub(drop, text)
