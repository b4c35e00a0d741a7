"""Engine sentences in the reader's language: an engine writes ``games.rules.Msg`` (its
English text with the message id and parameters), and :func:`say` looks the id up in
Django's catalogues and fills in the parameters, themselves said first. Plain strings (a
player's name, an admin-made zone name) pass through unchanged: names are never translated.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext, ngettext, npgettext, pgettext

from games.rules import Msg


def say(text: Any, lang: str | None = None) -> Any:
    """``text`` in ``lang`` (default: the active language); non-``Msg`` values as they are."""
    if lang is not None:
        with translation.override(lang):
            return _say(text)
    return _say(text)


def _say(x: Any) -> Any:
    if isinstance(x, Msg):
        if x.plural is not None:
            n = x.n if x.n is not None else 0
            template = (npgettext(x.context, x.msgid, x.plural, n) if x.context
                        else ngettext(x.msgid, x.plural, n))
        else:
            template = pgettext(x.context, x.msgid) if x.context else gettext(x.msgid)
        if not x.params:
            return template
        values = {k: _say(v) for k, v in x.params.items()}
        try:
            return template % values
        except (KeyError, ValueError, TypeError):  # a broken translation: the English stays
            return str(x)
    if isinstance(x, (list, tuple)):
        # Translators: what separates the items of a list ("Kill ♠7, Dodge ♥2")
        return pgettext("list separator", ", ").join(str(_say(v)) for v in x)
    return x


def to_json(x: Any) -> Any:
    """A ``Msg`` as JSON (stored with a match's outcome), parameters included."""
    if isinstance(x, Msg):
        return {"id": x.msgid, "plural": x.plural, "n": x.n, "context": x.context,
                "params": {k: to_json(v) for k, v in x.params.items()}}
    if isinstance(x, (list, tuple)):
        return [to_json(v) for v in x]
    return x


def from_json(x: Any) -> Any:
    """:func:`to_json` read back: the ``Msg`` (plain values stay as they are)."""
    if isinstance(x, dict) and "id" in x and "params" in x:
        return Msg(x["id"], {k: from_json(v) for k, v in (x.get("params") or {}).items()},
                   plural=x.get("plural"), n=x.get("n"), context=x.get("context"))
    if isinstance(x, list):
        return [from_json(v) for v in x]
    return x


def outcome_text(outcome: Any) -> str:
    """A finished match's summary in the reader's language: its stored ``summary_msg``
    said now, else the stored (English) summary as it is."""
    if not isinstance(outcome, dict):
        return ""
    if outcome.get("summary_msg"):
        try:
            return str(say(from_json(outcome["summary_msg"])))
        except (TypeError, ValueError, KeyError):
            pass
    return str(outcome.get("summary") or "")
