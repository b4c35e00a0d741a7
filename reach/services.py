"""What a player does with their channels (the API and the profile page share these):
store or remove a push subscription, add, remove or test a webhook, set the modes, get or
revoke the private calendar link. Each refusal is an ``ApplicationError`` with a clear
message and changes nothing."""

from __future__ import annotations

import base64
import binascii
import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_noop

from games.exceptions import ApplicationError
from games.models import Match, Notification
from reach import messages, safehttp, vapid
from reach.models import ChannelPrefs, Mode, PushSubscription, Webhook

PUSH_OFF = gettext_noop("Push notifications are not configured on this server.")
BAD_SUBSCRIPTION = gettext_noop("Send the browser's subscription: an endpoint and the keys "
                                "p256dh and auth.")
TOO_MANY_SUBSCRIPTIONS = gettext_noop("You have too many devices with notifications on; "
                                      "turn one off first.")
BAD_KIND = gettext_noop("The kind must be json, discord or slack.")
NO_MATCH = gettext_noop("No such match.")
NOT_YOUR_MATCH = gettext_noop("Only the director or the match's creator may add a webhook "
                              "to a match.")
TOO_MANY_WEBHOOKS = gettext_noop("You have too many webhooks; remove one first.")
NO_WEBHOOK = gettext_noop("No such webhook.")
BAD_MODE = gettext_noop("Choose one of the options shown.")


def _b64(value: Any, size: int | None) -> bytes | None:
    if not isinstance(value, str) or not value or len(value) > 200:
        return None
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if size is None or len(raw) == size else None


def _url(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ApplicationError(safehttp.URL_BAD, code="BAD_URL", field=field)
    value = value.strip()
    try:
        safehttp.check(value)
    except safehttp.Refused as exc:
        raise ApplicationError(str(exc), code="URL_REFUSED", field=field) from None
    return value


def subscription_save(*, user: Any, data: dict[str, Any], user_agent: str = "") -> PushSubscription:
    """Store the browser's ``PushSubscription.toJSON()`` for ``user`` (the same endpoint
    again replaces the keys; an endpoint another account had moves to this one: the
    browser belongs to whoever subscribed last)."""
    if vapid.server_key() is None:
        raise ApplicationError(PUSH_OFF, code="PUSH_OFF", status=409)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise ApplicationError(BAD_SUBSCRIPTION, code="BAD_SUBSCRIPTION", field="keys")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    point = _b64(p256dh, 65)
    if point is None or point[0] != 4 or _b64(auth, 16) is None:
        raise ApplicationError(BAD_SUBSCRIPTION, code="BAD_SUBSCRIPTION", field="keys")
    endpoint = _url(data.get("endpoint"), "endpoint")
    with transaction.atomic():
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is None and PushSubscription.objects.filter(user=user).count() >= \
                settings.MAX_PUSH_SUBSCRIPTIONS:
            raise ApplicationError(TOO_MANY_SUBSCRIPTIONS, code="TOO_MANY", status=409)
        sub, _ = PushSubscription.objects.update_or_create(endpoint=endpoint, defaults={
            "user": user, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:200]})
    return sub


def subscription_delete(*, user: Any, endpoint: Any) -> int:
    """Remove the user's subscription with this endpoint (or all of theirs with ``None``)."""
    qs = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        if not isinstance(endpoint, str):
            raise ApplicationError(BAD_SUBSCRIPTION, code="BAD_SUBSCRIPTION", field="endpoint")
        qs = qs.filter(endpoint=endpoint.strip())
    return qs.delete()[0]


def may_hook_match(user: Any, match: Match) -> bool:
    return bool(user.is_staff or (match.created_by_id is not None
                                  and match.created_by_id == user.pk))


def webhook_create(*, user: Any, url: Any, kind: Any = "json", match_id: Any = None) -> Webhook:
    """Add a webhook: the user's own (``match_id`` empty) or a match's (the director or
    the match's creator only)."""
    kind = kind or Webhook.Kind.JSON
    if kind not in Webhook.Kind.values:
        raise ApplicationError(BAD_KIND, code="BAD_KIND", field="kind")
    match = None
    if match_id not in (None, ""):
        try:
            pk = int(match_id)
        except (TypeError, ValueError):
            raise ApplicationError(NO_MATCH, code="NOT_FOUND", status=404, field="match") from None
        if isinstance(match_id, bool):
            raise ApplicationError(NO_MATCH, code="NOT_FOUND", status=404, field="match")
        match = Match.objects.filter(pk=pk).first()
        if match is None:
            raise ApplicationError(NO_MATCH, code="NOT_FOUND", status=404, field="match")
        if not may_hook_match(user, match):
            raise ApplicationError(NOT_YOUR_MATCH, code="FORBIDDEN", status=403, field="match")
    url = _url(url, "url")
    if Webhook.objects.filter(user=user).count() >= settings.MAX_WEBHOOKS:
        raise ApplicationError(TOO_MANY_WEBHOOKS, code="TOO_MANY", status=409)
    return Webhook.objects.create(user=user, url=url, kind=kind, match=match)


def webhook_for(*, user: Any, webhook_id: Any) -> Webhook:
    try:
        pk = int(webhook_id)
    except (TypeError, ValueError):
        raise ApplicationError(NO_WEBHOOK, code="NOT_FOUND", status=404) from None
    hook = Webhook.objects.filter(pk=pk, user=user).select_related("match").first()
    if hook is None:
        raise ApplicationError(NO_WEBHOOK, code="NOT_FOUND", status=404)
    return hook


def webhook_delete(*, user: Any, webhook_id: Any) -> None:
    webhook_for(user=user, webhook_id=webhook_id).delete()


def webhook_test(*, user: Any, webhook_id: Any) -> tuple[str, str]:
    """Fire a test delivery at once (not through the outbox); ``(verdict, reason)``.
    A disabled webhook is enabled again by a test that goes through."""
    from reach.webhooks import post

    hook = webhook_for(user=user, webhook_id=webhook_id)
    now = timezone_now()
    row = Notification(pk=0, recipient=user, kind="test",
                       match=hook.match, created_at=now, channel="webhook")
    document = messages.webhook_document(row)
    document.update(id=f"test-{secrets.token_hex(8)}", event="test")
    verdict, reason = post(hook, document)
    if verdict == "sent" and hook.disabled_at is not None:
        Webhook.objects.filter(pk=hook.pk).update(disabled_at=None, note="", failures=0)
    return verdict, reason


def prefs_for(user: Any) -> ChannelPrefs:
    prefs, _ = ChannelPrefs.objects.get_or_create(user=user)
    return prefs


def prefs_set(*, user: Any, push_mode: Any, webhook_mode: Any) -> ChannelPrefs:
    if push_mode not in Mode.values or webhook_mode not in Mode.values:
        raise ApplicationError(BAD_MODE, code="BAD_MODE")
    prefs = prefs_for(user)
    prefs.push_mode, prefs.webhook_mode = push_mode, webhook_mode
    prefs.save(update_fields=["push_mode", "webhook_mode"])
    return prefs


def calendar_token(user: Any) -> str:
    """The user's calendar secret, made on first use."""
    prefs = prefs_for(user)
    if not prefs.calendar_token:
        prefs.calendar_token = secrets.token_urlsafe(24)
        prefs.save(update_fields=["calendar_token"])
    return prefs.calendar_token


def calendar_revoke(user: Any) -> None:
    """The old link stops working at once; a new one is made when next asked for."""
    ChannelPrefs.objects.filter(user=user).update(calendar_token="")
