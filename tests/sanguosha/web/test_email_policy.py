"""A Three Kingdoms Kill game played through the services (every ask closed 30 s after
it opened, as by quick players, with the stated defaults) and the emails it sends: a player hears about an ask
only when that ask awaits them, and at most once per quiet period per match (issue #12)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.test import TestCase

from games import tasks
from games.models import Notification, Seat
from games.services.phases import phase_close
from tests.sanguosha.web.conftest import new_table, open_phase

pytestmark = pytest.mark.django_db


def test_a_played_game_emails_only_the_awaited_and_coalesces():
    match = new_table(4, seed="mail-policy")
    Notification.objects.all().delete()
    mail.outbox.clear()
    numbers = {s.user.email: s.number for s in Seat.objects.filter(match=match)
               .select_related("user")}
    asks = Counter()  # phases that awaited each seat
    sent_at: dict[str, list] = {email: [] for email in numbers}
    steps = 0
    now = open_phase(match).opens_at
    while steps < 60:
        phase = open_phase(match)
        if phase is None:
            break
        now += timedelta(seconds=30)
        with time_machine.travel(now, tick=False), \
                TestCase.captureOnCommitCallbacks(execute=True):
            before = len(mail.outbox)
            phase_close(phase_id=phase.pk, now=now, force=True)
            tasks.notifications_send_pending.delay().get()  # held emails whose time came
        current = open_phase(match)
        awaited = set(current.awaited) if current is not None else set()
        for seat in awaited:
            asks[seat] += 1
        for message in mail.outbox[before:]:
            if "your move" not in message.subject.lower() and "new phase" not in \
                    message.subject.lower():
                continue  # the end of the match
            (to,) = message.to
            # nothing awaited this player: no "your move" email
            assert numbers[to] in awaited, (message.subject, to, awaited)
            sent_at[to].append(now)
        steps += 1
    assert steps >= 20
    quiet = timedelta(minutes=settings.EMAIL_QUIET_MINUTES)
    for to, times in sent_at.items():
        # at most one per quiet period and match
        assert all(b - a >= quiet for a, b in zip(times, times[1:])), (to, times)
        assert len(times) <= asks[numbers[to]]
    # far fewer emails than asks (the issue: ~73 per player in 20 minutes)
    total = sum(len(t) for t in sent_at.values())
    assert 0 < total and total * 3 < sum(asks.values()), (total, asks)
