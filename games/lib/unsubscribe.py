"""Signed one-click unsubscribe tokens (django.core.signing; no hand-written crypto).

A token names a user and an email *category*; following it turns that category off
(``games.services.notifications.notification_unsubscribe``). Tokens do not expire: an old
email's link must keep working (RFC 8058 one-click).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing

SALT = "games.unsubscribe"

# Which preference each notification kind's link turns off.
CATEGORY_FOR_KIND = {
    "new_phase": "phase",
    "your_turn": "phase",
    "digest": "phase",
    "reminder": "reminder",
    "match_started": "match_events",
    "match_finished": "match_events",
    "start_overdue": "match_events",
    "director": "match_events",
    "message": "messages",
}
CATEGORIES = ("phase", "reminder", "match_events", "messages")


class BadToken(ValueError):
    """The token was tampered with or is not ours."""


@dataclass(frozen=True)
class UnsubscribeRequest:
    user_id: int
    category: str


def make_token(user, kind: str) -> str:
    """A URL-safe signed token for ``user`` and notification ``kind`` (or a category)."""
    category = CATEGORY_FOR_KIND.get(kind, kind)
    if category not in CATEGORIES:
        raise ValueError(f"No unsubscribe category for {kind!r}.")
    return signing.dumps({"u": user.pk, "c": category}, salt=SALT, compress=True)


def read_token(token: str) -> UnsubscribeRequest:
    """Decode a token made by :func:`make_token`; raises :class:`BadToken`."""
    try:
        raw = signing.loads(token, salt=SALT)
    except signing.BadSignature as exc:
        raise BadToken("This unsubscribe link is not valid.") from exc
    if not isinstance(raw, dict) or raw.get("c") not in CATEGORIES or not isinstance(raw.get("u"), int):
        raise BadToken("This unsubscribe link is not valid.")
    return UnsubscribeRequest(user_id=raw["u"], category=raw["c"])


def unsubscribe_url(user, kind: str) -> str:
    """The absolute one-click link for ``user`` and ``kind`` (``/accounts/unsubscribe/<t>/``)."""
    return f"{settings.SITE_URL}/accounts/unsubscribe/{make_token(user, kind)}/"
