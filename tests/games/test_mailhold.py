"""After a restore: email queued before the outage is held (no sender takes it) until the
director releases it (sent) or drops it (closed unsent, not shown as a failure)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils.timezone import now as timezone_now

from games.models import DirectorAction, Notification
from games.services.mailhold import mail_drop, mail_hold, mail_release
from games.services.outbox import notifications_drain, notifications_pending
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _row(user, minutes_ago: int) -> Notification:
    row = Notification.objects.create(recipient=user, kind=Notification.Kind.DIRECTOR,
                                      payload={"subject": "s", "message": "m"})
    Notification.objects.filter(pk=row.pk).update(
        created_at=timezone_now() - timedelta(minutes=minutes_ago))
    return row


def test_hold_then_release_and_drop(django_capture_on_commit_callbacks):
    user = make_user(staff=True)
    old1, old2, new = _row(user, 60), _row(user, 50), _row(user, 1)
    mail.outbox.clear()
    held = mail_hold(before=timezone_now() - timedelta(minutes=30))
    assert held == 2
    assert set(notifications_pending()) == {new.pk}  # no sender sees the held rows
    notifications_drain()
    assert len(mail.outbox) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert mail_release(ids=[old1.pk]) == 1
    assert len(mail.outbox) == 2
    old1.refresh_from_db()
    assert old1.sent_at is not None and old1.held_at is None
    assert mail_drop() == 1
    old2.refresh_from_db()
    assert old2.sent_at is not None and old2.error.startswith("skipped")
    assert old2.failed_at is None  # not an undeliverable address on the profile page
    assert len(mail.outbox) == 2
    assert [a.action for a in DirectorAction.objects.order_by("pk")] == [
        "mail_hold", "mail_release", "mail_drop"]


def test_the_command(capsys):
    user = make_user(staff=True)
    row = _row(user, 60)
    call_command("mail_hold", "--before", (timezone_now() - timedelta(minutes=5)).isoformat())
    assert "1 email(s)" in capsys.readouterr().out
    call_command("mail_hold", "--list")
    assert str(row.pk) in capsys.readouterr().out
    call_command("mail_hold", "--drop", "--id", str(row.pk))
    assert "1 email(s) dropped" in capsys.readouterr().out
