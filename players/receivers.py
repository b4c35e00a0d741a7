"""What this app does when the framework closes a phase or finishes a match (signals sent
inside the close's transaction, so these writes commit with it)."""

from __future__ import annotations

from django.db.models import F
from django.utils.timezone import now as timezone_now

from games.models import Seat
from players.away import away_until, stretch_for_away
from players.models import MatchRules, SeatRecord
from players.ratings import match_rate


def on_phase_closed(sender, *, match, phase, absent, opened=None, **kwargs) -> None:
    """Count the phase for every awaited seat: a miss for the absent, a fresh run for the
    others; a seat that missed ``absent_after`` in a row is marked absent (publicly). A
    declared away period is no miss. Under the "stretch" away rule the next phase's
    deadline makes room for its away players."""
    if opened is not None:
        stretch_for_away(phase=opened, now=phase.closed_at)
    awaited = [n for n in phase.awaited]
    if not awaited:
        return
    seats = list(Seat.objects.filter(match=match, number__in=awaited)
                 .values_list("number", "pk", "user_id"))
    if not seats:
        return
    away = away_until([uid for _, _, uid in seats if uid], now=phase.closed_at)
    seat_ids = {n: pk for n, pk, uid in seats if uid not in away}
    SeatRecord.objects.bulk_create([SeatRecord(seat_id=pk) for pk in seat_ids.values()],
                                   ignore_conflicts=True)
    missed = [seat_ids[n] for n in absent if n in seat_ids]
    present = [pk for n, pk in seat_ids.items() if n not in set(absent)]
    if present:
        SeatRecord.objects.filter(seat_id__in=present).update(
            awaited=F("awaited") + 1, missed_in_row=0, absent_since=None,
            takeover_open_since=None)
    if missed:
        SeatRecord.objects.filter(seat_id__in=missed).update(
            awaited=F("awaited") + 1, missed=F("missed") + 1,
            missed_in_row=F("missed_in_row") + 1)
        rules = MatchRules.objects.filter(match=match).first()
        limit = rules.absent_after if rules is not None else MatchRules().absent_after
        SeatRecord.objects.filter(seat_id__in=missed, missed_in_row__gte=limit,
                                  absent_since__isnull=True).update(absent_since=timezone_now())


def on_match_finished(sender, *, match, **kwargs) -> None:
    match_rate(match)
