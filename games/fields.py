"""Model fields of the framework."""

from __future__ import annotations

from typing import Any

from django.db import models


class DocumentJSONField(models.JSONField):
    """A JSON column holding a whole document (a match's state after a phase: ~10 KB for
    twelve Kill Game players), inserted by the thousand in the deadline storm.

    Django inserts a batch of rows on PostgreSQL as ``UNNEST`` arrays, one per column; an
    array's text element is escaped with a regular-expression substitution per double
    quote, which for a document cost more CPU than the rest of the close's inserts
    together. A field that names its own placeholder keeps Django's plain ``VALUES`` list,
    where each document is one literal, escaped by libpq."""

    def get_placeholder(self, value: Any, compiler: Any, connection: Any) -> str:
        return "%s"
