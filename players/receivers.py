"""What this app does when the framework closes phases or finishes a match (signals sent
inside the close's transaction, so these writes commit with it)."""

from __future__ import annotations

from django.db import connection
from django.db.models import F
from django.utils.timezone import now as timezone_now

from games.models import Seat
from players.away import away_until, stretch_for_away
from players.models import MatchRules, SeatRecord
from players.ratings import match_rate
from players.takeover import takeover_open_overdue


def on_phases_closed(sender, *, closes, **kwargs) -> None:
    """Count each closed phase for every awaited seat: a miss for the absent, a fresh run
    for the others; a seat that missed ``absent_after`` in a row is marked absent
    (publicly). A declared away period is no miss. Under the "stretch" away rule the next
    phase's deadline makes room for its away players. One batch of closes (the sweep's)
    costs the same few queries as one close."""
    if not closes:
        return
    match_ids = {c.match.pk for c in closes}
    rules = {r.match_id: r for r in MatchRules.objects.filter(match_id__in=match_ids)}
    for c in closes:
        if c.opened is not None and c.match.pk in rules:
            stretch_for_away(phase=c.opened, now=c.phase.closed_at, rules=rules[c.match.pk])
    awaited = {c.match.pk: set(c.phase.awaited) for c in closes if c.phase.awaited}
    if not awaited:
        return
    seats = [(match_id, number, pk, user_id) for match_id, number, pk, user_id
             in Seat.objects.filter(match_id__in=list(awaited)).values_list(
                 "match_id", "number", "pk", "user_id")
             if number in awaited[match_id]]
    if not seats:
        return
    users = {uid for _, _, _, uid in seats if uid}
    away_at = {at: set(away_until(users, now=at))  # one instant per batch, as a rule
               for at in {c.phase.closed_at for c in closes}}
    closed_at = {c.match.pk: c.phase.closed_at for c in closes}
    counted = {(match_id, number): pk for match_id, number, pk, uid in seats
               if uid not in away_at[closed_at[match_id]]}
    known = set(SeatRecord.objects.filter(seat_id__in=list(counted.values()))
                .values_list("seat_id", flat=True))  # a seat's record is made once
    _records_create([pk for pk in counted.values() if pk not in known])
    absent = {(c.match.pk, n) for c in closes for n in c.absent}
    missed = [pk for key, pk in counted.items() if key in absent]
    present = [pk for key, pk in counted.items() if key not in absent]
    if present:
        SeatRecord.objects.filter(seat_id__in=present).update(
            awaited=F("awaited") + 1, missed_in_row=0, absent_since=None,
            takeover_open_since=None)
    if missed:
        SeatRecord.objects.filter(seat_id__in=missed).update(
            awaited=F("awaited") + 1, missed=F("missed") + 1,
            missed_in_row=F("missed_in_row") + 1)
        by_limit: dict[int, list[int]] = {}
        default = MatchRules().absent_after
        missing = set(missed)
        for (match_id, _), pk in counted.items():
            if pk in missing:
                limit = rules[match_id].absent_after if match_id in rules else default
                by_limit.setdefault(limit, []).append(pk)
        for limit, pks in by_limit.items():
            SeatRecord.objects.filter(seat_id__in=pks, missed_in_row__gte=limit,
                                      absent_since__isnull=True).update(
                                          absent_since=timezone_now())
    # a seat absent past the match's open_after_hours is offered to the lobby (the close
    # holds the match lock); only matches with an absent seat cost a query more
    with_absent = set(SeatRecord.objects.filter(
        seat__match_id__in=match_ids, absent_since__isnull=False,
        takeover_open_since__isnull=True).values_list("seat__match_id", flat=True))
    for c in closes:
        if c.match.pk in with_absent:
            takeover_open_overdue(match=c.match, now=c.phase.closed_at)


def _records_create(seat_ids: list[int]) -> None:
    """A record for each of ``seat_ids`` (a seat's first counted phase; another close may
    have made one meanwhile). PostgreSQL: one ``INSERT … SELECT FROM unnest``, not
    ``bulk_create``'s per-field preparation of the hundreds a sweep batch's first closes
    make."""
    if not seat_ids:
        return
    if connection.vendor != "postgresql":
        SeatRecord.objects.bulk_create([SeatRecord(seat_id=pk) for pk in seat_ids],
                                       ignore_conflicts=True)
        return
    table = connection.ops.quote_name(SeatRecord._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} (seat_id, awaited, missed, missed_in_row) "
                       f"SELECT s, 0, 0, 0 FROM unnest(%s::bigint[]) AS s "
                       f"ON CONFLICT (seat_id) DO NOTHING", [seat_ids])


def on_match_finished(sender, *, match, **kwargs) -> None:
    match_rate(match)
