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
    seats = [(match_id, number, pk, user_id)
             for match_id, number, pk, user_id in _seats_of(closes, list(awaited))
             if number in awaited[match_id]]
    if not seats:
        return
    users = {uid for _, _, _, uid in seats if uid}
    away_at = {at: set(away_until(users, now=at))  # one instant per batch, as a rule
               for at in {c.phase.closed_at for c in closes}}
    closed_at = {c.match.pk: c.phase.closed_at for c in closes}
    counted = {(match_id, number): pk for match_id, number, pk, uid in seats
               if uid not in away_at[closed_at[match_id]]}
    absent = {(c.match.pk, n) for c in closes for n in c.absent}
    default = MatchRules().absent_after
    by_limit: dict[int, list[tuple[int, bool]]] = {}
    for (match_id, number), pk in counted.items():
        limit = rules[match_id].absent_after if match_id in rules else default
        by_limit.setdefault(limit, []).append((pk, (match_id, number) in absent))
    for limit, records in by_limit.items():
        _records_count(records, absent_after=limit, now=timezone_now())
    # a seat absent past the match's open_after_hours is offered to the lobby (the close
    # holds the match lock); only matches with an absent seat cost a query more
    with_absent = set(SeatRecord.objects.filter(
        seat__match_id__in=match_ids, absent_since__isnull=False,
        takeover_open_since__isnull=True).values_list("seat__match_id", flat=True))
    for c in closes:
        if c.match.pk in with_absent:
            takeover_open_overdue(match=c.match, now=c.phase.closed_at)


def _seats_of(closes, match_ids: list[int]) -> list[tuple[int, int, int, int | None]]:
    """(match id, number, seat id, user id) of the matches' seats: those the close read
    (``ClosedPhase.seats``) when it passed them, else one query."""
    if all(c.seats is not None for c in closes):
        wanted = set(match_ids)
        return [(s.match_id, s.number, s.pk, s.user_id) for c in closes
                if c.match.pk in wanted for s in c.seats if s.number is not None]
    return list(Seat.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "number", "pk", "user_id"))


def _records_count(records: list[tuple[int, bool]], *, absent_after: int,
                   now) -> None:
    """Count one more awaited phase on each seat's record (``(seat id, missed)``), made
    on the seat's first: a miss adds to the run of misses and marks the seat absent at
    ``absent_after`` in a row; a phase played ends the run, the absence and any offer of
    the seat. PostgreSQL: one ``INSERT … ON CONFLICT DO UPDATE`` for the batch (it was
    six statements over the same rows). Elsewhere the same with the ORM."""
    if not records:
        return
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(SeatRecord._meta.db_table)
        sql = (f"INSERT INTO {table} AS r (seat_id, awaited, missed, missed_in_row, "
               f"absent_since) "
               f"SELECT s, 1, m, m, CASE WHEN m >= %(limit)s THEN %(now)s::timestamptz END "
               f"FROM unnest(%(seats)s::bigint[], %(missed)s::int[]) AS v(s, m) "
               f"ON CONFLICT (seat_id) DO UPDATE SET "
               f"awaited = r.awaited + 1, missed = r.missed + EXCLUDED.missed, "
               f"missed_in_row = CASE WHEN EXCLUDED.missed = 1 "
               f"THEN r.missed_in_row + 1 ELSE 0 END, "
               f"absent_since = CASE WHEN EXCLUDED.missed = 0 THEN NULL "
               f"WHEN r.absent_since IS NULL AND r.missed_in_row + 1 >= %(limit)s "
               f"THEN %(now)s::timestamptz ELSE r.absent_since END, "
               f"takeover_open_since = CASE WHEN EXCLUDED.missed = 0 THEN NULL "
               f"ELSE r.takeover_open_since END")
        with connection.cursor() as cursor:
            cursor.execute(sql, {"limit": absent_after, "now": now,
                                 "seats": [pk for pk, _ in records],
                                 "missed": [1 if missed else 0 for _, missed in records]})
        return
    ids = [pk for pk, _ in records]
    known = set(SeatRecord.objects.filter(seat_id__in=ids).values_list("seat_id", flat=True))
    SeatRecord.objects.bulk_create([SeatRecord(seat_id=pk) for pk in ids if pk not in known],
                                   ignore_conflicts=True)
    present = [pk for pk, missed in records if not missed]
    missed = [pk for pk, m in records if m]
    if present:
        SeatRecord.objects.filter(seat_id__in=present).update(
            awaited=F("awaited") + 1, missed_in_row=0, absent_since=None,
            takeover_open_since=None)
    if missed:
        SeatRecord.objects.filter(seat_id__in=missed).update(
            awaited=F("awaited") + 1, missed=F("missed") + 1,
            missed_in_row=F("missed_in_row") + 1)
        SeatRecord.objects.filter(seat_id__in=missed, missed_in_row__gte=absent_after,
                                  absent_since__isnull=True).update(absent_since=now)


def on_match_finished(sender, *, match, **kwargs) -> None:
    match_rate(match)
