"""The director's deadline edits are bounded: at most 48 h per extend, and a double-submitted
extend (same token) applies once. Seat replacement."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from games import selectors
from games.exceptions import ApplicationError
from games.models import DirectorAction, Phase
from games.services.phases import phase_extend
from games.services.seats import seat_replace
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


def test_extend_is_bounded_and_a_double_submit_applies_once(director):
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(players=1)
        phase = selectors.current_phase(match)
        start = phase.deadline_at
        for bad in (0, -1, 48.5, 1000, "x"):
            with pytest.raises(ApplicationError) as err:
                phase_extend(phase=phase, hours=bad, actor=director, token=f"t{bad}")
            assert err.value.field == "hours"
        assert phase_extend(phase=phase, hours=48, actor=director, token="form-1") is True
        assert phase_extend(phase=phase, hours=48, actor=director, token="form-1") is False
        assert Phase.objects.get(pk=phase.pk).deadline_at == start + timedelta(hours=48)
        assert phase_extend(phase=phase, hours=2, actor=director, token="form-2") is True
        assert Phase.objects.get(pk=phase.pk).deadline_at == start + timedelta(hours=50)
        assert DirectorAction.objects.filter(action="extend").count() == 2


def test_extend_a_phase_without_deadline_or_closed_is_refused(director):
    match = make_match(players=1, config={"timing": "none"})
    phase = selectors.current_phase(match)
    assert phase.deadline_at is None
    with pytest.raises(ApplicationError) as err:
        phase_extend(phase=phase, hours=1, actor=director, token="a")
    assert err.value.code == "NO_DEADLINE"


def test_replace_a_player_by_another_user_or_the_bot(director):
    match = make_match(players=2)
    seat = match.seats.get(number=1)
    newcomer = make_user()
    seat_replace(seat=seat, user=newcomer, actor=director)
    assert selectors.seat_for_user(match, newcomer).number == 1
    with pytest.raises(ApplicationError):
        seat_replace(seat=match.seats.get(number=0), user=newcomer, actor=director)
    seat_replace(seat=seat, bot=True, actor=director)
    seat.refresh_from_db()
    assert seat.is_bot and seat.user is None
    assert DirectorAction.objects.filter(action="replace_seat").count() == 2


# --- the admin site drives the same services ---------------------------------------------

def test_admin_pages_show_everything_and_actions_are_logged(client, director):
    from games.services.orders import order_submit

    match = make_match(players=2)
    order_submit(match=match, seat=match.seats.get(number=1), payload={"guess": 88})
    client.force_login(director)
    page = client.get(f"/admin/games/match/{match.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "You guessed 88." in html or "guess_saved" in html  # every diary entry
    assert "&quot;guesses&quot;" in html  # the omniscient view
    assert client.get("/admin/games/match/").status_code == 200
    assert client.get("/admin/games/match/add/").status_code == 200

    phase = selectors.current_phase(match)
    url = f"/admin/games/match/{match.pk}/do/extend/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"hours": "100", "token": "x1"}).status_code == 200  # refused
    client.post(url, {"hours": "5", "token": "x1"})
    client.post(url, {"hours": "5", "token": "x1"})  # double submit
    assert Phase.objects.get(pk=phase.pk).deadline_at == phase.deadline_at + timedelta(hours=5)

    client.post(f"/admin/games/match/{match.pk}/do/pause/")
    client.post(f"/admin/games/match/{match.pk}/do/resume/")
    client.post(f"/admin/games/match/{match.pk}/do/close_now/")
    assert Phase.objects.get(pk=phase.pk).closed_at is not None
    seat = match.seats.get(number=1)
    client.post(f"/admin/games/match/{match.pk}/seat/{seat.pk}/replace/", {"bot": "on"})
    client.post(f"/admin/games/match/{match.pk}/seat/{seat.pk}/remove/")
    client.post(f"/admin/games/match/{match.pk}/do/end/", {"reason": "done testing"})
    actions = list(DirectorAction.objects.filter(match=match).order_by("id")
                   .values_list("action", flat=True))
    assert actions == ["extend", "pause", "resume", "close_now", "replace_seat", "remove_seat",
                       "end"]
    assert all(a.actor == director for a in DirectorAction.objects.filter(match=match))


def test_admin_creates_a_match_through_the_engine_validation(client, director):
    from games.models import Match

    client.force_login(director)
    bad = client.post("/admin/games/match/add/", {
        "game": "guess", "name": "Admin made", "config": '{"rounds": 500}', "min_players": 1,
        "max_players": 4, "timezone": "Europe/Rome", "schedule": "{}"})
    assert bad.status_code == 200 and not Match.objects.filter(name="Admin made").exists()
    ok = client.post("/admin/games/match/add/", {
        "game": "guess", "name": "Admin made", "config": '{"rounds": 2}', "min_players": 1,
        "max_players": 4, "timezone": "Europe/Rome", "schedule": "",
        "seats-TOTAL_FORMS": 0, "seats-INITIAL_FORMS": 0,
        "phases-TOTAL_FORMS": 0, "phases-INITIAL_FORMS": 0})
    assert ok.status_code == 302, ok.content.decode()[:2000]
    match = Match.objects.get(name="Admin made")
    assert match.config == {"rounds": 2, "timing": "schedule", "crash": False}
    assert match.created_by == director
    # anonymous and non-staff users get the login page, not the director's view
    client.logout()
    assert client.get(f"/admin/games/match/{match.pk}/change/").status_code == 302


def test_director_pages_show_times_in_the_directors_zone(client, settings):
    from tests.factories import make_user

    settings.OTP_REQUIRED_FOR_STAFF = False
    tokyo = make_user("tokyo_director", staff=True, timezone="Asia/Tokyo")
    match = make_match(players=2, timezone="Europe/Rome")
    client.force_login(tokyo)
    page = client.get(f"/admin/games/match/{match.pk}/do/extend/").content.decode()
    assert " JST" in page and " CET" not in page and " CEST" not in page
    listing = client.get("/admin/games/match/").content.decode()
    assert " JST" in listing
