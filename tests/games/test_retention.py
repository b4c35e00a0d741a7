"""Retention: sent and failed email, expired sessions and old login records are pruned
after their periods; unsent or held email, match records, diaries and ratings stay."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessLog
from django.contrib.sessions.models import Session
from django.utils.timezone import now as timezone_now

from games.models import DiaryEntry, Match, Notification
from games.services.retention import retention_prune
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def test_prunes_what_outlived_its_period_and_keeps_the_records(settings):
    settings.RETENTION_OUTBOX_DAYS = 30
    settings.RETENTION_THROTTLE_DAYS = 30
    now = timezone_now()
    match = make_match(players=2)
    user = make_user()
    old_sent = Notification.objects.create(recipient=user, kind="director",
                                           sent_at=now - timedelta(days=31))
    old_failed = Notification.objects.create(recipient=user, kind="director",
                                             failed_at=now - timedelta(days=40))
    recent = Notification.objects.create(recipient=user, kind="director",
                                         sent_at=now - timedelta(days=2))
    unsent = Notification.objects.create(recipient=user, kind="director")
    Notification.objects.filter(pk=unsent.pk).update(created_at=now - timedelta(days=90))
    Session.objects.create(session_key="a" * 32, session_data="x",
                           expire_date=now - timedelta(minutes=1))
    Session.objects.create(session_key="b" * 32, session_data="x",
                           expire_date=now + timedelta(days=1))
    log = AccessLog.objects.create(username="x", ip_address="10.0.0.1", user_agent="t")
    AccessLog.objects.filter(pk=log.pk).update(attempt_time=now - timedelta(days=31))
    diary = DiaryEntry.objects.filter(match=match).count()

    out = retention_prune(now=now)

    assert out == {"outbox": 2, "sessions": 1, "throttle": 1}
    assert set(Notification.objects.values_list("pk", flat=True)) >= {recent.pk, unsent.pk}
    assert not Notification.objects.filter(pk__in=[old_sent.pk, old_failed.pk]).exists()
    assert list(Session.objects.values_list("session_key", flat=True)) == ["b" * 32]
    assert Match.objects.filter(pk=match.pk).exists()
    assert DiaryEntry.objects.filter(match=match).count() == diary
    assert retention_prune(now=now) == {"outbox": 0, "sessions": 0, "throttle": 0}


def test_zero_keeps(settings):
    settings.RETENTION_OUTBOX_DAYS = 0
    user = make_user()
    Notification.objects.create(recipient=user, kind="director",
                                sent_at=timezone_now() - timedelta(days=400))
    assert retention_prune()["outbox"] == 0
