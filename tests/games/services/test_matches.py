"""Match lifecycle: create with the engine's config validation, join/leave, start, auto
start at starts_at, pause/resume, end."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from games import selectors
from games.exceptions import ApplicationError
from games.models import DirectorAction, Match, Notification, Snapshot
from games.services.matches import (match_create, match_end, match_join, match_leave,
                                    match_pause, match_resume, match_start, matches_start_due)
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


def test_create_fills_defaults_and_refuses_bad_config_with_its_field():
    match = match_create(game="guess", name="  Friday  ", config={"rounds": 5})
    assert match.config == {"rounds": 5, "timing": "schedule", "crash": False}
    assert match.name == "Friday" and match.status == Match.Status.FORMING
    assert (match.min_players, match.max_players) == (1, 100)
    assert match.schedule["mode"] == "duration"
    with pytest.raises(ApplicationError) as err:
        match_create(game="guess", name="x", config={"rounds": 99})
    assert err.value.field == "config.rounds"
    with pytest.raises(ApplicationError) as err:
        match_create(game="nope", name="x")
    assert err.value.field == "game"
    with pytest.raises(ApplicationError) as err:
        match_create(game="guess", name="x", timezone="Mars/Olympus")
    assert err.value.field == "timezone"
    with pytest.raises(ApplicationError) as err:
        match_create(game="guess", name="x", schedule={"mode": "windows", "windows": {"a": "x"}})
    assert err.value.field == "schedule"
    with pytest.raises(ApplicationError) as err:
        match_create(game="guess", name="x", min_players=5, max_players=3)
    assert err.value.field == "max_players"


def test_join_leave_and_private_invites():
    match = match_create(game="guess", name="private", is_private=True, max_players=2)
    alice, bob, carol = make_user(), make_user(), make_user()
    with pytest.raises(ApplicationError) as err:
        match_join(match=match, user=alice)
    assert err.value.code == "BAD_INVITE"
    match_join(match=match, user=alice, invite_code=match.invite_code)
    with pytest.raises(ApplicationError) as err:
        match_join(match=match, user=alice, invite_code=match.invite_code)
    assert err.value.code == "ALREADY_JOINED"
    match_join(match=match, user=bob, invite_code=match.invite_code)
    with pytest.raises(ApplicationError) as err:
        match_join(match=match, user=carol, invite_code=match.invite_code)
    assert err.value.code == "MATCH_FULL"
    match_leave(match=match, user=bob)
    with pytest.raises(ApplicationError):
        match_leave(match=match, user=bob)
    # private: strangers cannot see it, seated players and staff can
    with pytest.raises(Match.DoesNotExist):
        selectors.match_get_for_user(user=carol, match_id=match.pk)
    assert selectors.match_get_for_user(user=alice, match_id=match.pk) == match
    assert selectors.match_list_open() .filter(pk=match.pk).count() == 0


def test_start_numbers_seats_by_user_id_and_opens_the_first_phase(django_capture_on_commit_callbacks,
                                                                   mailoutbox):
    users = [make_user() for _ in range(3)]
    match = match_create(game="guess", name="m", min_players=2)
    for user in reversed(users):
        match_join(match=match, user=user)
    with time_machine.travel(CURRENT_TIME, tick=False), \
            django_capture_on_commit_callbacks(execute=True):
        match_start(match=match, actor=users[0])
    assert match.status == Match.Status.RUNNING and match.started_at == CURRENT_TIME
    assert [s.user_id for s in match.seats.order_by("number")] == [u.pk for u in users]
    assert Snapshot.objects.filter(match=match, phase__isnull=True).count() == 1
    phase = selectors.current_phase(match)
    assert phase.number == 1 and phase.awaited == [0, 1, 2]
    assert len([m for m in mailoutbox if "has started" in m.subject]) == 3
    assert DirectorAction.objects.filter(match=match, action="start").exists()
    with pytest.raises(ApplicationError):
        match_start(match=match)
    with pytest.raises(ApplicationError):
        match_join(match=match, user=make_user())


def test_start_refuses_too_few_players():
    match = match_create(game="guess", name="m", min_players=3)
    match_join(match=match, user=make_user())
    with pytest.raises(ApplicationError) as err:
        match_start(match=match)
    assert err.value.code == "NOT_ENOUGH_PLAYERS"
    assert Match.objects.get(pk=match.pk).status == Match.Status.FORMING


def test_auto_start_at_starts_at_or_tell_the_director_once(director):
    ready = match_create(game="guess", name="ready", min_players=1, starts_at=CURRENT_TIME)
    match_join(match=ready, user=make_user())
    empty = match_create(game="guess", name="empty", min_players=2, starts_at=CURRENT_TIME,
                         created_by=make_user())
    later = match_create(game="guess", name="later", min_players=1,
                         starts_at=CURRENT_TIME + timedelta(hours=1))
    match_join(match=later, user=make_user())
    with time_machine.travel(CURRENT_TIME, tick=False):
        assert matches_start_due() == {"started": 1, "waiting": 1}
        assert matches_start_due() == {"started": 0, "waiting": 0}
    assert Match.objects.get(pk=ready.pk).status == Match.Status.RUNNING
    assert Match.objects.get(pk=empty.pk).status == Match.Status.FORMING
    assert Match.objects.get(pk=later.pk).status == Match.Status.FORMING
    alerts = Notification.objects.filter(match=empty)
    assert set(alerts.values_list("kind", flat=True)) == {"director", "start_overdue"}


def test_pause_resume_and_end(director):
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        match = make_match(players=2)
        phase = selectors.current_phase(match)
        match_pause(match=match, actor=director)
        traveller.shift(timedelta(hours=5))
        match_resume(match=match, actor=director)
        phase.refresh_from_db()
        assert phase.deadline_at == CURRENT_TIME + timedelta(hours=29)
        with pytest.raises(ApplicationError):
            match_resume(match=match, actor=director)
        match_end(match=match, actor=director, reason="cheating")
        assert match.status == Match.Status.FINISHED
        assert "cheating" in match.outcome["summary"]
        phase.refresh_from_db()
        assert phase.closed_at is not None
        assert list(DirectorAction.objects.filter(match=match).values_list("action", flat=True)
                    .order_by("id")) == ["pause", "resume", "end"]
        with pytest.raises(ApplicationError):
            match_end(match=match, actor=director, reason="again")
