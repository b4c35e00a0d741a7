"""The fault bench's scenarios (``manage.py bench_faults``). Each runs against the bench's
own stack (:mod:`bench.faultbench.stack`) with real Celery workers (``clock`` and ``mail``
queues), a real beat, gunicorn, PostgreSQL, Redis and an SMTP server, injects one fault,
and reports what happened to the phases and the emails it involved:

- ``closed_twice``: closes beyond the one expected per phase (snapshots per phase > 1, or
  more closed phases than expected);
- ``lost_closes``: phases that should have closed and did not;
- ``lost_emails`` / ``duplicate_emails``: outbox rows of the scenario's matches that the
  SMTP server never received / received more than once (matched by the row's stable
  ``Message-ID``).

A scenario is ``ok`` when all four are 0 and its own bound holds (``worker_killed_mid_send``
allows one doubled email per kill: the message in flight).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import import_module
from itertools import count
from typing import Any, Callable
from urllib import error as urlerror
from urllib import request as urlrequest

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils.timezone import now as timezone_now

from bench.faultbench.stack import Stack, kill, stop

EARLY_CLOSE_BOUND_S = 30
CLOCK_BOUND_S = 10
MESSAGE_ID = re.compile(r"<notification-(\d+)\.")
SWEEP_SENT = "Sending due task phases-close-due"
_names = count(1)


@dataclass
class Processes:
    """The Celery and web processes the scenarios start, kill and restart."""

    stack: Stack
    clock: Any = None
    mail: Any = None
    beats: list = field(default_factory=list)
    web: Any = None

    def start(self) -> None:
        self.web = self.stack.web()
        self.clock = self.stack.worker("clock", "clock1")
        self.mail = self.stack.worker("mail", "mail1")
        self.beats = [self.stack.beat("beat1")]
        self.wait_ready()

    def wait_ready(self, timeout: float = 90) -> None:
        """Until a worker answers on each queue, beat holds the lock and the web answers."""
        from config import liveness

        limit = time.monotonic() + timeout
        while time.monotonic() < limit:
            try:
                live = liveness.workers()
                queues = {q for w in live.values() for q in w["queues"]}
                beat = liveness.beat()
            except Exception:  # noqa: BLE001 - Redis coming back
                queues, beat = set(), None
            if {"clock", "mail"} <= queues and beat and beat["age_s"] < 5 and _get(
                    self.stack, "/healthz")[0] in (200, 503):
                return
            time.sleep(0.2)
        raise RuntimeError("the bench's workers, beat or web did not come up")

    def restart(self, name: str) -> None:
        from config import liveness

        old = getattr(self, name)
        kill(old.pid)
        old.wait()
        try:  # the dead worker's mark would outlive it for a few seconds
            liveness.client().delete(liveness.worker_key(next(
                k for k in liveness.workers() if k.startswith(f"{name}"))))
        except Exception:  # noqa: BLE001
            pass
        setattr(self, name, self.stack.worker(name, f"{name}{next(_names) + 1}"))

    def stop_all(self) -> None:
        for proc in [self.clock, self.mail, self.web, *self.beats]:
            if proc is not None:
                stop(proc)


# --- helpers -------------------------------------------------------------------------

def _get(stack: Stack, path: str, cookie: str | None = None,
         accept: str = "text/html") -> tuple[int, dict[str, str], bytes]:
    req = urlrequest.Request(f"http://127.0.0.1:{stack.web_port}{path}",
                             headers={"Accept": accept, "Host": "127.0.0.1",
                                      **({"Cookie": cookie} if cookie else {})})
    try:
        with urlrequest.urlopen(req, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urlerror.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()
    except OSError:
        return 0, {}, b""


def _wait(check: Callable[[], bool], timeout: float, step: float = 0.1) -> bool:
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        close_old_connections()
        try:
            if check():
                return True
        except Exception:  # noqa: BLE001 - the database may be on its way back
            connection.close()
        time.sleep(step)
    return False


def make_matches(tag: str, n: int = 1, players: int = 2, config: dict | None = None) -> list:
    """``n`` running guess matches of ``players`` new users each, through the services;
    every player wants an email per phase (and nothing else), so each close sends one
    email per seat."""
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from games.models import Match
    from games.services.matches import match_create, match_join, match_start

    users_model = get_user_model()
    matches = []
    for m in range(n):
        users = [users_model.objects.create_user(f"{tag}-{m}-{i}", f"{tag}-{m}-{i}@bench.test",
                                                 None) for i in range(players)]
        Profile.objects.filter(user__in=users).update(
            email_mode=Profile.EmailMode.PER_PHASE, email_match_events=False, reminder_hours=0)
        match = match_create(game="guess", name=f"{tag} {m}", config=config or {})
        for user in users:
            match_join(match=match, user=user, invite_code=match.invite_code)
        match_start(match=match)
        matches.append(Match.objects.get(pk=match.pk))
    return matches


def first_phase(match):
    from games.models import Phase

    return Phase.objects.get(match=match, number=1)


def due_now(matches, at=None) -> Any:
    """Make the open phase of each match due at ``at`` (now by default)."""
    from games.models import Phase

    at = at or timezone_now()
    Phase.objects.filter(match__in=matches, closed_at__isnull=True).update(deadline_at=at)
    return at


def all_closed(phases) -> bool:
    from games.models import Phase

    return Phase.objects.filter(pk__in=[p.pk for p in phases],
                                closed_at__isnull=False).count() == len(phases)


def close_counts(matches, expected_per_match: int = 1) -> dict[str, int]:
    """``closed_twice`` and ``lost_closes`` for matches that should each have closed
    ``expected_per_match`` phases."""
    from django.db.models import Count

    from games.models import Phase, Snapshot

    closed = Counter(dict(Phase.objects.filter(match__in=matches, closed_at__isnull=False)
                          .values_list("match").annotate(n=Count("id"))))
    doubled_snapshots = (Snapshot.objects.filter(match__in=matches, phase__isnull=False)
                         .values("phase").annotate(n=Count("id")).filter(n__gt=1).count())
    twice = sum(max(0, closed.get(m.pk, 0) - expected_per_match) for m in matches)
    lost = sum(max(0, expected_per_match - closed.get(m.pk, 0)) for m in matches)
    return {"closed_twice": twice + doubled_snapshots, "lost_closes": lost}


def _expected_email_ids(matches) -> set[int]:
    from games.models import Notification

    rows = Notification.objects.filter(match__in=matches).values_list("pk", "error", "sent_at")
    # a row closed unsent on purpose ("skipped: nobody wants it any more") is not expected
    return {pk for pk, error, sent in rows if not (sent and (error or "").startswith("skipped"))}


def _received_ids(stack: Stack) -> Counter:
    got: Counter = Counter()
    for message in stack.smtp_received():
        found = MESSAGE_ID.search(message.get("message_id") or "")
        if found:
            got[int(found.group(1))] += 1
    return got


def email_counts(stack: Stack, matches, timeout: float) -> dict[str, Any]:
    """Wait up to ``timeout`` s for every outbox row of ``matches`` to reach the SMTP
    server; then count the lost and the doubled."""
    started = time.monotonic()
    expected: set[int] = set()

    def delivered() -> bool:
        nonlocal expected
        expected = _expected_email_ids(matches)
        return bool(expected) and expected <= set(_received_ids(stack))

    _wait(delivered, timeout, step=0.5)
    got = _received_ids(stack)
    return {"emails": len(expected),
            "lost_emails": len(expected - set(got)),
            "duplicate_emails": sum(got[i] - 1 for i in expected if got[i] > 1),
            "emails_drain_s": round(time.monotonic() - started, 1)}


def verdict(result: dict[str, Any], *extra: bool) -> dict[str, Any]:
    result["ok"] = (result.get("closed_twice") == 0 and result.get("lost_closes") == 0
                    and result.get("lost_emails") == 0 and result.get("duplicate_emails") == 0
                    and result.get("emails", 1) > 0 and all(extra))
    return result


def _backend_waiting_on(table: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                       "AND query ILIKE %s", [f"%{table}%"])
        return cursor.fetchone()[0] > 0


# --- the scenarios -------------------------------------------------------------------

def worker_killed_mid_close(stack: Stack, procs: Processes) -> dict[str, Any]:
    """SIGKILL the clock worker while its close waits inside the transaction (the bench
    holds a lock on the snapshot table, so the close has locked the match and the phase,
    resolved and written the diary, and waits to insert the snapshot). Nothing of it may
    remain; a new worker's sweep closes the phase once."""
    import psycopg

    from games.models import Snapshot

    matches = make_matches("kclose")
    phase = first_phase(matches[0])
    blocker = psycopg.connect(f"postgresql://postgres@127.0.0.1:{stack.pg_port}/"
                              f"{settings.DATABASES['default']['NAME']}")
    blocker.execute(f"LOCK TABLE {Snapshot._meta.db_table} IN EXCLUSIVE MODE")
    due_now(matches)
    caught = _wait(lambda: _backend_waiting_on(Snapshot._meta.db_table), 30)
    killed_at = timezone_now()
    procs.restart("clock")  # SIGKILL the worker and its pool, start a fresh one
    blocker.rollback()
    blocker.close()
    _wait(lambda: all_closed([phase]), 60)
    phase.refresh_from_db()
    result = {"name": "worker_killed_mid_close", "killed_mid_close": caught,
              **close_counts(matches)}
    result["recovery_s"] = (round((phase.closed_at - killed_at).total_seconds(), 1)
                            if phase.closed_at else None)
    result.update(email_counts(stack, matches, 60))
    return verdict(result, caught)


def _received_for(stack: Stack, ids: set[int]) -> int:
    return sum(n for i, n in _received_ids(stack).items() if i in ids)


def worker_killed_mid_send(stack: Stack, procs: Processes) -> dict[str, Any]:
    """The mail worker is SIGKILLed in the middle of a batch, ``kills`` times: the SMTP
    server accepts each message slowly (``SLOW_ACCEPT_S``: the message is recorded, its
    "250 OK" not yet sent), and once some of a close's emails went through the worker dies
    with one message in flight. A new worker sends the rest after the lease expires. Every
    email must arrive; ``doubled`` counts the copies per kill: a sender that marks each
    message sent right after the server accepted it doubles at most the one in flight
    (≤ 1 per kill); one that marks a batch at its end doubles every message it had sent.
    """
    from games.models import Notification

    kills, players, slow_s = 2, 6, 1.0
    rounds = []
    all_matches = []
    slow = stack.received.with_name("smtp-slow")
    for k in range(kills):
        matches = make_matches(f"ksend{k}", players=players)
        all_matches += matches
        rows = Notification.objects.filter(match__in=matches)
        slow.write_text(str(slow_s))
        try:
            due_now(matches)
            # the batch is on its way: a few messages accepted, one in flight
            caught = _wait(lambda: rows.exists() and _received_for(
                stack, set(rows.values_list("pk", flat=True))) >= players // 2, 60)
            ids = set(rows.values_list("pk", flat=True))
            accepted_before = _received_for(stack, ids)
            procs.restart("mail")
        finally:
            slow.unlink(missing_ok=True)
        got = email_counts(stack, matches, 150)
        rounds.append({"killed_mid_send": caught, "received_before_kill": accepted_before,
                       "emails": got["emails"], "lost": got["lost_emails"],
                       "doubled": got["duplicate_emails"], "drain_s": got["emails_drain_s"]})
    result = {"name": "worker_killed_mid_send", "kills": kills, "rounds": rounds,
              "doubled": sum(r["doubled"] for r in rounds),
              "doubled_per_kill": [r["doubled"] for r in rounds],
              "doubled_bound_per_kill": 1, **close_counts(all_matches)}
    totals = email_counts(stack, all_matches, 10)
    result.update({k: totals[k] for k in ("emails", "lost_emails", "duplicate_emails")})
    # doubles are judged per kill (the one message in flight may arrive twice), the rest
    # as in every scenario
    result["ok"] = (result["closed_twice"] == 0 and result["lost_closes"] == 0
                    and result["lost_emails"] == 0 and result["emails"] > 0
                    and all(r["killed_mid_send"] for r in rounds)
                    and all(r["doubled"] <= 1 for r in rounds))
    return result


def broker_down_last_checkin(stack: Stack, procs: Processes) -> dict[str, Any]:
    """Redis stops; the last awaited player checks in (the check-in must succeed); Redis
    comes back after ``broker_down_s``. The early close must not wait for the deadline
    (a day away): ``early_close_delay_s`` from the check-in to the close, ≤ 30 s."""
    from games.services.seats import seat_checkin

    broker_down_s = 8
    matches = make_matches("broker")
    match = matches[0]
    phase = first_phase(match)
    seats = list(match.seats.order_by("number"))
    seat_checkin(match=match, seat=seats[0])
    stack.redis_stop()
    checkin_ok = True
    checked_in_at = timezone_now()
    try:
        seat_checkin(match=match, seat=seats[1])
    except Exception:  # noqa: BLE001 - the player must never see the broker's outage
        checkin_ok = False
    time.sleep(broker_down_s)
    stack.redis_start()
    _wait(lambda: all_closed([phase]), 60)
    phase.refresh_from_db()
    delay = ((phase.closed_at - checked_in_at).total_seconds() if phase.closed_at else None)
    result = {"name": "broker_down_last_checkin", "broker_down_s": broker_down_s,
              "checkin_ok": checkin_ok,
              "early_close_delay_s": round(delay, 1) if delay is not None else None,
              **close_counts(matches)}
    procs.wait_ready()
    # no close, no email to wait for
    result.update(email_counts(stack, matches, 90 if phase.closed_at else 1))
    return verdict(result, checkin_ok, delay is not None and delay <= EARLY_CLOSE_BOUND_S)


def smtp_hang(stack: Stack, procs: Processes) -> dict[str, Any]:
    """The mail server hangs (accepts connections, never answers) while one close's
    emails are being sent; another phase falls due meanwhile: it must close on time
    (``clock_delay_s`` ≤ 10 s, the clock has its own queue and workers); after the
    server is back every email arrives once."""
    from games.models import Notification

    hang_s = 15
    matches = make_matches("hang", n=2)
    first, second = matches
    stack.smtp_hang()
    hung_at = time.monotonic()
    try:
        due_now([first])
        rows = Notification.objects.filter(match=first)
        # the mail worker took the first close's emails and is now stuck on the server
        stuck = _wait(lambda: rows.exists() and not rows.filter(attempts=0).exists(), 20)
        due_at = due_now([second], timezone_now() + timedelta(seconds=2))
        phase = first_phase(second)
        _wait(lambda: all_closed([phase]), 30)
        phase.refresh_from_db()
        delay = (phase.closed_at - due_at).total_seconds() if phase.closed_at else None
        time.sleep(max(0.0, hang_s - (time.monotonic() - hung_at)))
    finally:
        stack.smtp_resume()
    result = {"name": "smtp_hang", "hang_s": hang_s, "mail_worker_stuck": stuck,
              "clock_delay_s": round(delay, 2) if delay is not None else None,
              **close_counts(matches)}
    result.update(email_counts(stack, matches, 150))
    return verdict(result, stuck, delay is not None and delay <= CLOCK_BOUND_S)


def _session_cookie(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def database_down(stack: Stack, procs: Processes) -> dict[str, Any]:
    """PostgreSQL stops for ``down_s`` seconds while a phase falls due. Meanwhile
    ``/healthz``, a page and the API answer 503 (with Retry-After), even for a logged-in
    player; afterwards the phase closes once and its failure counter is untouched."""
    from games.models import Phase

    down_s = 8
    matches = make_matches("dbdown")
    phase = first_phase(matches[0])
    cookie = _session_cookie(matches[0].seats.order_by("number").first().user)
    page_before = _get(stack, "/", cookie)[0]
    due_at = due_now(matches, timezone_now() + timedelta(seconds=3))
    stack.pg_stop("fast")
    connection.close()
    down_at = time.monotonic()
    time.sleep(1)
    healthz = _get(stack, "/healthz", cookie, accept="application/json")
    page = _get(stack, "/", cookie)
    api = _get(stack, "/api/matches/", cookie, accept="application/json")
    try:
        import json

        api_shape = json.loads(api[2]).get("ok") is False and "code" in json.loads(api[2])["error"]
    except ValueError:
        api_shape = False
    time.sleep(max(0.0, down_s - (time.monotonic() - down_at)))
    stack.pg_start()
    connection.close()
    _wait(lambda: all_closed([phase]), 60)
    phase = Phase.objects.get(pk=phase.pk)
    result = {"name": "database_down", "down_s": down_s, "page_status_before": page_before,
              "healthz_status": healthz[0], "page_status": page[0], "api_status": api[0],
              "api_error_shape": api_shape,
              "retry_after": page[1].get("Retry-After"),
              "close_failures": phase.close_failures,
              "close_delay_after_due_s": (round((phase.closed_at - due_at).total_seconds(), 1)
                                          if phase.closed_at else None),
              **close_counts(matches)}
    procs.wait_ready()
    result["healthz_status_after"] = _get(stack, "/healthz")[0]
    result.update(email_counts(stack, matches, 90))
    return verdict(result, page_before == 200, healthz[0] == 503, page[0] == 503,
                   api[0] == 503, api_shape, bool(result["retry_after"]),
                   phase.close_failures == 0)


def _sweeps_sent(stack: Stack, name: str) -> int:
    try:
        return stack.path(f"{name}.log").read_text(errors="replace").count(SWEEP_SENT)
    except OSError:
        return 0


def two_beats(stack: Stack, procs: Processes) -> dict[str, Any]:
    """A second beat starts next to the first: only one sends (the lock). Then the one
    sending is SIGKILLed and restarted at once (no pidfile to stop it): the other takes
    over within the lock's time to live, and phases due meanwhile close once."""
    window_s = 6
    matches = make_matches("beats", n=2)
    procs.beats.append(stack.beat("beat2"))
    time.sleep(3)
    names = ["beat1", "beat2"]
    before = {n: _sweeps_sent(stack, n) for n in names}
    due_now(matches[:1], timezone_now() + timedelta(seconds=2))
    time.sleep(window_s)
    sent = {n: _sweeps_sent(stack, n) - before[n] for n in names}
    sending = [n for n in names if sent[n] > 0]
    takeover = None
    restarted_alive = False
    if len(sending) == 1:
        holder = names.index(sending[0])
        kill(procs.beats[holder].pid)
        procs.beats[holder].wait()
        killed = time.monotonic()
        mark = sum(_sweeps_sent(stack, n) for n in names)
        # restarted at once over the crash; it and the standby race for the expired lock
        procs.beats[holder] = stack.beat(sending[0])
        due_now(matches[1:], timezone_now() + timedelta(seconds=1))
        if _wait(lambda: sum(_sweeps_sent(stack, n) for n in names) > mark, 30, step=0.2):
            takeover = round(time.monotonic() - killed, 1)
        time.sleep(2)
        restarted_alive = procs.beats[holder].poll() is None
    _wait(lambda: all_closed([first_phase(m) for m in matches]), 30)
    result = {"name": "two_beats", "window_s": window_s, "sweeps_sent": sent,
              "beats_sending": len(sending), "takeover_s": takeover,
              "restarted_beat_alive": restarted_alive,
              "lock_ttl_s": settings.BEAT_LOCK_TTL_SECONDS, **close_counts(matches)}
    result.update(email_counts(stack, matches, 60))
    return verdict(result, len(sending) == 1, takeover is not None
                   and takeover <= settings.BEAT_LOCK_TTL_SECONDS + 5, restarted_alive)


SCENARIOS: dict[str, Callable[[Stack, Processes], dict[str, Any]]] = {
    "database_down": database_down,
    "smtp_hang": smtp_hang,
    "worker_killed_mid_close": worker_killed_mid_close,
    "worker_killed_mid_send": worker_killed_mid_send,
    "broker_down_last_checkin": broker_down_last_checkin,
    "two_beats": two_beats,
}
