"""Webhooks: the ``webhook`` channel of the outbox — a player's own (Discord, Slack or
generic JSON) and a match's (the group's channel, public news only).

A JSON delivery is signed: ``X-Phases-Timestamp`` (Unix seconds of this attempt) and
``X-Phases-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the webhook's
secret>``; ``X-Phases-Delivery`` is the row's stable id (the same on every retry, so a
receiver drops repeats). Discord gets ``{"content"}``, Slack ``{"text"}``.

Answers: 2xx sent; 408, 429, 5xx, timeouts and refused connections are retried with the
outbox's backoff; a redirect (never followed), any other 4xx or a refused address is a
permanent failure, and ``WEBHOOK_MAX_FAILURES`` of those in a row disable the webhook with
a note its owner sees on the profile page.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from datetime import datetime
from typing import Any, Callable, Iterable

from django.conf import settings
from django.db.models import F
from django.utils.timezone import now as timezone_now

from games.models import Match, Notification, Phase, Seat
from games.services.notifications import coalesces
from reach import messages, policy, safehttp
from reach.models import Webhook

SIGNATURE_HEADER = "X-Phases-Signature"
TIMESTAMP_HEADER = "X-Phases-Timestamp"
DELIVERY_HEADER = "X-Phases-Delivery"
EVENT_HEADER = "X-Phases-Event"


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=<hex>`` of ``"<timestamp>.<body>"`` (what a receiver recomputes)."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def request_for(hook: Webhook, document: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    """(body, headers) of one delivery of ``document`` to ``hook``."""
    headers = {"Content-Type": "application/json", "User-Agent": f"{settings.SITE_NAME} webhooks",
               DELIVERY_HEADER: document["id"], EVENT_HEADER: document["event"]}
    if hook.kind == Webhook.Kind.DISCORD:
        body = json.dumps({"content": document["text"][:1900]
                           + (f"\n{document['match']['url']}" if document.get("match") else "")})
    elif hook.kind == Webhook.Kind.SLACK:
        url = document["match"]["url"] if document.get("match") else ""
        body = json.dumps({"text": f"{document['text']} {url}".strip()})
    else:
        body = json.dumps(document, separators=(",", ":"))
    raw = body.encode()
    if hook.kind == Webhook.Kind.JSON:
        stamp = str(int(time.time()))
        headers[TIMESTAMP_HEADER] = stamp
        headers[SIGNATURE_HEADER] = sign(hook.secret, stamp, raw)
    return raw, headers


def attempt(hook: Webhook, document: dict[str, Any]) -> tuple[str, str]:
    """Post ``document`` to ``hook`` (network only, no database): ``(verdict, reason)``,
    verdict ``sent``, ``retry`` or ``failed`` (permanent)."""
    body, headers = request_for(hook, document)
    try:
        answer = safehttp.post(hook.url, body, headers)
    except safehttp.Refused as exc:
        return "failed", f"refused: {exc}"
    except Exception as exc:  # noqa: BLE001 - timeouts, refused connections
        return "retry", f"webhook: {exc!r}"
    status = answer.status
    if 200 <= status < 300:
        return "sent", ""
    if status in (408, 429) or status >= 500:
        return "retry", f"webhook: HTTP {status}"
    if 300 <= status < 400:
        return "failed", f"webhook: HTTP {status} (redirects are not followed)"
    return "failed", f"webhook: HTTP {status}"


def account(hook: Webhook, verdict: str, reason: str) -> None:
    """Keep the webhook's run of permanent failures; disable it when due."""
    if verdict == "sent":
        if hook.failures:  # a success ends a run of failures (no write otherwise)
            Webhook.objects.filter(pk=hook.pk).update(failures=0, last_ok_at=timezone_now())
    elif verdict == "failed":
        _count_failure(hook, reason)


def post(hook: Webhook, document: dict[str, Any]) -> tuple[str, str]:
    """Deliver ``document`` to ``hook`` now and account for the answer."""
    verdict, reason = attempt(hook, document)
    account(hook, verdict, reason)
    return verdict, reason


def _count_failure(hook: Webhook, reason: str) -> None:
    Webhook.objects.filter(pk=hook.pk).update(failures=F("failures") + 1)
    hook.refresh_from_db(fields=["failures", "disabled_at"])
    if hook.failures >= settings.WEBHOOK_MAX_FAILURES and hook.disabled_at is None:
        note = (f"Disabled after {hook.failures} failed deliveries in a row; the last: "
                f"{reason}")[:300]
        Webhook.objects.filter(pk=hook.pk, disabled_at__isnull=True).update(
            disabled_at=timezone_now(), note=note)


class WebhookChannel:
    """The outbox's ``webhook`` channel (``games.services.notifications.Channel``)."""

    name = "webhook"

    def rows_for(self, candidates: list[Notification],
                 seats: dict[int, Seat]) -> list[Notification]:
        return policy.reader_rows("webhook", candidates, seats)

    def match_rows(self, *, match: Match, event: str, phase: Phase | None,
                   closed: Phase | None,
                   payload: dict[str, Any] | None = None) -> list[Notification]:
        """A match's own webhooks: phase opened, match started, match finished, and the
        match news everyone at the table reads (:data:`reach.policy.GROUP_NEWS_EVENTS`).
        In ask-based games (many short phases a turn) only a new turn counts as a phase."""
        kind = policy.EVENT_KIND.get(event)
        if kind is None:
            return []
        if (kind == "group_phase" and phase is not None and closed is not None
                and closed.turn == phase.turn and coalesces(match.game)):
            return []
        news = policy.group_news_events(payload or {}) if kind == "group_news" else []
        if kind == "group_news" and not news:
            return []
        hooks = policy.match_targets(match.pk)
        at = phase or closed
        body: dict[str, Any] = {"phase_id": at.pk if at else None, "group": True}
        if news:
            body["events"] = news
        return [Notification(recipient_id=user_id, kind=kind, match=match, phase=at,
                             payload=dict(body), channel="webhook", target_id=pk)
                for pk, user_id in hooks]

    def prefetched(self, *, user_ids: Iterable[int], match_ids: Iterable[int]):
        """A batch of events (a sweep's closes) reads its targets in two queries."""
        return policy.prefetched(channel=self.name, user_ids=user_ids, match_ids=match_ids)

    def wanted(self, row: Notification, seat: Seat | None) -> bool:
        return policy.wanted(row, seat)

    def deliver(self, rows: list[Notification], now: datetime,
                record: Callable[[Notification, str, str], None]) -> None:
        jobs = []
        for row in rows:
            hook = policy.target_of(row)
            if hook is None or hook.disabled_at is not None:
                record(row, "skip", "the webhook was removed or disabled")
                continue
            try:
                document = messages.webhook_document(row)
            except Exception as exc:  # noqa: BLE001 - this row only
                record(row, "retry", f"webhook document: {exc!r}")
                continue
            jobs.append((row, lambda h=hook, d=document: attempt(h, d)))
        # the posts wait on the network in threads; each answer is recorded here
        for row, outcome, exc in safehttp.concurrently(jobs):
            verdict, reason = outcome if exc is None else ("retry", f"webhook: {exc!r}")
            account(row.__dict__["_reach_target"], verdict, reason)
            record(row, verdict, reason)
