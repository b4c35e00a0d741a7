"""An audit line for every look a director (staff) takes at hidden information.

Staff are omniscient in every match (the director must be able to step into any match at
once: a quarantined phase, a seat to replace, a reported private message), so what keeps
that power honest is a record: every staff view of hidden information — a match page,
fragment, poll or API answer built from ``omniscient_view``, the press panel or API with
every channel, the admin's full state, diary and messages — writes one line to the
``pbw.audit`` logger:

    staff_view user=7:admin match=12 what=page path='/m/12/'

Operators keep that log (it goes wherever the logs go; docs/security.md "Directors").
One line per request and match (a page that reads the view in several places logs once).
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("pbw.audit")


def staff_view(user: Any, match_id: Any, what: str, request: Any = None) -> None:
    """Record that ``user`` (staff) sees hidden information of ``match_id``."""
    if request is not None:
        seen = request.__dict__.setdefault("_pbw_audited", set())
        if (match_id, what) in seen:
            return
        seen.add((match_id, what))
    path = getattr(request, "path", "") if request is not None else ""
    log.info("staff_view user=%s:%s match=%s what=%s path=%r", getattr(user, "pk", None),
             user.get_username() if hasattr(user, "get_username") else "?", match_id, what,
             path[:200])


class AuditedAdminMixin:
    """A ModelAdmin whose pages show hidden information: each list and each object
    opened is a line (``match_field``: the object's match id, or the object's own id for
    a Match)."""

    audit_what = "admin"
    match_field = "match_id"

    def changelist_view(self, request: Any, extra_context: Any = None) -> Any:
        match_id = request.GET.get("match__id__exact") or request.GET.get("match") or "*"
        staff_view(request.user, str(match_id)[:20], f"{self.audit_what}-list", request)
        return super().changelist_view(request, extra_context)  # type: ignore[misc]

    def change_view(self, request: Any, object_id: str, form_url: str = "",
                    extra_context: Any = None) -> Any:
        obj = self.get_object(request, object_id)  # type: ignore[attr-defined]
        if obj is not None:
            match_id = obj
            for part in self.match_field.split("."):  # "message.match_id" on a report
                match_id = getattr(match_id, part, None)
            staff_view(request.user, match_id, self.audit_what, request)
        return super().change_view(request, object_id, form_url,  # type: ignore[misc]
                                   extra_context)
