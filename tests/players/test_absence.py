"""Away periods (allowance, DST arithmetic, stretched deadlines), takeover of an absent seat
(hidden information: the newcomer sees only the seat's view), the emergency pause."""

from datetime import date, datetime, timedelta, timezone
import zoneinfo

import pytest
import time_machine

from games.exceptions import ApplicationError
from games.models import DirectorAction
from games.services.orders import order_submit
from games.services.phases import phase_close, phase_current
from players.away import away_declare, away_until, stretch_for_away, wall_duration
from players.models import Away, LeftSeat, MatchRules, SeatRecord
from players.takeover import emergency_pause, takeover_claim, takeover_open, takeover_vote
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
ROME = zoneinfo.ZoneInfo("Europe/Rome")
# 2027-03-28 is the spring DST change in Europe/Rome (02:00 -> 03:00)
BEFORE_DST = datetime(2027, 3, 20, 9, 0, tzinfo=timezone.utc)


def test_wall_duration_ignores_the_dst_hour():
    start = datetime(2027, 3, 27, 0, 0, tzinfo=ROME)
    end = datetime(2027, 3, 29, 0, 0, tzinfo=ROME)
    assert end.astimezone(timezone.utc) - start.astimezone(timezone.utc) == timedelta(hours=47)
    assert wall_duration(start, end, "Europe/Rome") == timedelta(days=2)


@time_machine.travel(BEFORE_DST, tick=False)
def test_a_fortnight_across_dst_is_fourteen_days_and_the_allowance_holds():
    user = make_user(timezone="Europe/Rome")
    away = away_declare(user=user, first=date(2027, 3, 22), last=date(2027, 4, 4))
    assert away.starts_at == datetime(2027, 3, 22, tzinfo=ROME)
    assert away.ends_at == datetime(2027, 4, 5, tzinfo=ROME)
    real = away.ends_at.astimezone(timezone.utc) - away.starts_at.astimezone(timezone.utc)
    assert real == timedelta(days=14, hours=-1)  # the lost DST hour is not a lost day
    with pytest.raises(ApplicationError) as exc:  # one more day within 90 days: refused
        away_declare(user=user, first=date(2027, 5, 1), last=date(2027, 5, 1))
    assert exc.value.code == "ALLOWANCE"
    # 90 days after the first period ended, a new one fits
    away_declare(user=user, first=date(2027, 7, 5), last=date(2027, 7, 6))
    with pytest.raises(ApplicationError) as exc:
        away_declare(user=user, first=date(2027, 8, 1), last=date(2027, 8, 20))
    assert exc.value.code == "TOO_LONG"
    with pytest.raises(ApplicationError) as exc:
        away_declare(user=user, first=date(2027, 7, 6), last=date(2027, 7, 7))
    assert exc.value.code == "OVERLAP"
    assert Away.objects.filter(user=user).count() == 2


@time_machine.travel(BEFORE_DST, tick=False)
def test_a_stretched_deadline_keeps_its_wall_clock_time_across_dst():
    match = make_match(players=2, config={"rounds": 3},
                       schedule={"mode": "duration", "hours": 24 * 10})
    match.timezone = "Europe/Rome"
    match.save(update_fields=["timezone"])
    MatchRules.objects.create(match=match, away_rule=MatchRules.AwayRule.STRETCH,
                              stretch_cap_hours=24 * 7)
    phase = phase_current(match)
    before = phase.deadline_at.astimezone(ROME)
    seat = match.seats.order_by("number").first()
    seat.user.profile.timezone = "Europe/Rome"
    seat.user.profile.save()
    away_declare(user=seat.user, first=date(2027, 3, 21), last=date(2027, 3, 23))
    phase.refresh_from_db()
    after = phase.deadline_at.astimezone(ROME)
    # three away days (from now: 2.5 days of them remain) moved the deadline, and 10:00 Rome
    # before the change is still 10:00 after it even though the clocks moved
    assert after.time() == before.time()
    assert after > before and (after.date() - before.date()).days in (2, 3)
    assert stretch_for_away(phase=phase) == timedelta(0)  # applied once
    assert DirectorAction.objects.filter(match=match, action="away_stretch").count() == 1


def test_away_players_are_not_counted_absent():
    match = make_match(players=2, config={"rounds": 5})
    away_user = match.seats.order_by("number")[1].user
    now = datetime.now(timezone.utc)
    Away.objects.create(user=away_user, starts_at=now - timedelta(days=1),
                        ends_at=now + timedelta(days=3))
    assert away_user.pk in away_until([away_user.pk])
    for _ in range(3):
        phase = phase_current(match)
        order_submit(match=match, seat=match.seats.order_by("number")[0], phase_id=phase.pk,
                     payload={"guess": 5})
        phase_close(phase_id=phase.pk)
    assert not SeatRecord.objects.filter(seat__user=away_user, missed__gt=0).exists()


def _absent_match(players=3):
    match = make_match(players=players, config={"rounds": 8})
    seats = list(match.seats.order_by("number"))
    for _ in range(3):
        phase = phase_current(match)
        for s in seats[:-1]:
            order_submit(match=match, seat=s, phase_id=phase.pk, payload={"guess": 40})
        phase_close(phase_id=phase.pk)
    return match, seats


def test_a_majority_vote_opens_an_absent_seat_and_a_newcomer_takes_it_with_its_view(client):
    match, seats = _absent_match(players=3)
    absent = seats[-1]
    leaver = absent.user
    assert SeatRecord.objects.get(seat=absent).absent_since is not None
    # the absent seat guesses secretly in the open round, then goes quiet again
    phase = phase_current(match)
    order_submit(match=match, seat=absent, phase_id=phase.pk, payload={"guess": 61})
    order_submit(match=match, seat=seats[0], phase_id=phase.pk, payload={"guess": 29})
    with pytest.raises(ApplicationError):
        takeover_claim(seat=absent, user=make_user())  # not open yet
    assert takeover_vote(seat=absent, voter=seats[0]) == (1, 2)
    assert takeover_vote(seat=absent, voter=seats[1]) == (2, 2)
    newcomer = make_user("newcomer")
    takeover_claim(seat=absent, user=newcomer)
    absent.refresh_from_db()
    assert absent.user == newcomer
    left = LeftSeat.objects.get(match=match)
    assert left.user == leaver and left.replaced_by == newcomer
    client.force_login(newcomer)
    page = client.get(f"/m/{match.pk}/")
    assert page.status_code == 200
    from games.lib.pages import resolved

    view = resolved(page.context["view"])  # computed on first use (the fragment cache)
    assert view["my_guess"] == 61  # what the seat knew …
    assert "guesses" not in view  # … and nothing of the others' secret orders
    page = client.get(f"/players/u/{left.user.username}/")
    assert "taken over by newcomer" in page.content.decode()


def test_only_the_director_opens_directly_and_strangers_cannot_vote():
    match, seats = _absent_match(players=3)
    with pytest.raises(ApplicationError):
        takeover_open(seat=seats[-1], actor=seats[0].user)
    stranger_match, stranger_seats = _absent_match(players=2)
    with pytest.raises(ApplicationError):
        takeover_vote(seat=seats[-1], voter=stranger_seats[0])
    with pytest.raises(ApplicationError):  # the absent seat itself has no vote
        takeover_vote(seat=seats[-1], voter=seats[-1])
    director = make_user("boss", staff=True)
    takeover_open(seat=seats[-1], actor=director)
    assert SeatRecord.objects.get(seat=seats[-1]).takeover_open_since is not None


def test_emergency_pause_is_rationed_and_moves_the_deadline(client):
    match = make_match(players=2, schedule={"mode": "duration", "hours": 24})
    phase = phase_current(match)
    seat = match.seats.order_by("number").first()
    before = phase.deadline_at
    emergency_pause(seat=seat)
    phase.refresh_from_db()
    assert phase.deadline_at - before == timedelta(hours=24)
    with pytest.raises(ApplicationError) as exc:
        emergency_pause(seat=seat)
    assert exc.value.code == "PAUSE_USED"
    client.force_login(seat.user)
    resp = client.post(f"/players/m/{match.pk}/pause/")
    assert resp.status_code == 409 and b"used your emergency pause" in resp.content


def test_seats_page_permissions_and_bad_input(client):
    match, seats = _absent_match(players=3)
    assert client.get(f"/players/m/{match.pk}/seats/").status_code == 200
    assert client.get("/players/m/999999/seats/").status_code == 404
    client.force_login(seats[0].user)
    assert client.post(f"/players/m/{match.pk}/seats/junk/vote/").status_code == 404
    assert client.post(f"/players/m/{match.pk}/seats/99999999999999999999/vote/").status_code == 404
    resp = client.post(f"/players/m/{match.pk}/seats/{seats[-1].number}/vote/")
    assert resp.status_code == 302
    resp = client.post(f"/players/m/{match.pk}/seats/{seats[-1].number}/open/")
    assert resp.status_code == 403  # not the director
    resp = client.post(f"/players/m/{match.pk}/rules/", {"rated": "on"})
    assert resp.status_code == 403
    private = make_match(players=2, is_private=True)
    outsider = make_user()
    client.force_login(outsider)
    assert client.get(f"/players/m/{private.pk}/seats/").status_code == 404
    resp = client.post("/players/away/", {"first": "2020-01-01", "last": "2019-01-01"})
    assert resp.status_code == 400
    resp = client.post("/players/away/", {"first": "junk", "last": ""})
    assert resp.status_code == 400
    assert client.post("/players/away/", {"cancel": "nope"}).status_code == 404


def test_no_your_move_email_while_away_and_they_resume_after():
    from django.core import mail
    from django.test import TestCase

    from games import selectors

    match = make_match(players=2, config={"rounds": 5})
    away_user, home_user = [s.user for s in match.seats.order_by("number")]
    now = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)
    Away.objects.create(user=away_user, starts_at=now - timedelta(hours=1),
                        ends_at=now + timedelta(days=2))

    def close_at(when):
        phase = selectors.current_phase(match)
        with time_machine.travel(when, tick=False), \
                TestCase.captureOnCommitCallbacks(execute=True):
            phase_close(phase_id=phase.pk, now=when, force=True)

    mail.outbox.clear()
    close_at(now)
    to = [m.to[0] for m in mail.outbox]
    assert home_user.email in to and away_user.email not in to
    mail.outbox.clear()
    close_at(now + timedelta(days=3))  # back home: the emails resume
    assert away_user.email in [m.to[0] for m in mail.outbox]


def test_others_see_away_until_and_absent_beside_the_names(client):
    match, seats = _absent_match(players=3)
    now = datetime.now(timezone.utc)
    Away.objects.create(user=seats[0].user, starts_at=now - timedelta(hours=1),
                        ends_at=now + timedelta(days=2))
    client.force_login(seats[1].user)
    body = client.get(f"/m/{match.pk}/").content.decode()
    assert f"{seats[0].user.username} is away until" in body
    assert f"{seats[2].user.username} is absent" in body
