"""HTML escaping for markup written in Python (the rows, options and lists templates used
to loop over): Django's ``escape`` and ``conditional_escape`` with the same output, without
their lazy-string wrapper (``keep_lazy`` checks every argument on every call: a thousand
calls a match page, a tenth of its rendering)."""

from __future__ import annotations

from html import escape as _escape
from typing import Any

from django.utils.functional import Promise


def escape(value: Any) -> str:
    """``django.utils.html.escape``: always escaped, safe strings too."""
    return _escape(str(value))


def conditional_escape(value: Any) -> str:
    """``django.utils.html.conditional_escape``: safe strings (``__html__``) as they are."""
    if isinstance(value, Promise):
        value = str(value)
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return _escape(str(value))
