"""Away seats never hold the group back (issue 23): an away seat counts as checked in for
the early close once a player who is not away checked in; the counter reads "N of M
active (K away)"; the dead never count; under the "stretch" rule the phase waits."""

from datetime import date, datetime, timezone

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors
from games.models import Phase
from games.services.phases import phases_close_due
from games.services.seats import seat_checkin
from players.away import away_declare
from players.models import MatchRules
from tests.factories import make_match

pytestmark = pytest.mark.django_db
#: a Sunday night before the autumn DST change (25 Oct 2026): the away days span it
CURRENT_TIME = datetime(2026, 10, 24, 21, 30, tzinfo=timezone.utc)


def _three_with_one_away(away_rule=None):
    match = make_match(players=3, schedule={"mode": "duration", "hours": 48})
    if away_rule:
        MatchRules.objects.create(match=match, away_rule=away_rule)
    s0, s1, s2 = match.seats.order_by("number")
    away_declare(user=s0.user, first=date(2026, 10, 24), last=date(2026, 10, 26))
    return match, s0, s1, s2


@time_machine.travel(CURRENT_TIME, tick=False)
def test_the_others_check_ins_close_the_phase_of_an_away_player():
    match, s0, s1, s2 = _three_with_one_away()
    phase = selectors.current_phase(match)
    count = selectors.checkin_count(phase)
    assert (count.checked_in, count.active, count.away) == (0, 2, 1)
    assert not selectors.phase_all_checked_in(phase)  # nobody pressed: it waits
    seat_checkin(match=match, seat=s1)
    assert not selectors.phase_all_checked_in(phase)
    seat_checkin(match=match, seat=s2)
    assert selectors.phase_all_checked_in(phase)
    assert selectors.checkin_count(phase) == selectors.CheckinCount(2, 2, 1)
    assert phases_close_due() == 1
    phase.refresh_from_db()
    assert phase.closed_at is not None and phase.closed_at < phase.deadline_at


@time_machine.travel(CURRENT_TIME, tick=False)
def test_the_counter_says_how_many_are_away(client):
    match, s0, s1, s2 = _three_with_one_away()
    seat_checkin(match=match, seat=s1)
    client.force_login(s2.user)
    page = client.get(f"/m/{match.pk}/").content.decode()
    assert "1 of 2 active (1 away)" in page
    api = client.get(f"/api/matches/{match.pk}/").json()["phase"]
    assert (api["checked_in_count"], api["awaited_count"], api["away_count"]) == (1, 2, 1)


@time_machine.travel(CURRENT_TIME, tick=False)
def test_a_phase_where_everyone_is_away_waits_for_its_deadline():
    match = make_match(players=2, schedule={"mode": "duration", "hours": 48})
    for seat in match.seats.all():
        away_declare(user=seat.user, first=date(2026, 10, 24), last=date(2026, 10, 26))
    assert phases_close_due() == 0
    assert selectors.current_phase(match).number == 1


@time_machine.travel(CURRENT_TIME, tick=False)
def test_an_away_period_that_begins_after_the_others_checked_in_closes_the_phase():
    match = make_match(players=3, schedule={"mode": "duration", "hours": 48})
    s0, s1, s2 = match.seats.order_by("number")
    seat_checkin(match=match, seat=s1)
    seat_checkin(match=match, seat=s2)
    away_declare(user=s0.user, first=date(2026, 10, 24), last=date(2026, 10, 25))
    assert phases_close_due() == 1


@time_machine.travel(CURRENT_TIME, tick=False)
def test_under_the_stretch_rule_the_phase_waits_for_the_away_player():
    match, s0, s1, s2 = _three_with_one_away(MatchRules.AwayRule.STRETCH)
    seat_checkin(match=match, seat=s1)
    seat_checkin(match=match, seat=s2)
    assert phases_close_due() == 0


@time_machine.travel(CURRENT_TIME, tick=False)
def test_the_dead_never_count():
    match = make_match(players=3, schedule={"mode": "duration", "hours": 48})
    s0, s1, s2 = match.seats.order_by("number")
    phase = selectors.current_phase(match)
    Phase.objects.filter(pk=phase.pk).update(awaited=[0, 1])  # seat 2 is dead
    phase.refresh_from_db()
    assert selectors.checkin_count(phase) == selectors.CheckinCount(0, 2, 0)
    seat_checkin(match=match, seat=s0)
    assert selectors.checkin_count(phase) == selectors.CheckinCount(1, 2, 0)


@time_machine.travel(CURRENT_TIME, tick=False)
def test_nobody_missing_costs_no_away_query():
    match = make_match(players=2, schedule={"mode": "duration", "hours": 48})
    s0, s1 = match.seats.order_by("number")
    phase = selectors.current_phase(match)
    seats = list(match.seats.all())
    with CaptureQueriesContext(connection) as ctx:
        selectors.checkin_count(phase, seats=seats, pressed={0, 1})
    assert len(ctx.captured_queries) == 0


def _away_queries(client, url) -> tuple[str, int]:
    """The page, and how many of its queries read the away periods (the check-in count's,
    the seat notes' join)."""
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(url).content.decode()
    return page, sum('"players_away"' in q["sql"] for q in ctx.captured_queries)


def test_the_match_page_keeps_the_away_periods_until_the_version_moves(client):
    """The "N of M active (K away)" line reads the away periods once per public version
    (players.away._periods_kept), not on every load; declaring or cancelling a period
    shows at once (it bumps the version), and the clock starting or ending a period
    already declared shows without a new read (the periods are kept with their bounds)."""
    from players.away import away_cancel
    from players.models import Away

    with time_machine.travel(CURRENT_TIME, tick=False) as clock:
        match = make_match(players=3, schedule={"mode": "duration", "hours": 48})
        s0, s1, s2 = match.seats.order_by("number")
        seat_checkin(match=match, seat=s1)
        client.force_login(s2.user)
        url = f"/m/{match.pk}/"
        page, reads = _away_queries(client, url)
        assert "1 of 3 checked in" in page
        page, reads = _away_queries(client, url)
        assert reads == 0 and "1 of 3 checked in" in page  # kept: no query on this load
        # declared now: shown at the next load
        away_declare(user=s0.user, first=date(2026, 10, 24), last=date(2026, 10, 26))
        page, reads = _away_queries(client, url)
        assert "1 of 2 active (1 away)" in page and reads >= 1
        page, reads = _away_queries(client, url)
        assert "1 of 2 active (1 away)" in page and reads == 0
        # cancelled: the line is back at once
        away_cancel(away=Away.objects.get(user=s0.user), user=s0.user)
        page, _ = _away_queries(client, url)
        assert "1 of 3 checked in" in page
        # declared for later: not away yet, then away once the clock gets there
        away_declare(user=s0.user, first=date(2026, 10, 25), last=date(2026, 10, 26))
        page, reads = _away_queries(client, url)
        assert "1 of 3 checked in" in page
        clock.move_to(datetime(2026, 10, 25, 12, 0, tzinfo=timezone.utc))
        page, reads = _away_queries(client, url)
        assert "1 of 2 active (1 away)" in page and reads == 0
        # and the clock ends it again (the 26th ends in the player's zone)
        clock.move_to(datetime(2026, 10, 27, 12, 0, tzinfo=timezone.utc))
        page, reads = _away_queries(client, url)
        assert "1 of 3 checked in" in page and reads == 0


def test_the_seat_notes_are_read_once_per_version_and_follow_the_clock_and_names(
        client, monkeypatch):
    """The "away until …" and "absent" notes under the players (players.away.seat_notes)
    are read once per public version and seats, then kept: the seat list rendered anew (its
    key holds the minute) reads nothing more, the clock starts and ends a declared period,
    a rename shows at once, and so does a close that marks a seat absent."""
    from django.contrib.auth.models import User

    from games.lib import htmlcache
    from players.models import SeatRecord

    with time_machine.travel(CURRENT_TIME, tick=False) as clock:
        match = make_match(players=3, schedule={"mode": "duration", "hours": 48})
        s0, s1, s2 = match.seats.order_by("number")
        away_declare(user=s0.user, first=date(2026, 10, 25), last=date(2026, 10, 26))
        client.force_login(s1.user)
        url = f"/m/{match.pk}/"

        def fresh(tag):  # every fragment rendered anew, as each new minute does
            monkeypatch.setattr(htmlcache, "code_version", lambda: tag)
            return _away_queries(client, url)

        page, _ = fresh("a")
        assert "is away until" not in page  # not begun yet
        page, reads = fresh("b")
        assert reads == 0 and "is away until" not in page
        clock.move_to(datetime(2026, 10, 25, 12, 0, tzinfo=timezone.utc))
        page, reads = fresh("c")
        assert reads == 0 and f"{s0.user.username} is away until" in page
        User.objects.filter(pk=s0.user_id).update(username="renamed0")
        page, reads = fresh("d")
        assert "renamed0 is away until" in page and reads >= 1
        # a close marks the seat absent and bumps the version: shown at once
        SeatRecord.objects.create(seat=s2, absent_since=CURRENT_TIME)
        match.refresh_from_db()
        type(match).objects.filter(pk=match.pk).update(version=match.version + 1)
        page, reads = fresh("e")
        assert f"{s2.user.username} is absent" in page and reads >= 1
        clock.move_to(datetime(2026, 10, 27, 12, 0, tzinfo=timezone.utc))
        page, reads = fresh("f")
        assert "is away until" not in page and f"{s2.user.username} is absent" in page
        assert reads == 0
