"""Versions: what a reader saw, so "stale" means "what *I* saw changed" (issue 10).

Two counters, both bumped under the match row lock:

- ``Match.version``, the **public** version: what every seat may see changed (a phase
  opened or closed, the spectator view changed, a public diary event, status, seats);
- ``Seat.version``, the **seat** version: what only that seat sees changed (its own order
  or check-in, a private event for it, its own player view).

An order or check-in carries the pair its page showed and is refused as stale only when
one of *those two* moved: another seat's private order or check-in never bumps the public
version, so it never makes mine stale and its timing never leaks through a refusal. Polls
compare the same pair, so another player's private order costs a poll nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from django.db.models import F
from django.utils.translation import gettext_noop

from games.exceptions import ApplicationError
from games.models import Match, Seat
from games.rules import Event

STALE_VERSION = gettext_noop(
    "What you saw has changed since you loaded the page; look again and retry.")


@dataclass
class Touched:
    """Who a change concerns: everybody (``public``) and/or these seat numbers."""

    public: bool = False
    seats: set[int] = field(default_factory=set)


def change_audience(*, engine: Any, before: Any, after: Any, events: Iterable[Event],
                    seat_numbers: Iterable[int]) -> Touched:
    """Compare what each reader sees before and after a change (the engine's player views,
    the same door every page goes through) plus the events' audiences."""
    touched = Touched()
    for event in events:
        if event.visible_to is None:
            touched.public = True
        else:
            touched.seats.update(event.visible_to)
    if not touched.public and engine.player_view(before, None) != engine.player_view(after, None):
        touched.public = True
    if touched.public:
        return touched  # every reader reloads on a public change anyway
    for number in seat_numbers:
        if number not in touched.seats and (
                engine.player_view(before, number) != engine.player_view(after, number)):
            touched.seats.add(number)
    return touched


def versions_bump(*, match: Match, touched: Touched) -> None:
    """Apply ``touched`` (caller holds the match lock and saves ``match.version``)."""
    if touched.public:
        match.version += 1
    if touched.seats:
        Seat.objects.filter(match=match, number__in=sorted(touched.seats)).update(
            version=F("version") + 1)


def seat_version_bump(seat: Seat) -> None:
    """Only ``seat`` sees this change (its own check-in, its own private order)."""
    Seat.objects.filter(pk=seat.pk).update(version=F("version") + 1)
    seat.version += 1


def require_fresh(*, match: Match, seat: Seat, version: int | None,
                  seat_version: int | None) -> None:
    """Refuse as stale when the public version or this seat's version moved since the
    page was read (either may be omitted: then it is not checked)."""
    if ((version is not None and int(version) != match.version)
            or (seat_version is not None and int(seat_version) != seat.version)):
        raise ApplicationError(STALE_VERSION, code="STALE_VERSION", status=409,
                               details={"version": match.version,
                                        "seat_version": seat.version})
