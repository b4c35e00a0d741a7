"""A finished Kill Game match (bots playing every seat to the end through the real close)
updates every player's rating and profile."""

import pytest

from games.models import Match
from games.services.phases import phase_close, phase_current
from players.models import Rating, RatingChange
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def test_a_finished_kill_game_rates_every_player_and_shows_on_profiles(client):
    match = make_match(game="killgame", players=4, bots_enabled=True)
    for _ in range(400):
        phase = phase_current(match)
        if phase is None:
            break
        phase_close(phase_id=phase.pk)
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    seats = list(match.seats.select_related("user"))
    changes = RatingChange.objects.filter(match=match)
    assert changes.count() == 4
    assert {c.mode for c in changes} == {"ffa"}
    winners = set(match.outcome["winners"])
    for seat in seats:
        rating = Rating.objects.get(user=seat.user, game="killgame", mode="ffa")
        assert rating.games == 1 and rating.rd < 350
        if seat.number in winners:
            assert rating.rating > 1500
        body = client.get(f"/players/u/{seat.user.username}/").content.decode()
        assert match.name in body and f"{rating.rating:.0f}" in body
