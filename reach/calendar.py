"""The private calendar feed: one iCalendar (RFC 5545, built with ``icalendar``) per user
at a secret URL, listing the deadlines of the open phases that await them, so a phone's
calendar shows them. It is built when fetched, so a deadline that moved (extended,
stretched for an away player) shows its new time at the calendar's next refresh; the
event's UID stays the phase's, so calendars update it rather than add one. Only the
reader's own awaited phases: nothing another player could not see on the match page.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import translation
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from accounts.profiles import profile_for
from games.emails import match_url
from games.models import CheckIn, Match, Phase, Seat
from games.templatetags.games_tags import phase_label

EVENT_MINUTES = 30  # an event ends at the deadline and starts this long before it


def awaiting_phases(user: Any) -> list[tuple[Phase, Seat]]:
    """The open phases with a deadline of running matches that await ``user``'s seat."""
    seats = {s.match_id: s for s in Seat.objects.filter(
        user=user, removed_at__isnull=True, is_bot=False, number__isnull=False,
        match__status=Match.Status.RUNNING).select_related("match")}
    if not seats:
        return []
    phases = (Phase.objects.filter(match_id__in=seats, closed_at__isnull=True,
                                   quarantined_at__isnull=True, deadline_at__isnull=False)
              .order_by("deadline_at"))
    return [(p, seats[p.match_id]) for p in phases if seats[p.match_id].number in p.awaited]


def feed(user: Any) -> bytes:
    """The user's calendar as iCalendar bytes."""
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    cal = Calendar()
    cal.add("prodid", f"-//{settings.SITE_NAME}//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{settings.SITE_NAME}: {user.get_username()}")
    cal.add("refresh-interval", timedelta(minutes=30), parameters={"VALUE": "DURATION"})
    now = timezone_now()
    pairs = awaiting_phases(user)
    done = set(CheckIn.objects.filter(phase__in=[p for p, _ in pairs])
               .values_list("phase_id", "seat_id"))
    with translation.override(profile_for(user).reading_language()):
        for phase, seat in pairs:
            match = seat.match
            event = Event()
            event.add("uid", f"phase-{phase.pk}@{host}")
            event.add("dtstamp", now)
            event.add("dtstart", phase.deadline_at - timedelta(minutes=EVENT_MINUTES))
            event.add("dtend", phase.deadline_at)
            label = str(phase_label(phase.kind))
            event.add("summary", _("Deadline: %(match)s (%(phase)s)")
                      % {"match": match.name, "phase": label})
            state = (_("You have checked in.") if (phase.pk, seat.pk) in done
                     else _("Waiting for your move."))
            event.add("description", f"{label}, turn {phase.turn}. {state}")
            event.add("url", match_url(match))
            cal.add_component(event)
    return cal.to_ical()
