"""Appending engine events to the diary (docs/style.md §20): each event once, in order, with
its audience; ``seq`` comes from ``Match.diary_seq`` under the match row lock, and the
``(match, seq)`` unique constraint makes a double write fail loudly.
"""

from __future__ import annotations

from typing import Iterable

from games.models import DiaryEntry, Match, Phase
from games.rules import Event


def diary_rows(*, match: Match, phase: Phase | None, events: Iterable[Event]) -> list[DiaryEntry]:
    """Unsaved rows for ``events`` after the match's last one; bumps ``match.diary_seq`` in
    memory (the caller holds the match lock, saves the rows and the match)."""
    rows = []
    for event in events:
        match.diary_seq += 1
        rows.append(DiaryEntry(
            match=match, phase=phase, seq=match.diary_seq,
            turn=phase.turn if phase else 0, phase_kind=phase.kind if phase else "",
            kind=event.kind, payload=dict(event.data),
            is_public=event.visible_to is None,
            audience=DiaryEntry.audience_for(event.visible_to)))
    return rows


def diary_append(*, match: Match, phase: Phase | None, events: Iterable[Event]) -> list[DiaryEntry]:
    """:func:`diary_rows`, inserted."""
    rows = diary_rows(match=match, phase=phase, events=events)
    return DiaryEntry.objects.bulk_create(rows) if rows else []
