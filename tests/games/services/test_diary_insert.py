"""``diary_insert`` (the close's diary rows by COPY on PostgreSQL) writes exactly what
Django's ``bulk_create`` writes, every column of the model, and the ``(match, seq)``
guard still refuses a second copy of a row."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from games.models import DiaryEntry
from games.services.diary import COPY_COLUMNS, DiaryRow, diary_insert
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def _rows(match, start: int) -> list[DiaryRow]:
    return [DiaryRow(match_id=match.pk, phase_id=None, seq=start + i, turn=2, phase_kind="act",
                     kind="moved", payload={"who": i, "text": 'a "quoted" \\ line', "to": [1, 2],
                                            "raw": "tab\there\nline\r\\N é"},
                     is_public=i % 2 == 0, audience="" if i % 2 == 0 else ",1,3,")
            for i in range(3)]


def test_the_copy_writes_every_column_as_bulk_create_does():
    columns = {f.column for f in DiaryEntry._meta.concrete_fields if not f.primary_key}
    assert set(COPY_COLUMNS) == columns  # a new column must be written by the COPY too
    match = make_match(players=2)
    DiaryEntry.objects.bulk_create([DiaryEntry(**row._asdict()) for row in _rows(match, 100)])
    diary_insert(_rows(match, 200))
    by_orm = list(DiaryEntry.objects.filter(seq__lt=200).order_by("seq").values())
    by_copy = list(DiaryEntry.objects.filter(seq__gte=200).order_by("seq").values())
    assert len(by_copy) == 3
    for a, b in zip(by_orm, by_copy):
        for key in ("id", "seq", "created_at"):
            a.pop(key), b.pop(key)
        assert a == b
    assert all(row["created_at"] is not None
               for row in DiaryEntry.objects.filter(seq__gte=200).values("created_at"))


def test_a_second_copy_of_a_row_is_refused():
    match = make_match(players=2)
    diary_insert(_rows(match, 300))
    with pytest.raises(IntegrityError), transaction.atomic():
        diary_insert(_rows(match, 300))
    assert DiaryEntry.objects.filter(match=match, seq__gte=300).count() == 3
    assert connection.vendor == "postgresql"  # the COPY path is the one under test
