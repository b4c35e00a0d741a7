"""Columns of a hand-written SQL row read the same on PostgreSQL and SQLite: a JSON column
comes back decoded from PostgreSQL but as text from SQLite, a ``timestamptz`` as an aware
datetime from PostgreSQL but as naive UTC text from SQLite."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from django.utils.dateparse import parse_datetime


def json_value(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def aware_datetime(value: Any) -> datetime | None:
    if isinstance(value, str):
        value = parse_datetime(value)
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
    return value
