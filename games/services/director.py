"""The director's desk: one import for the admin (and any director page) with every action
it may take. Each action is a service elsewhere and writes a DirectorAction row there;
this module only gathers them and adds the director-only reads.
"""

from __future__ import annotations

import json

from games.lib.sqlonce import CompiledOnce
from games.models import DirectorAction, Match
from games.services.matches import match_end, match_pause, match_resume, match_start
from games.services.phases import phase_close_now, phase_extend
from games.services.seats import seat_remove, seat_replace

__all__ = ["match_start", "match_pause", "match_resume", "match_end", "phase_extend",
           "phase_close_now", "seat_replace", "seat_remove", "director_log_for", "director_log_rows",
           "matches_needing_director"]


def director_log_for(match: Match, limit: int | None = None) -> list[DirectorAction]:
    """The director actions on ``match``, newest first (the latest ``limit``, else all)."""
    actions = DirectorAction.objects.filter(match=match).select_related("actor")
    return list(actions[:limit] if limit is not None else actions)


def director_log_rows(match: Match, limit: int) -> list[tuple]:
    """The latest ``limit`` director actions on ``match``, newest first, as plain rows
    ``(created_at, actor's username or None, action, details)`` (no model instances: the
    director's match page shows fifty of them on every load; its SQL compiled once)."""
    compiled = _LOG_ROWS.get(limit)
    if compiled is None:
        compiled = _LOG_ROWS[limit] = CompiledOnce(
            lambda match_id: DirectorAction.objects.filter(match_id=match_id)
            .values_list("created_at", "actor__username", "action", "details")[:limit])
    # the cursor gives the JSON details as text where the ORM would decode them
    return [(when, who, action, json.loads(details) if isinstance(details, str) else details)
            for when, who, action, details in compiled.rows(match.pk)]


#: director_log_rows' compiled query, per limit
_LOG_ROWS: dict[int, CompiledOnce] = {}


def matches_needing_director():
    """Matches with a quarantined phase or another reason to look."""
    return Match.objects.filter(needs_director=True)
