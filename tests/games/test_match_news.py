"""Match news (games/services/news.py): pause, resume, extension, takeover, a seat opening,
a cancelled match and a death each reach the people concerned through the outbox,
respecting their mode and away period, coalesced where they coincide."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine
from django.core import mail
from django.test import TestCase

from games.models import Notification
from games.services import news
from games.services.matches import match_end, match_pause, match_resume
from games.services.phases import phase_extend
from games.services.seats import seat_replace
from games import selectors
from players.away import away_declare
from players.takeover import takeover_open
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
#: the evening of the autumn DST change in Rome: deadlines cross midnight and the change
CURRENT_TIME = datetime(2026, 10, 24, 22, 30, tzinfo=timezone.utc)


def _inbox(user) -> list[str]:
    return [f"{m.subject}\n{m.body}" for m in mail.outbox if user.email in m.to]


@time_machine.travel(CURRENT_TIME, tick=False)
def test_pause_resume_and_extension_reach_every_seat(director):
    users = [make_user(timezone="Europe/Rome"), make_user(timezone="Asia/Tokyo")]
    match = make_match(users=users, schedule={"mode": "duration", "hours": 24})
    with TestCase.captureOnCommitCallbacks(execute=True):
        match_pause(match=match, actor=director)
    with TestCase.captureOnCommitCallbacks(execute=True):
        match_resume(match=match, actor=director, now=CURRENT_TIME + timedelta(hours=2))
    phase = selectors.current_phase(match)
    with TestCase.captureOnCommitCallbacks(execute=True):
        phase_extend(phase=phase, hours=3, actor=director)
    for user in users:
        box = "\n".join(_inbox(user))
        assert "paused the match" in box and "resumed the match" in box
        assert "extended the" in box and "new deadline" in box.lower()
    # the new deadline in each reader's zone: 24 h + 2 h paused + 3 h after 22:30 UTC
    deadline = CURRENT_TIME + timedelta(hours=29)
    assert deadline.strftime("%H:%M") == "03:30"
    rome = "\n".join(_inbox(users[0]))
    assert "2026-10-26 04:30 CET" in rome  # after the clocks went back
    assert "2026-10-26 12:30 JST" in "\n".join(_inbox(users[1]))


@time_machine.travel(CURRENT_TIME, tick=False)
def test_news_coalesce_into_the_row_still_waiting(director):
    users = [make_user(), make_user()]
    match = make_match(users=users)
    match_pause(match=match, actor=director)  # not committed: nothing sent yet
    match_resume(match=match, actor=director)
    rows = Notification.objects.filter(match=match, kind="match_news", recipient=users[0])
    assert rows.count() == 1
    assert [e["event"] for e in rows.get().payload["events"]] == ["paused", "resumed"]


@time_machine.travel(CURRENT_TIME, tick=False)
def test_table_news_respects_the_mode_and_the_away_period(director):
    off = make_user(email_mode="off")
    digest = make_user(email_mode="digest")
    away = make_user()
    here = make_user()
    match = make_match(users=[off, digest, away, here])
    away_declare(user=away, first=date(2026, 10, 24), last=date(2026, 10, 26))
    with TestCase.captureOnCommitCallbacks(execute=True):
        match_pause(match=match, actor=director)
    assert _inbox(here) and not _inbox(off) and not _inbox(digest) and not _inbox(away)


@time_machine.travel(CURRENT_TIME, tick=False)
def test_a_takeover_tells_the_old_holder_the_new_one_and_the_table(director):
    old, other = make_user(), make_user()
    newcomer = make_user()
    match = make_match(users=[old, other])
    seat = match.seats.get(user=old)
    with TestCase.captureOnCommitCallbacks(execute=True):
        takeover_open(seat=seat, actor=director)
    assert any("open for a new player" in m for m in _inbox(other))
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        seat_replace(seat=seat, user=newcomer, actor=director)
    assert any("took over your seat" in m for m in _inbox(old))
    assert any(f"You took over the seat of {old.username}" in m for m in _inbox(newcomer))
    assert any(f"{newcomer.username} took over the seat of {old.username}" in m for m in _inbox(other))


@time_machine.travel(CURRENT_TIME, tick=False)
def test_a_cancelled_forming_match_tells_who_joined(director):
    a, b = make_user(), make_user()
    match = make_match(users=[a, b], start=False)
    with TestCase.captureOnCommitCallbacks(execute=True):
        match_end(match=match, actor=director, reason="not enough interest")
    assert any("cancelled the match" in m and "not enough interest" in m for m in _inbox(a))


def test_out_of_play_reads_alive_flags():
    state = {"players": [{"seat": 0, "alive": True}, {"seat": 1, "alive": False}]}
    assert news.out_of_play_alive_flags(state) == {1}
    assert news.out_of_play_alive_flags({"seats": [{"seat": 2, "alive": False}]}) == {2}
