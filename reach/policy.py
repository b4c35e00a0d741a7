"""One policy for every channel: which readers' rows a push or webhook channel makes for an
event, and what it checks again at send time. Email's own rules (``games.services.
notifications``) stay the reference; this module applies the same ones to the other
channels:

- per user and channel the same modes as phase emails (``ChannelPrefs.push_mode`` /
  ``webhook_mode``: "when it's my move", "every phase", "off"); match start and end come
  unless the mode is off;
- a match set to "off" for this player (``Seat.email_mode``, the per-match setting on the
  match page) mutes every channel for that match;
- away periods (``players``' send veto) and coalescing of ask-based games apply to these
  rows as to email, since they are outbox rows of the same kinds;
- match news (``match_news``: pause, resume, extension, a seat taken over or opened, a
  cancelled match, "you died") come unless the mode is off or the match is muted; away
  periods hold back news about the table as for email; several pieces of news waiting for
  the same target join one message (``games.services.news``);
- a player on the match page gets nothing (:func:`send_veto`: skipped, in every game,
  phase messages and match news alike);
- a target removed or disabled meanwhile: skipped.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any, Iterable, Iterator

from games.lib import presence
from games.models import Notification, Seat

from reach.models import ChannelPrefs, Mode, PushSubscription, Webhook

K = Notification.Kind
PHASE_KINDS = {K.NEW_PHASE, K.YOUR_TURN}
READER_KINDS = PHASE_KINDS | {K.MATCH_STARTED, K.MATCH_FINISHED, K.MATCH_NEWS}
#: what the reader on the page skips (the page shows it)
ON_PAGE_KINDS = PHASE_KINDS | {K.MATCH_NEWS}
#: a match's own webhook (the group's channel): public news only
GROUP_KINDS = {"group_phase": "phase_opened", "group_start": "match_started",
               "group_end": "match_finished", "group_news": "match_news"}
EVENT_KIND = {event: kind for kind, event in GROUP_KINDS.items()}
#: the match news a group's webhook may carry: the same for every seat, naming no hidden
#: fact (never a death — whose diary is the dead seat's — nor the personal "your seat")
GROUP_NEWS_EVENTS = frozenset({"paused", "resumed", "extended", "seat_taken", "seat_open",
                               "cancelled"})


def group_news_events(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The pieces of news in ``payload`` a match's own webhook may carry."""
    return [e for e in (payload.get("events") or [])
            if isinstance(e, dict) and e.get("event") in GROUP_NEWS_EVENTS]


def kind_wanted(mode: str, kind: str, awaited: bool | None, seat: Seat | None) -> bool:
    """Whether a reader in ``mode`` hears of ``kind`` through this channel."""
    if mode == Mode.OFF or (seat is not None and seat.email_mode == "off"):
        return False
    if kind in PHASE_KINDS:
        if awaited is None:
            awaited = kind == K.YOUR_TURN
        return mode == Mode.PER_PHASE or awaited
    return kind in READER_KINDS


#: the targets one batch of events may need, read up front (:func:`prefetched`): per
#: channel ``{user_id: [(target pk, mode)]}``, and the matches' own webhooks
_PREFETCHED: ContextVar[dict[str, Any] | None] = ContextVar("reach_prefetched", default=None)


def _reader_targets(channel: str, users: Iterable[int]) -> dict[int, list[tuple[int, str]]]:
    """``{user_id: [(target pk, mode)]}`` of ``channel`` for ``users`` (one query)."""
    found: Iterable[tuple[int, int, Any]]
    if channel == "push":
        found = PushSubscription.objects.filter(user_id__in=list(users)).values_list(
            "user_id", "pk", "user__channel_prefs__push_mode")
    else:
        found = Webhook.objects.filter(user_id__in=list(users), match__isnull=True,
                                       disabled_at__isnull=True).values_list(
            "user_id", "pk", "user__channel_prefs__webhook_mode")
    targets: dict[int, list[tuple[int, str]]] = {}
    for user_id, pk, mode in found:
        targets.setdefault(user_id, []).append((pk, mode or Mode.MY_MOVE))
    return targets


def match_targets(match_id: int) -> list[tuple[int, int]]:
    """``[(webhook pk, owner id)]`` of the match's own enabled webhooks (prefetched for a
    batch of closes by :func:`prefetched`, else one query)."""
    memo = _PREFETCHED.get()
    if memo is not None and match_id in memo["matches"]:
        return memo["match_hooks"].get(match_id, [])
    return list(Webhook.objects.filter(match_id=match_id, disabled_at__isnull=True)
                .values_list("pk", "user_id"))


@contextmanager
def prefetched(*, channel: str, user_ids: Iterable[int],
               match_ids: Iterable[int]) -> Iterator[None]:
    """Within: :func:`reader_rows` and :func:`match_targets` read the targets of
    ``user_ids`` and ``match_ids`` from two queries made here, not two per event (a sweep
    batch closes fifty matches at once). Read under the close's transaction, as the
    per-event queries would be."""
    memo = dict(_PREFETCHED.get() or {"readers": {}, "users": {}, "matches": set(),
                                      "match_hooks": {}})
    users, matches = set(user_ids), set(match_ids)
    memo["readers"] = {**memo["readers"], channel: _reader_targets(channel, users)}
    memo["users"] = {**memo["users"], channel: users}
    if channel == "webhook" and matches:
        hooks: dict[int, list[tuple[int, int]]] = {}
        for pk, user_id, match_id in Webhook.objects.filter(
                match_id__in=list(matches), disabled_at__isnull=True).values_list(
                    "pk", "user_id", "match_id"):
            hooks.setdefault(match_id, []).append((pk, user_id))
        memo["matches"] = memo["matches"] | matches
        memo["match_hooks"] = {**memo["match_hooks"], **hooks}
    token = _PREFETCHED.set(memo)
    try:
        yield
    finally:
        _PREFETCHED.reset(token)


def reader_rows(channel: str, candidates: list[Notification],
                seats: dict[int, Seat]) -> list[Notification]:
    """The rows of ``channel`` for ``candidates`` (one per reader of an event, unsaved):
    one per wanted target (each of the reader's subscriptions, each of their own enabled
    webhooks). One query."""
    users = {c.recipient_id for c in candidates if c.kind in READER_KINDS}
    if not users:
        return []
    memo = _PREFETCHED.get()
    if memo is not None and channel in memo["users"] and users <= memo["users"][channel]:
        targets = memo["readers"][channel]
    else:
        targets = _reader_targets(channel, users)
    rows = []
    for c in candidates:
        for pk, mode in targets.get(c.recipient_id, ()):
            if kind_wanted(mode, c.kind, c.payload.get("awaited"), seats.get(c.recipient_id)):
                rows.append(Notification(recipient=c.recipient, kind=c.kind, match=c.match,
                                         phase=c.phase, payload=c.payload, channel=channel,
                                         target_id=pk, next_attempt_at=c.next_attempt_at))
    return rows


def send_veto(rows: list[Notification], now: datetime) -> dict[int, str]:
    """``AppHooks.send_veto`` of reach, for push and webhook rows: the
    target gone or disabled; the reader on the match page. Also reads, for the whole
    batch in two queries, each row's target and the reader's mode (kept on the row for
    :func:`wanted` and the senders)."""
    mine = [r for r in rows if r.channel in ("push", "webhook")]
    if not mine:
        return {}
    # the columns the senders use (no dates to parse: a batch reads one target per row)
    subs = PushSubscription.objects.only("id", "user_id", "endpoint", "p256dh", "auth").in_bulk(
        [r.target_id for r in mine if r.channel == "push"])
    hooks = Webhook.objects.only("id", "user_id", "match_id", "url", "kind", "secret",
                                 "failures", "disabled_at").in_bulk(
        [r.target_id for r in mine if r.channel == "webhook"])
    prefs = {p.user_id: p for p in ChannelPrefs.objects.filter(
        user_id__in={r.recipient_id for r in mine})}
    phase_rows = [r for r in mine if r.kind in ON_PAGE_KINDS and r.match_id]
    seen = presence.seen_at([(r.match_id, r.recipient_id) for r in phase_rows], now=now)
    out: dict[int, str] = {}
    for row in mine:
        target = (subs if row.channel == "push" else hooks).get(row.target_id)
        if target is None:
            out[row.pk] = "the target was removed"
            continue
        if row.channel == "webhook" and target.disabled_at is not None:
            out[row.pk] = "the webhook is disabled"
            continue
        row.__dict__["_reach_target"] = target
        pref = prefs.get(row.recipient_id)
        row.__dict__["_reach_mode"] = (
            (pref.push_mode if row.channel == "push" else pref.webhook_mode)
            if pref else Mode.MY_MOVE)
        if row.kind in ON_PAGE_KINDS and (row.match_id, row.recipient_id) in seen:
            out[row.pk] = "the player is on the page"
    return out


def wanted(row: Notification, seat: Seat | None) -> bool:
    """The reader's preference at send time (the mode :func:`send_veto` read)."""
    if row.kind in GROUP_KINDS:
        return True
    mode = row.__dict__.get("_reach_mode", Mode.MY_MOVE)
    return kind_wanted(mode, row.kind, row.payload.get("awaited"), seat)


def target_of(row: Notification) -> Any:
    """The subscription or webhook :func:`send_veto` found for ``row``."""
    target = row.__dict__.get("_reach_target")
    if target is None:
        model = PushSubscription if row.channel == "push" else Webhook
        target = model.objects.filter(pk=row.target_id).first()
        row.__dict__["_reach_target"] = target
    return target
