"""What a batch of closes costs the database (docs/operations.md "The deadline storm"): a
fixed handful of statements per sweep batch, whatever its size — no query per close, per
seat or per reader (the outbox rows, the channels' targets, the seats' records) — and the
instances the close builds without the ORM's constructor equal the ORM's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils.timezone import now as timezone_now

from accounts.models import Profile
from games import tasks
from games.models import Match, Notification, Phase, Seat, Snapshot
from games.services import phases
from players.models import SeatRecord
from reach.models import Webhook
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db

#: statements of one batch of closes (locks and reads, the writes, the players app's
#: count, the channels' targets): the same for 2 matches as for 6
BATCH_QUERIES_MAX = 22  # with the savepoint and its release


def _matches(count: int) -> list[Match]:
    out = []
    for _ in range(count):
        users = [make_user(email_mode=Profile.EmailMode.PER_PHASE) for _ in range(3)]
        match = make_match(players=3, users=users)
        Webhook.objects.create(user=users[0], url="https://hooks.example.com/x")
        Webhook.objects.create(user=users[1], match=match, url="https://hooks.example.com/m")
        out.append(match)
    return out


def _close_batch(matches: list[Match]) -> int:
    ids = list(Phase.objects.filter(match__in=matches, closed_at__isnull=True)
               .values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as captured:
        closed, failed = phases._close_many(phase_ids=ids, now=timezone_now(),
                                            skip_locked=True, require_ready=False, force=True)
    assert len(closed) == len(matches) and not failed
    return len(captured.captured_queries)


def test_a_batch_of_closes_costs_the_same_statements_whatever_its_size():
    small, large = _matches(2), _matches(6)
    assert _close_batch(small) == _close_batch(large) <= BATCH_QUERIES_MAX


def test_the_batch_writes_every_row_once():
    matches = _matches(3)
    before = Notification.objects.count()
    _close_batch(matches)
    for match in matches:
        match.refresh_from_db()
        closed = Phase.objects.get(match=match, number=1)
        assert closed.closed_at is not None
        # the snapshot is the match's new state, copied in the database
        assert Snapshot.objects.get(phase=closed).state == match.state
        assert SeatRecord.objects.filter(seat__match=match).count() == 3
    rows = Notification.objects.filter(pk__gt=0).order_by("pk")[before:]
    emails = [r for r in rows if r.channel == "email"]
    hooks = [r for r in rows if r.channel == "webhook"]
    assert len(emails) == 9  # three readers a match, each wants every phase
    # the reader's own webhook, and the match's own
    assert len(hooks) == 6 and {r.kind for r in hooks} >= {"group_phase"}
    assert all(r.created_at and r.next_attempt_at and r.attempts == 0 for r in rows)


def test_seats_with_readers_equal_the_orms():
    matches = _matches(2)
    ids = [m.pk for m in matches]
    built = phases.seats_with_readers(ids)
    orm = list(Seat.objects.filter(match_id__in=ids).select_related("user__profile")
               .order_by("match_id", "number", "joined_at"))
    assert built == orm
    with CaptureQueriesContext(connection) as captured:
        for mine, theirs in zip(built, orm):
            for model_a, model_b in ((mine, theirs), (mine.user, theirs.user),
                                     (mine.user.profile, theirs.user.profile)):
                for f in type(model_a)._meta.concrete_fields:
                    assert getattr(model_a, f.attname) == getattr(model_b, f.attname)
            assert mine.user.profile.user is mine.user
    assert captured.captured_queries == []  # nothing left to load


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BEAT_SWEEP_SECONDS=5)
def test_a_deadline_before_the_next_beat_gets_a_sweep_of_its_own(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.phases_close_due, "apply_async",
                        lambda **kwargs: sent.append(kwargs))
    match = _matches(1)[0]
    at = timezone_now() + timedelta(seconds=3)
    Phase.objects.filter(match=match).update(deadline_at=at)
    tasks._sweep_at_next_deadline()
    tasks._sweep_at_next_deadline()  # a second sweep sees the same deadline: no second one
    assert len(sent) == 1 and sent[0]["eta"] == at + tasks.SWEEP_AT_MARGIN
    # a deadline after the next beat is the beat's
    Phase.objects.filter(match=match).update(deadline_at=at + timedelta(minutes=1))
    tasks._sweep_at_next_deadline()
    assert len(sent) == 1


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, SWEEP_HELPERS=2)
def test_a_storm_asks_the_other_clock_processes_once(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.phases_close_due, "apply_async",
                        lambda **kwargs: sent.append(kwargs))
    asked = []
    # more due than one batch: on_backlog is called once, before the first batch
    monkeypatch.setattr(phases, "CLOSE_BATCH", 2)
    matches = _matches(5)
    Phase.objects.filter(match__in=matches).update(deadline_at=timezone_now())
    assert phases.phases_close_due(on_backlog=lambda: asked.append(1)) == 5
    assert asked == [1]
    from django.core.cache import cache

    cache.delete(tasks.HELPERS_MARK)
    tasks._ask_helpers()
    tasks._ask_helpers()  # the storm's next sweep: the helpers are at work already
    assert [s["kwargs"] for s in sent] == [{"helper": True}] * 2


def test_new_row_equals_the_models_constructor():
    from games.models import Notification
    from games.services.notifications import new_row

    match = _matches(1)[0]
    user, phase = match.seats.first().user, Phase.objects.get(match=match)
    for kwargs in ({"match": match, "phase": phase, "payload": {"seat": 1}}, {}):
        mine = new_row(recipient=user, kind="new_phase", **kwargs)
        theirs = Notification(recipient=user, kind="new_phase", **kwargs)
        for f in Notification._meta.concrete_fields:
            if f.attname != "next_attempt_at":
                assert getattr(mine, f.attname) == getattr(theirs, f.attname), f.attname
        assert mine.next_attempt_at is not None and mine._state.adding
        assert mine.recipient is user and mine.match == theirs.match
    assert new_row(recipient=user, kind="x").payload is not new_row(recipient=user,
                                                                    kind="x").payload


def test_the_state_is_written_with_lz4_where_the_server_has_it():
    """Migration 0010: the match's state (9 KB for Kill Game, rewritten by every close)
    and the snapshot copied from it are compressed with lz4, not pglz."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        if "lz4" not in (cursor.fetchone()[0] or []):
            pytest.skip("this PostgreSQL has no lz4")
        cursor.execute("SELECT attcompression FROM pg_attribute WHERE attname = 'state' "
                       "AND attrelid IN ('games_match'::regclass, 'games_snapshot'::regclass)")
        assert [c for (c,) in cursor.fetchall()] == ["l", "l"]
    match = _matches(1)[0]
    Match.objects.filter(pk=match.pk).update(state={"big": ["x" * 40] * 200})  # compressible
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_column_compression(state) FROM games_match WHERE id = %s",
                       [match.pk])
        assert cursor.fetchone()[0] == "lz4"
