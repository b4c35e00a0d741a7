"""Celery tasks (eager in tests): the outbox claim, retries and final failure, a failed email
never undoing a close, pending re-sends, digests, and the beat's sweep task."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.core.mail.backends.base import BaseEmailBackend

from games import selectors, tasks
from games.models import Match, Notification, Phase
from games.services.outbox import notification_send
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)
FAILING = "tests.games.test_tasks.FailingBackend"


class FailingBackend(BaseEmailBackend):
    """An email backend that always fails."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError("smtp is down")


def test_notification_send_claims_its_row_once(mailoutbox):
    match = make_match(players=1)
    row = Notification.objects.get(kind="match_started")
    assert notification_send(notification_id=row.pk) is True
    assert notification_send(notification_id=row.pk) is False  # a redelivered task
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1
    assert len(mailoutbox) == 1 and mailoutbox[0].to == [match.seats.get().user.email]


def test_a_failing_email_is_retried_then_marked_failed_and_never_undoes_the_close(
        settings, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = FAILING
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(players=2)
        phase = selectors.current_phase(match)
        with django_capture_on_commit_callbacks(execute=True):
            tasks.phase_close.delay(phase.pk)  # not ready: nothing happens
            assert Phase.objects.get(pk=phase.pk).closed_at is None
            from games.services.phases import phase_close
            assert phase_close(phase_id=phase.pk) is True
    phase.refresh_from_db()
    assert phase.closed_at is not None
    rows = Notification.objects.filter(kind="new_phase")
    assert rows.count() == 2
    for row in rows:
        # the first attempt failed: the row is released with a later retry time
        assert row.sent_at is None and row.failed_at is None and row.attempts == 1
        assert row.claimed_until is None and row.next_attempt_at > CURRENT_TIME
        assert "smtp is down" in row.error
    # ... retried by the sweep until 24 hours have passed: then failed for good
    with time_machine.travel(CURRENT_TIME + timedelta(hours=settings.EMAIL_RETRY_HOURS,
                                                      minutes=1), tick=False):
        assert tasks.notifications_send_pending.delay().get() == 0
    for row in rows.all():
        assert row.failed_at is not None and row.sent_at is None and row.attempts == 2
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_pending_rows_are_sent_by_the_retry_sweep(mailoutbox):
    user = make_user()
    with time_machine.travel(CURRENT_TIME, tick=False):
        row = Notification.objects.create(recipient=user, kind="director",
                                          payload={"subject": "s", "message": "m"})
    user.is_staff = True
    user.save()
    with time_machine.travel(CURRENT_TIME + timedelta(minutes=5), tick=False):
        assert tasks.notifications_send_pending.delay().get() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and len(mailoutbox) == 1


def test_unwanted_rows_are_skipped_at_send_time(mailoutbox):
    make_match(players=1)
    row = Notification.objects.get(kind="match_started")
    profile = row.recipient.profile
    profile.email_match_events = False
    profile.save()
    assert notification_send(notification_id=row.pk) is False
    row.refresh_from_db()
    assert row.error == "skipped: preferences" and mailoutbox == []


def test_the_beat_sweep_task_closes_due_phases():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        match = make_match(players=1)
        traveller.move_to(CURRENT_TIME + timedelta(hours=25))
        assert tasks.phases_close_due.delay().get() == 1
    assert selectors.current_phase(match).number == 2


def test_matches_start_due_task():
    match = make_match(players=1, start=False, starts_at=CURRENT_TIME)
    with time_machine.travel(CURRENT_TIME, tick=False):
        assert tasks.matches_start_due.delay().get() == {"started": 1, "waiting": 0}
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


def test_daily_digest_at_seven_local_time(mailoutbox, django_capture_on_commit_callbacks):
    reader = make_user(email_mode="digest", timezone="Europe/Rome")
    other = make_user()
    with time_machine.travel(CURRENT_TIME, tick=False):
        match = make_match(users=[reader, other])
        from games.services.orders import order_submit
        from games.services.phases import phase_close
        order_submit(match=match, seat=match.seats.get(user=other), payload={"guess": 77})
        phase_close(phase_id=selectors.current_phase(match).pk)
    # 07:00 in Rome is 05:00 UTC in summer; at 06:00 UTC nothing goes out
    with time_machine.travel(datetime(2026, 7, 2, 6, 0, tzinfo=timezone.utc), tick=False):
        assert tasks.digests_send.delay().get() == 0
    with time_machine.travel(datetime(2026, 7, 2, 5, 0, tzinfo=timezone.utc), tick=False), \
            django_capture_on_commit_callbacks(execute=True):
        assert tasks.digests_send.delay().get() == 1
        assert tasks.digests_send.delay().get() == 0  # once a day
    digest = [m for m in mailoutbox if "digest" in m.subject]
    assert len(digest) == 1 and digest[0].to == [reader.email]
    assert "Round 1: the number was" in digest[0].body
    assert "77" not in digest[0].body.split("Round 1")[0]  # another seat's guess stays hidden


def test_your_turn_when_the_next_phase_awaits_only_some_seats():
    from games.models import Phase
    from games.services.notifications import new_phase_rows

    match = make_match(players=3)
    closed = selectors.current_phase(match)
    opened = Phase(match=match, number=2, kind="ask:dodge", seed="x", opens_at=CURRENT_TIME,
                   deadline_at=CURRENT_TIME + timedelta(hours=1), awaited=[1])
    opened.pk = closed.pk  # any saved phase will do for the payload
    rows = new_phase_rows(match=match, closed=closed, opened=opened, from_seq=1, to_seq=0)
    kinds = {row.payload["seat"]: row.kind for row in rows}
    assert kinds == {1: "your_turn"}  # the default: only when it is my move
    from accounts.models import Profile
    Profile.objects.filter(user__seats__match=match).update(email_mode="per_phase")
    match = Match.objects.get(pk=match.pk)
    rows = new_phase_rows(match=match, closed=closed, opened=opened, from_seq=1, to_seq=0)
    kinds = {row.payload["seat"]: row.kind for row in rows}
    assert kinds == {0: "new_phase", 1: "your_turn", 2: "new_phase"}  # "every phase"
    opened.deadline_at = None  # solo steps: no email per step
    assert new_phase_rows(match=match, closed=closed, opened=opened, from_seq=1, to_seq=0) == []


def test_the_embedded_run_command_seeds_a_director_and_a_demo_match(capsys):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("run", "--no-serve")
    out = capsys.readouterr().out
    assert "username 'admin', password 'admin'" in out
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("admin")
    demo = Match.objects.get(game="guess")
    assert demo.status == Match.Status.RUNNING and demo.seats.count() >= 1
    assert selectors.current_phase(demo) is not None
    before = Match.objects.count()
    call_command("run", "--no-serve")  # a second start seeds nothing more
    assert Match.objects.count() == before
    assert Match.objects.filter(game="guess").count() == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
def test_bench_deadlines_closes_everything_once_with_real_workers(capsys):
    """The benchmark itself, small: real beat + 2 Celery workers on PostgreSQL + Redis."""
    import json

    from django.core.management import call_command

    import os

    import psycopg

    # Its own bench database and Redis db, so a second test run on this machine (or a
    # developer's bench) cannot drop the database or steal the queue under it.
    name = f"pbw_{os.getpid()}_bench"
    try:
        call_command("bench_deadlines", "--matches", "20", "--json", "--timeout", "90",
                     "--drain-timeout", "60",
                     "--database-url", f"postgres://postgres@127.0.0.1:5432/{name}",
                     "--redis-url", f"redis://127.0.0.1:6379/{1 + os.getpid() % 14}")
    finally:
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                             autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["matches"] == result["closed"] == 20
    assert result["closed_twice"] == 0
    assert result["emails_queued"] == 60 == result["emails_sent"]
    assert result["seconds"] is not None and result["seconds"] > 0
