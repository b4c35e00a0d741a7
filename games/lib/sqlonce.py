"""Querysets compiled to SQL once per process. The match page runs the same few queries on
every load (the match, its seats, its open phase) with only the match id changing; Django
builds and compiles each queryset anew every time, which cost more CPU than running it.
Here the SQL is compiled on first use with a marker id and reused with the real one; a
queryset whose parameters are not exactly that one id is run through the ORM as usual."""

from __future__ import annotations

from typing import Any, Callable

from django.db import connection
from django.db.models import QuerySet

_MARK = 987654321


class CompiledOnce:
    """``CompiledOnce(lambda match_id: queryset)``: ``.rows(id)`` (tuples),
    ``.objects(model, id)`` (model instances through ``raw``: columns not selected are
    deferred, extra ones become attributes)."""

    def __init__(self, build: Callable[[int], QuerySet[Any]]) -> None:
        self.build = build
        self._sql: str | None = None
        self._usable = True

    def _compiled(self) -> str | None:
        if self._sql is None and self._usable:
            sql, params = self.build(_MARK).query.sql_with_params()
            if list(params) == [_MARK]:
                self._sql = sql
            else:
                self._usable = False
        return self._sql

    def rows(self, match_id: int) -> list[tuple[Any, ...]]:
        sql = self._compiled()
        if sql is None:
            return list(self.build(match_id))
        with connection.cursor() as cursor:
            cursor.execute(sql, [match_id])
            return list(cursor.fetchall())

    def objects(self, model: Any, match_id: int) -> list[Any]:
        sql = self._compiled()
        if sql is None:
            return list(self.build(match_id))
        return list(model.objects.raw(sql, [match_id]))
