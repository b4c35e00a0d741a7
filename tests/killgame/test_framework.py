"""Kill Game through the framework (DB-backed): the registered engine plays a whole match
with orders submitted through the services, phases closed by ``phase_close``, diaries and
views from the selectors."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import time_machine

from games import selectors
from games.models import Match
from games.registry import get_rules
from games.services.orders import order_submit
from games.services.phases import phase_close
from tests.factories import make_match

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


def test_killgame_is_registered():
    engine = get_rules("killgame")
    assert engine.NAME == "Kill Game"


def test_a_killgame_match_runs_to_the_end_with_bots():
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(game="killgame", players=4, min_players=2,
                           config={"min_players": 2, "monster_count": 1, "max_turns": 6},
                           bots_enabled=True)
        seats = list(match.seats.order_by("number"))
        order_submit(match=match, seat=seats[0], payload={"type": "start_zone",
                                                          "zone": "campi"})
        for _ in range(30):
            phase = selectors.current_phase(match)
            if phase is None:
                break
            phase_close(phase_id=phase.pk, force=True)
            match.refresh_from_db()
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert match.outcome["winners"]
        diary = selectors.diary_for_seat(match, seats[0].number)
        assert diary
        view = selectors.player_view_for(match, seats[1])
        assert view["over"] is True
