"""Querysets compiled to SQL once per process. The match page runs the same few queries on
every load (the match, its seats, its open phase) with only the match id changing; Django
builds and compiles each queryset anew every time, which cost more CPU than running it
(measured: the page's three queries 2.4-3.5 ms of CPU each through the ORM, 0.5-1.3 ms
compiled once, on the shared 2-core machine; docs/pages.md "Fragment cache").

Here the SQL is compiled on first use with a marker id and reused with the real one; a
queryset whose parameters are not exactly that one id is run through the ORM as usual.
What else shapes the queryset (annotations other apps register) is named by ``depends``:
the SQL is compiled again whenever it changes, so nothing registered late goes missing.
``tests/games/test_sqlonce.py`` holds every use to the ORM's own answer.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from django.db import connection
from django.db.models import QuerySet

_MARK = 987654321


class CompiledOnce:
    """``CompiledOnce(lambda match_id: queryset, depends=lambda: ...)``: ``.rows(id)``
    (tuples), ``.objects(model, id)`` (model instances through ``raw``: columns not
    selected are deferred, extra ones become attributes)."""

    def __init__(self, build: Callable[[int], QuerySet[Any]],
                 depends: Callable[[], Hashable] = lambda: None) -> None:
        self.build = build
        self.depends = depends
        self._compiled_for: dict[Hashable, str | None] = {}

    def _compiled(self) -> str | None:
        key = self.depends()
        if key not in self._compiled_for:
            sql, params = self.build(_MARK).query.sql_with_params()
            self._compiled_for = {key: sql if list(params) == [_MARK] else None}
        return self._compiled_for[key]

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
