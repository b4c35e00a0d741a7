"""Replacement that can happen (issue 23): who may vote is stated next to the button;
absent, away and dead players neither vote nor count toward the majority; a seat nobody
can vote on says why; a seat absent past the match's ``open_after_hours`` opens to the
lobby by itself, at a close, with the table told."""

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine
from django.core import mail
from django.test import TestCase

from games.exceptions import ApplicationError
from games.services.phases import phase_close, phase_current
from players.away import away_declare
from players.models import MatchRules, SeatRecord
from players.takeover import open_seats, takeover_vote, voters
from tests.factories import make_match

pytestmark = pytest.mark.django_db
#: a Saturday evening; the phases cross midnight and, a week later, the DST change
CURRENT_TIME = datetime(2026, 10, 17, 21, 0, tzinfo=timezone.utc)


def _with_absent_seat(players: int, absent_hours: float = 1):
    match = make_match(players=players, schedule={"mode": "duration", "hours": 24})
    seats = list(match.seats.order_by("number"))
    SeatRecord.objects.create(seat=seats[-1], missed_in_row=3, awaited=3, missed=3,
                              absent_since=CURRENT_TIME - timedelta(hours=absent_hours))
    return match, seats


@time_machine.travel(CURRENT_TIME, tick=False)
def test_away_and_absent_players_do_not_count_toward_the_majority(client):
    match, seats = _with_absent_seat(players=4)
    absent = seats[-1]
    away_declare(user=seats[2].user, first=date(2026, 10, 17), last=date(2026, 10, 20))
    assert [s.pk for s in voters(match, excluding=absent)] == [seats[0].pk, seats[1].pk]
    with pytest.raises(ApplicationError) as err:
        takeover_vote(seat=absent, voter=seats[2])
    assert err.value.code == "CANNOT_VOTE" and "away" in err.value.message
    # the page says who may vote, and why the away player may not
    client.force_login(seats[2].user)
    page = client.get(f"/players/m/{match.pk}/seats/").content.decode()
    assert "You cannot vote while you are away." in page
    assert f"Who may vote: {seats[0].user.username}, {seats[1].user.username}" in page
    assert takeover_vote(seat=absent, voter=seats[0]) == (1, 2)
    assert takeover_vote(seat=absent, voter=seats[1]) == (2, 2)  # 2 of 2: opened
    assert SeatRecord.objects.get(seat=absent).takeover_open_since is not None


@time_machine.travel(CURRENT_TIME, tick=False)
def test_a_seat_nobody_can_vote_on_says_why(client):
    match, seats = _with_absent_seat(players=2)
    client.force_login(seats[0].user)
    away_declare(user=seats[0].user, first=date(2026, 10, 17), last=date(2026, 10, 18))
    page = client.get(f"/players/m/{match.pk}/seats/").content.decode()
    assert "Nobody can vote on this seat" in page and "48 hours" in page
    assert "Vote to replace" not in page


@time_machine.travel(CURRENT_TIME, tick=False)
def test_a_seat_absent_past_the_setting_opens_to_the_lobby_by_itself():
    match, seats = _with_absent_seat(players=3, absent_hours=47)
    MatchRules.objects.create(match=match, open_after_hours=48)
    with TestCase.captureOnCommitCallbacks(execute=True):
        phase_close(phase_id=phase_current(match).pk, force=True)
    assert not open_seats().filter(seat=seats[-1]).exists()  # 47 h: not yet
    later = CURRENT_TIME + timedelta(hours=2)  # past midnight: 49 h absent
    with time_machine.travel(later, tick=False), \
            TestCase.captureOnCommitCallbacks(execute=True):
        phase_close(phase_id=phase_current(match).pk, now=later, force=True)
    assert open_seats().filter(seat=seats[-1]).exists()
    told = [m for m in mail.outbox if seats[0].user.email in m.to
            and "open for a new player" in m.body]
    assert told and "absent too long" in told[0].body
