"""Match news: telling people what changed in a match they play — the director paused,
resumed or extended it, a seat changed hands or opened, a player died, a forming match was
cancelled — through the outbox (``Notification.Kind.MATCH_NEWS``), never by sending.

Each row carries ``payload["events"]``, a list of ``{"event": ..., **params}``; a second
piece of news for a reader whose previous one has not left yet is appended to that row
(one email, not two). A death that coincides with the reader's phase email (the same
close) rides in that email instead (``payload["news"]``): see :func:`deaths_attach`.

Who hears what (:func:`news_wanted`, read again at send time):

- news about the table (``TABLE_EVENTS``: pause, resume, extension, a seat taken over or
  opened) goes to the seated players whose phase-email mode is not ``off`` or ``digest``
  and who want match emails (``Profile.email_match_events``), and not while they are away
  (the players app's send veto);
- news about the reader (their death, their seat taken over or given to them, a match
  they joined cancelled) goes whenever they want match emails, away or not.

The same news go by push and to the reader's own webhooks under those channels' policy
(``reach.policy``: their mode not off, the match not muted, not while away for news about
the table, nothing while the reader is on the match page), and the news about the table
(and a cancelled match) to the match's own webhooks (:func:`news_to_match`: never a
death nor anything personal).

Callers hold the match lock (the lock order: match, phase, seat, then these outbox rows).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Mapping

from django.db.models import Q
from django.utils.timezone import now as timezone_now

from games.lib.oncommit import enqueue_on_commit
from games.models import Match, Notification, Phase, Seat
from games.services import notifications
from games.services.news_audience import (  # noqa: F401 - the names news callers use
    CANCELLED, DIED, EVENTS, EXTENDED, PAUSED, PERSONAL_EVENTS, REPLACED, RESUMED, SEAT_OPEN,
    SEAT_TAKEN, TABLE_EVENTS, TOOK_SEAT, events_of, is_table_news, news_wanted)

K = Notification.Kind


def news_add(*, match: Match, user, event: str, params: Mapping[str, Any] | None = None,
             phase: Phase | None = None, seat: Seat | None = None,
             now: datetime | None = None, channels: bool = True) -> Notification | None:
    """One piece of news for ``user``: appended to their unsent news row of ``match`` if
    one waits (a conditional update, so a row a sender claimed meanwhile is left alone),
    else a new row queued on commit — by email when they want it (the row is returned,
    else None), and (``channels``) on every other channel the reader set up (push, their
    webhooks: the channel's own policy, ``games.services.notifications.channel_rows``)."""
    assert event in EVENTS, event
    item = {"event": event, **(params or {})}
    now = now or timezone_now()
    payload = {"events": [item], "seat": seat.number if seat else None}
    row = None
    if news_wanted(user, {"events": [item]}, seat=seat):
        row = _join_or_create(Notification(recipient=user, kind=K.MATCH_NEWS, match=match,
                                           phase=phase, payload=payload), item, now)
    if channels:
        candidate = Notification(recipient=user, kind=K.MATCH_NEWS, match=match, phase=phase,
                                 payload=payload)
        for other in notifications.channel_rows([candidate], [seat] if seat else [],
                                                match=match, event="", phase=phase):
            _join_or_create(other, item, now)
    return row


def news_to_match(*, match: Match, event: str, params: Mapping[str, Any] | None = None,
                  phase: Phase | None = None, now: datetime | None = None) -> int:
    """The news for the match's own targets (a group's webhook), which keep only the news
    everyone at the table reads; the number of rows written."""
    item = {"event": event, **(params or {})}
    now = now or timezone_now()
    rows = notifications.channel_rows([], [], match=match, event="match_news", phase=phase,
                                      payload={"events": [item]})
    for row in rows:
        _join_or_create(row, item, now)
    return len(rows)


def _join_or_create(row: Notification, item: dict[str, Any], now: datetime) -> Notification:
    """``row`` (unsaved, carrying ``item``) joined to the same reader's unsent news of the
    match on the same channel and target, or saved and queued on commit."""
    waiting = (Notification.objects.filter(recipient_id=row.recipient_id, match=row.match,
                                           kind=row.kind, channel=row.channel,
                                           target_id=row.target_id,
                                           sent_at__isnull=True, failed_at__isnull=True)
               .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
               .order_by("-pk").first())
    if waiting is not None:
        payload = {**waiting.payload, "events": [*events_of(waiting.payload), item]}
        if Notification.objects.filter(pk=waiting.pk, sent_at__isnull=True).filter(
                Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)).update(
                    payload=payload, phase=row.phase or waiting.phase):
            waiting.payload = payload
            return waiting
    row.save(force_insert=True)
    enqueue_on_commit("notification_send", row.pk)
    return row


def _seated(match: Match) -> list[Seat]:
    return list(match.seats.filter(removed_at__isnull=True, is_bot=False, user__isnull=False)
                .select_related("user__profile"))


def news_to_table(*, match: Match, event: str, params: Mapping[str, Any] | None = None,
                  phase: Phase | None = None, exclude: Iterable[int] = (),
                  now: datetime | None = None) -> int:
    """The same news for every person seated in ``match`` (but the users in ``exclude``)."""
    skip = set(exclude)
    sent = 0
    for seat in _seated(match):
        if seat.user_id in skip:
            continue
        if news_add(match=match, user=seat.user, event=event, params=params, phase=phase,
                    seat=seat, now=now):
            sent += 1
    news_to_match(match=match, event=event, params=params, phase=phase, now=now)
    return sent


def open_phase_params(match: Match) -> tuple[Phase | None, dict[str, Any]]:
    """The open phase and its deadline (ISO, shown in each reader's zone) for the news."""
    phase = Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()
    if phase is None:
        return None, {}
    return phase, {"phase_kind": phase.kind, "turn": phase.turn,
                   "deadline": phase.deadline_at.isoformat() if phase.deadline_at else None}


# --- deaths at a close ------------------------------------------------------------------

def fallen(match: Match, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
           ) -> set[int]:
    """Seats the close took out of play: out after it, in before it (the game's
    ``GameHooks.out_of_play(state) -> seats``; none for a game without it)."""
    from games.registry import UnknownGame, get_game

    try:
        hook = get_game(match.game).hooks.out_of_play
    except UnknownGame:
        return set()
    if hook is None or before is None or after is None:
        return set()
    try:
        return set(hook(after)) - set(hook(before))
    except Exception:  # noqa: BLE001 - news must never break a close
        return set()


def deaths_attach(*, match: Match, closed: Phase, dead: set[int], seats: list[Seat],
                  rows: list[Notification], from_seq: int, to_seq: int) -> list[Notification]:
    """Tell each player who died in ``closed``: inside the phase or end-of-match email the
    close writes for them anyway (``rows``, unsaved; ``payload["news"]``), else in a news
    row of its own that shows what they saw happen (their diary lines of the close).
    Returns the extra rows (saved)."""
    if not dead:
        return []
    item = {"event": DIED, "turn": closed.turn, "phase_kind": closed.kind,
            "from_seq": from_seq, "to_seq": to_seq}
    by_user = {s.user_id: s for s in seats if s.number in dead and s.user_id
               and not s.is_bot and s.removed_at is None}
    covered = set()
    for row in rows:
        if (row.recipient_id in by_user and row.channel == "email"
                and row.kind in (K.NEW_PHASE, K.YOUR_TURN, K.MATCH_FINISHED)):
            row.payload = {**row.payload, "news": [item]}
            covered.add(row.recipient_id)
    # push and webhooks (whose phase messages carry no news) get it in a message of its
    # own either way: one query per channel for every death of the close
    now = timezone_now()
    candidates = [Notification(recipient=seat.user, kind=K.MATCH_NEWS, match=match,
                               phase=closed, payload={"events": [item], "seat": seat.number})
                  for seat in by_user.values()]
    for other in notifications.channel_rows(candidates, list(by_user.values()), match=match,
                                            event="", phase=closed):
        _join_or_create(other, item, now)
    extra = []
    for user_id, seat in by_user.items():
        if user_id in covered:
            continue
        row = news_add(match=match, user=seat.user, event=DIED, seat=seat, phase=closed,
                       params={k: v for k, v in item.items() if k != "event"}, now=now,
                       channels=False)
        if row is not None:
            extra.append(row)
    return extra


def out_of_play_alive_flags(state: Mapping[str, Any]) -> set[int]:
    """A ready ``GameHooks.out_of_play`` for states that list their players as
    ``{"seat": n, "alive": bool}`` under ``players`` or ``seats``."""
    out = set()
    for key in ("players", "seats"):
        for p in state.get(key) or []:
            if isinstance(p, dict) and p.get("alive") is False and isinstance(p.get("seat"), int):
                out.add(p["seat"])
    return out
