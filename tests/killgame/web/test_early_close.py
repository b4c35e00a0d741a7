"""A scheduled (wall-clock) Kill Game phase closes once every living player checked in,
and the Action phase that follows ends at the end of its own window (issue 10 §2)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import time_machine

from games import selectors
from games.models import Match
from games.services.phases import phases_close_due
from games.services.seats import seat_checkin
from tests.killgame.web.conftest import client_for, detail_url, kg_match, seat_of

# 15:00 in Rome: inside the Tactical window (13:00–21:30)
CURRENT_TIME = datetime(2026, 7, 1, 13, 0, tzinfo=timezone.utc)


def test_all_checked_in_closes_a_scheduled_phase_and_keeps_the_grid(db):
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        match, users = kg_match(3, config={"check_enabled": False})
        phase = selectors.current_phase(match)
        assert phase.kind == "tactical" and phase.close_when_all_checked_in
        assert phase.deadline_at == datetime(2026, 7, 1, 19, 30, tzinfo=timezone.utc)
        for user in users:
            seat_checkin(match=match, seat=seat_of(match, user), phase_id=phase.pk)
        phase.refresh_from_db()
        traveller.shift(timedelta(seconds=3))
        phases_close_due()  # whether or not the queued close already ran
        phase.refresh_from_db()
        assert phase.closed_at is not None
        assert phase.closed_at - CURRENT_TIME <= timedelta(seconds=30)
        action = selectors.current_phase(match)
        assert action.kind == "action"
        # Action runs 21:30–13:00: it ends at 13:00 Rome tomorrow, not 24 h from now
        assert action.deadline_at == datetime(2026, 7, 2, 11, 0, tzinfo=timezone.utc)


def test_the_page_says_when_a_checkin_cannot_close_the_phase(db):
    match, users = kg_match(2, start=False)
    Match.objects.filter(pk=match.pk).update(early_close=False)
    from games.services.matches import match_start

    match.refresh_from_db()
    match_start(match=match)
    html = client_for(users[0]).get(detail_url(match)).content.decode()
    assert "Check in: I am done" in html
    assert 'id="checkin-no-early-close"' in html
    Match.objects.filter(pk=match.pk).update(early_close=True)
