"""phase_close: exactly once, defaults for the absent, diary with audiences, the next phase,
the end of the match, failures, retry and quarantine (docs/design.md "Phase lifecycle")."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.conf import settings

from games import selectors
from games.exceptions import ApplicationError
from games.lib.seeds import phase_seed
from games.models import DiaryEntry, Match, Notification, Order, Phase, Snapshot
from games.services.orders import order_submit
from games.services.phases import (PhaseCloseFailed, phase_close, phase_close_now,
                                   phases_close_due)
from games.services.seats import seat_checkin
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)
LATER = CURRENT_TIME + timedelta(days=2)


@pytest.fixture
def traveller():
    with time_machine.travel(CURRENT_TIME, tick=False) as traveller:
        yield traveller


def _seats(match):
    return list(match.seats.order_by("number"))


def test_phase_close_is_idempotent(traveller, django_capture_on_commit_callbacks):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    s0, s1 = _seats(match)
    order_submit(match=match, seat=s0, payload={"guess": 30})
    with django_capture_on_commit_callbacks(execute=True):
        assert phase_close(phase_id=phase.pk) is True
    assert phase_close(phase_id=phase.pk) is False
    assert Snapshot.objects.filter(phase=phase).count() == 1
    assert Phase.objects.filter(match=match).count() == 2
    match.refresh_from_db()
    assert match.state["round"] == 2
    kinds = list(DiaryEntry.objects.filter(phase=phase).values_list("kind", flat=True))
    assert kinds == ["guess_saved", "guess_revealed", "round_over"]


def test_close_uses_the_phase_seed_and_opens_the_next_phase(traveller):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    assert phase.seed == phase_seed(match.seed, 1)
    assert phase.deadline_at == CURRENT_TIME + timedelta(hours=24)
    phase_close(phase_id=phase.pk)
    nxt = selectors.current_phase(match)
    assert (nxt.number, nxt.turn, nxt.seed) == (2, 2, phase_seed(match.seed, 2))
    assert nxt.awaited == [0, 1]
    match.refresh_from_db()
    # the secret of round 1 is the guess engine's draw from exactly that seed
    secret = DiaryEntry.objects.get(phase=phase, kind="round_over").payload["secret"]
    import random
    assert secret == random.Random(f"{phase.seed}|1|secret").randint(1, 100)


def test_diary_audience_hides_other_seats_rows(traveller):
    match = make_match(players=2)
    s0, s1 = _seats(match)
    order_submit(match=match, seat=s0, payload={"guess": 11})
    order_submit(match=match, seat=s1, payload={"guess": 99})
    phase_close(phase_id=selectors.current_phase(match).pk)
    mine = [line.text for line in selectors.diary_for_seat(match, 0)]
    assert "Your guess was 11." in mine and not any("99" in t for t in mine)
    public = [line.text for line in selectors.diary_for_seat(match, None)]
    assert not any("11" in t or "99" in t for t in public if "guess" in t)
    everything = selectors.diary_for_seat(match, None, omniscient=True)
    assert len(everything) == DiaryEntry.objects.filter(match=match).count()


def test_absent_seats_get_bot_orders_when_bots_are_enabled(traveller):
    match = make_match(players=2, bots_enabled=True)
    s0, _ = _seats(match)
    order_submit(match=match, seat=s0, payload={"guess": 50})
    phase = selectors.current_phase(match)
    phase_close(phase_id=phase.pk)
    defaults = Order.objects.filter(phase=phase, is_default=True)
    assert [o.seat.number for o in defaults] == [1]
    assert DiaryEntry.objects.filter(phase=phase, kind="guess_revealed").count() == 2


def test_absent_seats_without_bots_get_the_engine_defaults(traveller):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    phase_close(phase_id=phase.pk)
    # guess's default_orders is "no guess": nothing is submitted, nobody scores
    assert not Order.objects.filter(phase=phase).exists()
    assert DiaryEntry.objects.get(phase=phase, kind="round_over").payload["winners"] == []


def test_last_checkin_closes_at_once(traveller, django_capture_on_commit_callbacks):
    match = make_match(players=2)
    phase = selectors.current_phase(match)
    s0, s1 = _seats(match)
    with django_capture_on_commit_callbacks(execute=True):
        seat_checkin(match=match, seat=s0)
    phase.refresh_from_db()
    assert phase.closed_at is None
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        seat_checkin(match=match, seat=s1)
    assert callbacks  # the close was queued on commit, not run inside the transaction
    phase.refresh_from_db()
    assert phase.closed_at == CURRENT_TIME


def test_the_match_finishes_with_outcome_and_emails(traveller, django_capture_on_commit_callbacks,
                                                    mailoutbox):
    match = make_match(players=2, config={"rounds": 1})
    s0, _ = _seats(match)
    order_submit(match=match, seat=s0, payload={"guess": 50})
    with django_capture_on_commit_callbacks(execute=True):
        assert phase_close(phase_id=selectors.current_phase(match).pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at == CURRENT_TIME
    assert match.outcome["winners"] == [0]
    assert selectors.current_phase(match) is None
    finished = [m for m in mailoutbox if "is over" in m.subject]
    assert len(finished) == 2 and any("you won" in m.subject for m in finished)


def test_a_paused_match_is_not_swept_and_resume_shifts_the_deadline(traveller):
    from games.services.matches import match_pause, match_resume

    match = make_match(players=1)
    phase = selectors.current_phase(match)
    match_pause(match=match)
    traveller.move_to(CURRENT_TIME + timedelta(hours=30))
    assert phases_close_due() == 0
    match_resume(match=match)
    phase.refresh_from_db()
    assert phase.closed_at is None
    assert phase.deadline_at == CURRENT_TIME + timedelta(hours=24 + 30)


def test_a_failing_resolution_rolls_back_and_is_retried_later(traveller):
    match = make_match(players=2, config={"crash": True})
    phase = selectors.current_phase(match)
    s0, _ = _seats(match)
    order_submit(match=match, seat=s0, payload={"guess": 5})
    version = Match.objects.get(pk=match.pk).version
    traveller.move_to(LATER)
    assert phases_close_due() == 0
    phase.refresh_from_db()
    match.refresh_from_db()
    assert phase.closed_at is None and phase.close_failures == 1
    assert "guessgame configured to crash" in phase.last_error
    assert phase.deadline_at == LATER + timedelta(seconds=settings.PHASE_CLOSE_RETRY_SECONDS)
    assert match.version == version and match.diary_seq == 1  # nothing half-written
    assert not Order.objects.filter(phase=phase, is_default=True).exists()
    assert not Snapshot.objects.filter(phase=phase).exists()


def test_third_failure_quarantines_and_alerts_the_director(traveller, director,
                                                           django_capture_on_commit_callbacks,
                                                           mailoutbox):
    match = make_match(players=1, config={"crash": True})
    phase = selectors.current_phase(match)
    when = LATER
    for attempt in range(1, 4):
        traveller.move_to(when)
        with django_capture_on_commit_callbacks(execute=True):
            phases_close_due()
        phase.refresh_from_db()
        assert phase.close_failures == attempt
        when = when + timedelta(seconds=settings.PHASE_CLOSE_RETRY_SECONDS + 1)
    assert phase.quarantined_at is not None
    match.refresh_from_db()
    assert match.needs_director and "quarantined" in match.director_note
    alerts = [m for m in mailoutbox if "needs the director" in m.subject]
    assert [m.to for m in alerts] == [[director.email]]
    # the sweep leaves it alone from now on
    traveller.move_to(when + timedelta(days=3))
    assert phases_close_due() == 0
    phase.refresh_from_db()
    assert phase.close_failures == 3
    with pytest.raises(ApplicationError) as err:
        from games.services.orders import order_submit as submit
        submit(match=match, seat=match.seats.get(), payload={"guess": 3})
    assert err.value.code == "PHASE_QUARANTINED"


def test_director_close_now_retries_a_quarantined_phase(traveller, director):
    match = make_match(players=1, config={"crash": True})
    phase = selectors.current_phase(match)
    for _ in range(3):
        with pytest.raises(PhaseCloseFailed):
            phase_close(phase_id=phase.pk, force=True)
    phase.refresh_from_db()
    assert phase.quarantined_at is not None
    # the fix: the state no longer crashes
    state = dict(match.state)
    state["crash"] = False
    Match.objects.filter(pk=match.pk).update(state=state)
    assert phase_close_now(phase=phase, actor=director) is True
    match.refresh_from_db()
    assert not match.needs_director
    assert match.director_actions.filter(action="close_now").exists()


def test_director_close_now_reports_the_real_exception(traveller, director):
    match = make_match(players=1, config={"crash": True})
    phase = selectors.current_phase(match)
    with pytest.raises(ApplicationError) as err:
        phase_close_now(phase=phase, actor=director)
    assert err.value.code == "RESOLVE_FAILED"
    assert err.value.message == ("The rules failed to resolve this phase: "
                                 "RuntimeError: guessgame configured to crash")


def test_notifications_are_rows_in_the_close_transaction(traveller):
    match = make_match(players=2)
    before = Notification.objects.count()
    phase_close(phase_id=selectors.current_phase(match).pk)
    rows = Notification.objects.filter(kind=Notification.Kind.NEW_PHASE)
    assert Notification.objects.count() - before == 2 == rows.count()
    assert all(r.payload["from_seq"] <= r.payload["to_seq"] for r in rows)


def test_preferences_decide_who_gets_phase_emails(traveller):
    off = make_user(email_mode="off")
    digest = make_user(email_mode="digest")
    on = make_user()
    match = make_match(users=[off, digest, on])
    phase_close(phase_id=selectors.current_phase(match).pk)
    assert list(Notification.objects.filter(kind="new_phase").values_list(
        "recipient__username", flat=True)) == [on.username]
