"""Celery tasks (eager in tests): the outbox claim, retries and final failure, a failed email
never undoing a close, pending re-sends, digests, and the beat's sweep task."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.core.mail.backends.base import BaseEmailBackend

from games import selectors, tasks
from games.models import Match, Notification, Phase
from games.services.notifications import notification_send
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
        # the first attempt failed and asked Celery for a retry: the row is unclaimed again
        assert row.sent_at is None and row.failed_at is None and row.attempts >= 1
        attempts = row.attempts
        assert "smtp is down" in row.error
        # ... until the last allowed retry fails too: then it is marked failed for good
        result = tasks.notification_send.apply(args=[row.pk],
                                               retries=settings.EMAIL_MAX_RETRIES)
        assert result.get() is False
        row.refresh_from_db()
        assert row.failed_at is not None and row.sent_at is None
        assert row.attempts == attempts + 1
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
