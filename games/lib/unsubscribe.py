"""Opaque one-click unsubscribe tokens: random keys stored in
``accounts.UnsubscribeToken``, one per user and email *category*.

Following a link turns that category off
(``games.services.notifications.notification_unsubscribe``). A token tells nothing (no
user id, nothing to forge: it is random and only the table maps it to a user) and never
expires: an old email's link must keep working (RFC 8058 one-click). Links signed with
``django.core.signing`` by earlier versions still work while the SECRET_KEY that signed
them is in place.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing

from accounts.models import UnsubscribeToken
from games import registry

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
    "match_news": "match_events",
    "message": "messages",
}
CATEGORIES = ("phase", "reminder", "match_events", "messages")


def category_for(kind: str) -> str:
    """The preference a kind's link turns off: the framework's table, then the apps' own
    kinds (``AppHooks.email_categories``), else the kind itself."""
    if kind in CATEGORY_FOR_KIND:
        return CATEGORY_FOR_KIND[kind]
    for app in registry.all_apps():
        if kind in app.email_categories:
            return app.email_categories[kind]
    return kind


class BadToken(ValueError):
    """The token was tampered with or is not ours."""


@dataclass(frozen=True)
class UnsubscribeRequest:
    user_id: int
    category: str


MAX_TOKEN_CHARS = 300


def make_token(user, kind: str) -> str:
    """The opaque URL-safe token for ``user`` and notification ``kind`` (or a category),
    made on first use and reused afterwards."""
    category = category_for(kind)
    if category not in CATEGORIES:
        raise ValueError(f"No unsubscribe category for {kind!r}.")
    known = user.__dict__.get("_unsubscribe_tokens")  # see prefetch_tokens
    if known is not None and category in known:
        return known[category]
    row, _ = UnsubscribeToken.objects.get_or_create(user=user, category=category)
    if known is not None:
        known[category] = row.token
    return row.token


def prefetch_tokens(users, *, kinds_for=None) -> None:
    """Attach the existing tokens of ``users`` to the user objects in one query, so a
    batch of emails does not ask the database once per email (the outbox sender).
    ``kinds_for`` (pairs of user and notification kind) also makes the missing tokens
    those emails need, in one insert, instead of one ``get_or_create`` per email."""
    users = [u for u in users if u is not None]
    by_user = _read_tokens({u.pk for u in users})
    missing = {(user.pk, category_for(kind)) for user, kind in kinds_for or ()
               if user is not None} - {(u, c) for u, known in by_user.items() for c in known}
    missing = {(u, c) for u, c in missing if c in CATEGORIES}
    if missing:
        UnsubscribeToken.objects.bulk_create(
            [UnsubscribeToken(user_id=u, category=c) for u, c in missing],
            ignore_conflicts=True)  # a concurrent sender may have made one: theirs stands
        for user_id, known in _read_tokens({u for u, _c in missing}).items():
            by_user.setdefault(user_id, {}).update(known)
    for user in users:
        user.__dict__["_unsubscribe_tokens"] = by_user.setdefault(user.pk, {})


def _read_tokens(user_ids) -> dict[int, dict[str, str]]:
    by_user: dict[int, dict[str, str]] = {}
    for user_id, category, token in UnsubscribeToken.objects.filter(
            user_id__in=user_ids).values_list("user_id", "category", "token"):
        by_user.setdefault(user_id, {})[category] = token
    return by_user


def read_token(token: str) -> UnsubscribeRequest:
    """What a token made by :func:`make_token` stands for; raises :class:`BadToken`."""
    if not token or len(token) > MAX_TOKEN_CHARS:
        raise BadToken("This unsubscribe link is not valid.")
    row = UnsubscribeToken.objects.filter(token=token).first()
    if row is not None and row.category in CATEGORIES:
        return UnsubscribeRequest(user_id=row.user_id, category=row.category)
    try:  # a link from an email sent before the tokens were opaque
        raw = signing.loads(token, salt=SALT)
    except signing.BadSignature as exc:
        raise BadToken("This unsubscribe link is not valid.") from exc
    if not isinstance(raw, dict) or raw.get("c") not in CATEGORIES or not isinstance(raw.get("u"), int):
        raise BadToken("This unsubscribe link is not valid.")
    return UnsubscribeRequest(user_id=raw["u"], category=raw["c"])


def unsubscribe_url(user, kind: str) -> str:
    """The absolute one-click link for ``user`` and ``kind`` (``/accounts/unsubscribe/<t>/``)."""
    return f"{settings.SITE_URL}/accounts/unsubscribe/{make_token(user, kind)}/"
