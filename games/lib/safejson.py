"""JSON from strangers, bounded before it is parsed: size and nesting depth are checked on
the raw text, so a 3,000-level ``[[[[…`` is refused with a clear message instead of a
RecursionError (a 500). ``NaN`` and ``Infinity`` are refused too (not JSON; they break
arithmetic and ``json.dumps`` round trips).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
MAX_BYTES = 64 * 1024

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
#: ``\u0000`` not preceded by another backslash: a NUL in a string (PostgreSQL's text and
#: jsonb refuse it)
_NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)


class JsonRefused(ValueError):
    """The text is not JSON we accept; ``str(exc)`` says why, for the person who sent it."""


def depth(text: str) -> int:
    """The deepest nesting of ``[`` / ``{`` in ``text`` (brackets inside strings do not
    count). Linear, no recursion; an unbalanced text still gets a number."""
    level = deepest = 0
    for ch in _BRACKETS.findall(_STRINGS.sub("", text)):
        if ch in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def _no_constants(name: str) -> Any:
    raise JsonRefused(f"{name} is not allowed in JSON")


def loads(raw: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(raw)`` once ``raw`` is at most ``max_bytes`` long and nested at most
    ``max_depth`` deep; raises :class:`JsonRefused` otherwise or when it is not JSON."""
    if len(raw) > max_bytes:
        raise JsonRefused(f"it is larger than {max_bytes // 1024} KiB")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise JsonRefused("it is not UTF-8 text") from None
    if _NUL_ESCAPE.search(raw):
        raise JsonRefused("it holds a NUL character (\\u0000)")
    if depth(raw) > max_depth:
        raise JsonRefused(f"it is nested deeper than {max_depth} levels")
    try:
        return json.loads(raw, parse_constant=_no_constants)
    except JsonRefused:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonRefused(str(exc)) from None
