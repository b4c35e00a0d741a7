"""Time-zone helpers for display (the services work in UTC; readers see their own zone)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timezone as dt_timezone

from django.utils.translation import gettext


def safe_zone(name: str | None, default: str = "UTC") -> zoneinfo.ZoneInfo:
    """``ZoneInfo(name)``, or ``default`` when the name is empty or unknown."""
    try:
        return zoneinfo.ZoneInfo(name or default)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(default)


def format_local(moment: datetime | None, zone_name: str | None) -> str:
    """``2026-03-29 13:00 CEST`` in the reader's zone; ``"none (no time limit)"`` for ``None``."""
    if moment is None:
        return gettext("none (no time limit)")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt_timezone.utc)
    local = moment.astimezone(safe_zone(zone_name))
    return local.strftime("%Y-%m-%d %H:%M %Z")
