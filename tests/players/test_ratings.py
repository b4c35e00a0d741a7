"""Ratings are updated once, in the close's transaction, when a match ends; seat records
count awaited and missed phases; profiles and leaderboards show them."""

import pytest

from games.models import Match, Order
from games.services.orders import order_submit
from games.services.phases import phase_close, phase_current
from players.models import MatchRules, Rating, RatingChange, SeatRecord
from players.ratings import match_rate
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def _finish_one_round(match, guesses):
    phase = phase_current(match)
    seats = list(match.seats.order_by("number"))
    for seat, guess in zip(seats, guesses):
        if guess is not None:
            order_submit(match=match, seat=seat, phase_id=phase.pk, payload={"guess": guess})
    phase_close(phase_id=phase.pk)
    match.refresh_from_db()
    return match


def test_a_finished_match_rates_every_player_once():
    match = make_match(players=3, config={"rounds": 1})
    _finish_one_round(match, [50, 1, 100])
    assert match.status == Match.Status.FINISHED
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert len(changes) == 3
    winners = set(match.outcome["winners"])
    for seat in match.seats.all():
        change = changes[seat.user_id]
        if seat.number in winners and len(winners) < 3:
            assert change.rating_after > change.rating_before
        rating = Rating.objects.get(user=seat.user, game="guess", mode="standard")
        assert rating.games == 1 and rating.rating == pytest.approx(change.rating_after)
        assert rating.is_provisional
    assert match_rate(match) == []  # a second call changes nothing
    assert RatingChange.objects.filter(match=match).count() == 3


def test_an_unrated_match_changes_no_rating():
    match = make_match(players=2, config={"rounds": 1})
    MatchRules.objects.create(match=match, rated=False)
    _finish_one_round(match, [10, 90])
    assert match.status == Match.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_seat_records_count_missed_phases_and_mark_absence():
    match = make_match(players=2, config={"rounds": 5})
    for _ in range(3):
        _finish_one_round(match, [50, None])
    present, missing = match.seats.order_by("number")
    rec_p = SeatRecord.objects.get(seat=present)
    rec_m = SeatRecord.objects.get(seat=missing)
    assert (rec_p.awaited, rec_p.missed, rec_p.absent_since) == (3, 0, None)
    assert (rec_m.awaited, rec_m.missed, rec_m.missed_in_row) == (3, 3, 3)
    assert rec_m.absent_since is not None
    assert rec_m.reliability == 0 and rec_p.reliability == 1
    _finish_one_round(match, [50, 40])  # back: the run and the mark are cleared
    rec_m.refresh_from_db()
    assert rec_m.missed_in_row == 0 and rec_m.absent_since is None


def test_profile_and_leaderboard_pages(client):
    match = make_match(players=2, config={"rounds": 1})
    _finish_one_round(match, [10, 90])
    seat = match.seats.order_by("number").first()
    page = client.get(f"/players/u/{seat.user.username}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert match.name in body and "Reliability 100%" in body
    board = client.get("/players/leaderboard/guess/")
    assert board.status_code == 200 and seat.user.username in board.content.decode()
    assert client.get("/players/leaderboard/nope/").status_code == 404
    assert client.get("/players/u/nobody-here/").status_code == 404
    make_user("quiet")
    assert "No matches yet" in client.get("/players/u/quiet/").content.decode()
