"""Appending engine events to the diary (docs/style.md §20): each event once, in order, with
its audience; ``seq`` comes from ``Match.diary_seq`` under the match row lock, and the
``(match, seq)`` unique constraint makes a double write fail loudly.
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from django.db import connection
from django.utils.timezone import now as timezone_now

from games.models import DiaryEntry, Match, Phase
from games.rules import Event

#: the columns :func:`diary_insert` writes, in :class:`DiaryRow`'s order then the time
#: (every column but the id; ``tests/games/services/test_diary_insert.py`` holds it to
#: the model)
COPY_COLUMNS = ("match_id", "phase_id", "seq", "turn", "phase_kind", "kind", "payload",
                "is_public", "audience", "created_at")


class DiaryRow(NamedTuple):
    """One diary row to insert (a plain tuple: the close builds thousands, and never needs
    them as model instances)."""

    match_id: int
    phase_id: int | None
    seq: int
    turn: int
    phase_kind: str
    kind: str
    payload: dict[str, Any]
    is_public: bool
    audience: str


def diary_rows(*, match: Match, phase: Phase | None, events: Iterable[Event]) -> list[DiaryRow]:
    """Rows for ``events`` after the match's last one; bumps ``match.diary_seq`` in memory
    (the caller holds the match lock, inserts the rows and saves the match)."""
    rows = []
    phase_id, turn, kind = (phase.pk, phase.turn, phase.kind) if phase else (None, 0, "")
    for event in events:
        match.diary_seq += 1
        rows.append(DiaryRow(match.pk, phase_id, match.diary_seq, turn, kind, event.kind,
                             dict(event.data), event.visible_to is None,
                             DiaryEntry.audience_for(event.visible_to)))
    return rows


def diary_append(*, match: Match, phase: Phase | None, events: Iterable[Event]) -> None:
    """:func:`diary_rows`, inserted."""
    diary_insert(diary_rows(match=match, phase=phase, events=events))


def diary_insert(rows: list[DiaryRow]) -> None:
    """Insert ``rows`` (a sweep batch's closes write some two thousand). On PostgreSQL by
    ``COPY`` (psycopg's), the database's bulk-load path: Django's ``bulk_create`` spent
    a fifth of a close's CPU building a model instance per row, preparing its every field
    and escaping the JSON payloads into arrays, five times what ``COPY`` costs; elsewhere
    ``bulk_create``. Nothing reads the new rows' ids back."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        DiaryEntry.objects.bulk_create([DiaryEntry(**row._asdict()) for row in rows])
        return
    from json import dumps

    now = timezone_now()
    table = connection.ops.quote_name(DiaryEntry._meta.db_table)
    # the driver's errors as Django's (IntegrityError, OperationalError…), as for a query
    with connection.cursor() as cursor, connection.wrap_database_errors:
        with cursor.copy(f"COPY {table} ({', '.join(COPY_COLUMNS)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row((*row[:6], dumps(row.payload), row.is_public, row.audience, now))
