"""Web push (RFC 8030/8291/8292, no vendor SDK): the ``push`` channel of the outbox.

Each row is one message to one browser subscription. The payload
(:func:`reach.messages.push_payload`) is encrypted for that subscription by pywebpush
(``aes128gcm``, RFC 8291: an ephemeral ECDH key, the subscription's ``p256dh`` and
``auth``), signed with the server's VAPID key (:mod:`reach.vapid`) and posted through
:mod:`reach.safehttp` (checked address, no redirects, short timeout, pooled connections —
pywebpush's own ``requests`` call would follow redirects and re-resolve the host).

The push service's answer decides the row: 2xx sent; 404/410 the subscription is gone
(deleted, the row skipped); 429, 5xx, a timeout or a refused connection: retried with the
outbox's backoff; any other 4xx or a refused address: failed.
"""

from __future__ import annotations

import json
import logging
from contextlib import nullcontext
from datetime import datetime
from email.utils import parseaddr
from functools import lru_cache
from typing import Callable, Iterable
from urllib.parse import urlsplit

from django.conf import settings
from pywebpush import WebPusher

from games.models import Match, Notification, Phase, Seat
from reach import messages, policy, safehttp, vapid
from reach.models import PushSubscription

log = logging.getLogger(__name__)

TTL_MIN, TTL_MAX = 60, 4 * 7 * 24 * 3600


def subject() -> str:
    """VAPID's contact (``VAPID_SUBJECT``, else the sender address of our email)."""
    return _subject(settings.VAPID_SUBJECT, settings.DEFAULT_FROM_EMAIL)


@lru_cache(maxsize=4)
def _subject(configured: str, sender: str) -> str:
    if configured:
        return configured
    address = parseaddr(sender)[1] or "noreply@localhost"
    return f"mailto:{address}"


def ttl_for(row: Notification, now: datetime) -> int:
    """How long the push service keeps the message for an offline device: until the
    deadline (a "your move" after it is noise), at least a minute, at most 4 weeks."""
    deadline = row.phase.deadline_at if row.phase is not None else None
    if deadline is None:
        return 24 * 3600
    return int(max(TTL_MIN, min(TTL_MAX, (deadline - now).total_seconds())))


def encrypt(subscription: PushSubscription | dict, data: bytes) -> bytes:
    """``data`` encrypted for ``subscription`` (aes128gcm, RFC 8291)."""
    info = subscription.info() if isinstance(subscription, PushSubscription) else subscription
    return WebPusher(info).encode(data, "aes128gcm")["body"]


def send_one(subscription: PushSubscription, payload: dict, *, ttl: int = 3600,
             urgency: str = "normal", topic: str | None = None) -> safehttp.Answer:
    """Encrypt, sign and post one push; the push service's answer (raises
    :class:`reach.safehttp.Refused` or a connection error)."""
    key = vapid.server_key()
    if key is None:
        raise safehttp.Refused("push is not configured on this server (no VAPID key)")
    target = safehttp.check(subscription.endpoint)
    parts = urlsplit(subscription.endpoint)
    body = encrypt(subscription, json.dumps(payload, separators=(",", ":")).encode())
    headers = {"TTL": str(ttl), "Content-Encoding": "aes128gcm", "Urgency": urgency,
               "Content-Type": "application/octet-stream",
               **vapid.auth_headers(key, f"{parts.scheme}://{parts.netloc}", subject())}
    if topic:
        headers["Topic"] = topic
    return safehttp.post(subscription.endpoint, body, headers, target=target)


class PushChannel:
    """The outbox's ``push`` channel (``games.services.notifications.Channel``)."""

    name = "push"

    def rows_for(self, candidates: list[Notification],
                 seats: dict[int, Seat]) -> list[Notification]:
        if vapid.server_key() is None:
            return []
        return policy.reader_rows("push", candidates, seats)

    def match_rows(self, *, match: Match, event: str, phase: Phase | None,
                   closed: Phase | None,
                   payload: dict | None = None) -> list[Notification]:
        return []  # a push goes to a person, never to a match

    def prefetched(self, *, user_ids: Iterable[int], match_ids: Iterable[int]):
        """A batch of events (a sweep's closes) reads its subscriptions in one query."""
        if vapid.server_key() is None:
            return nullcontext()
        return policy.prefetched(channel=self.name, user_ids=user_ids, match_ids=())

    def wanted(self, row: Notification, seat: Seat | None) -> bool:
        return policy.wanted(row, seat)

    def deliver(self, rows: list[Notification], now: datetime,
                record: Callable[[Notification, str, str], None]) -> None:
        jobs = []
        for row in rows:
            subscription = policy.target_of(row)
            if subscription is None:
                record(row, "skip", "the subscription was removed")
                continue
            try:
                payload = messages.push_payload(row)
            except Exception as exc:  # noqa: BLE001 - this row only
                record(row, "retry", f"push payload: {exc!r}")
                continue
            urgency = "high" if payload["event"] == "my_move" else "normal"
            jobs.append((row, lambda s=subscription, p=payload, t=ttl_for(row, now), u=urgency:
                         send_one(s, p, ttl=t, urgency=u, topic=p["tag"])))
        # the posts wait on the network in threads; each answer is recorded here
        for row, answer, exc in safehttp.concurrently(jobs):
            subscription = row.__dict__["_reach_target"]
            if isinstance(exc, safehttp.Refused):
                record(row, "failed", f"refused: {exc}")
            elif exc is not None:  # timeouts, refused connections
                record(row, "retry", f"push: {exc!r}")
            elif 200 <= answer.status < 300:
                record(row, "sent", "")
            elif answer.status in (404, 410):
                PushSubscription.objects.filter(pk=subscription.pk).delete()
                record(row, "skip", f"the push service answered {answer.status}: "
                                    f"subscription expired, removed")
            elif answer.status in (408, 429) or answer.status >= 500:
                record(row, "retry", f"push service: HTTP {answer.status}")
            else:
                record(row, "failed", f"push service: HTTP {answer.status} "
                                      f"{answer.body[:200].decode('utf-8', 'replace')}")
