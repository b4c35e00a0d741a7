"""The name a person reads for a user, and the one for a deleted account.

A deleted account keeps its row (match records, diaries, ratings and press keep pointing at
it) but loses every personal datum: its username becomes ``former player #<id>`` — a form
Django's username validator refuses, so no one can sign up with it — and every page,
diary line, message and email shows it as "former player" in the reader's language
(:func:`shown_name`). A page that shows a raw username still shows nothing personal.
"""

from __future__ import annotations

from django.utils.translation import gettext

FORMER_PREFIX = "former player #"


def former_username(user_id: int) -> str:
    """The username a deleted account is given (unique, never a valid sign-up name)."""
    return f"{FORMER_PREFIX}{user_id}"


def is_former(username: str | None) -> bool:
    return bool(username) and str(username).startswith(FORMER_PREFIX)


def shown_name(username: str | None) -> str:
    """``username``, or "former player" (translated) for a deleted account."""
    if is_former(username):
        return gettext("former player")
    return username or ""
