"""Who hears which match news (:mod:`games.services.news`): the kinds of news, and whether
a reader wants a row of them — read when a row is written and again when it is sent
(``games.services.notifications``), so it sits apart from both."""

from __future__ import annotations

from typing import Any, Mapping

from accounts.models import Profile
from accounts.profiles import profile_for
from games.models import Seat

PAUSED, RESUMED, EXTENDED = "paused", "resumed", "extended"
SEAT_TAKEN, SEAT_OPEN = "seat_taken", "seat_open"
REPLACED, TOOK_SEAT, DIED, CANCELLED = "replaced", "took_seat", "died", "cancelled"
TABLE_EVENTS = frozenset({PAUSED, RESUMED, EXTENDED, SEAT_TAKEN, SEAT_OPEN})
PERSONAL_EVENTS = frozenset({REPLACED, TOOK_SEAT, DIED, CANCELLED})
EVENTS = TABLE_EVENTS | PERSONAL_EVENTS


def events_of(payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [e for e in (payload.get("events") or []) if isinstance(e, dict)]


def is_table_news(payload: Mapping[str, Any]) -> bool:
    """Only news about the table (the away veto holds these back; a death never)."""
    events = events_of(payload)
    return bool(events) and all(e.get("event") in TABLE_EVENTS for e in events)


def news_wanted(user, payload: Mapping[str, Any], *, seat: Seat | None = None) -> bool:
    """Whether ``user`` wants the news in ``payload`` (their preferences, an address)."""
    if user is None or not user.is_active or not user.email:
        return False
    profile = profile_for(user)
    if not profile.email_match_events:
        return False
    if is_table_news(payload):
        mode = seat.email_mode if seat is not None and seat.email_mode else profile.email_mode
        return mode not in (Profile.EmailMode.OFF, Profile.EmailMode.DIGEST)
    return True
