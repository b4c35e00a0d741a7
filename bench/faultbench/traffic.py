"""Fault-bench scenarios that drive players' traffic through the real web process (API
tokens and a logged-in browser's pages) while something goes wrong:

- ``redis_down``: Redis (cache and broker) stops; players read, order, post and check in
  through the API and load pages meanwhile. Counts the 5xx per kind of request; orders
  and check-ins must all succeed, no page may answer 5xx, a wrong API token gets the 503
  (the throttle fails closed), and the phase the last check-in completed closes once Redis
  is back.
- ``nags_under_load``: reminders fall due again and again (``seats_send_nags`` in threads,
  as several workers would run it) while players order, check in and withdraw through the
  API and the sweep closes phases; reads ``pg_stat_database.deadlocks`` of the bench's own
  database and the PostgreSQL log before and after: 0 deadlocks (docs/framework.md "Lock
  order").
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from typing import Any
from urllib import error as urlerror
from urllib import request as urlrequest

from django.db import close_old_connections, connection
from django.utils.timezone import now as timezone_now

from bench.faultbench.scenarios import (Processes, _get, _session_cookie, _wait, all_closed,
                                        close_counts, due_now, email_counts, first_phase,
                                        make_matches, verdict)
from bench.faultbench.stack import Stack


def call(stack: Stack, method: str, path: str, *, token: str | None = None,
         body: dict | None = None, cookie: str | None = None) -> int:
    """One HTTP request to the bench's gunicorn; its status (0: no answer)."""
    headers = {"Host": "127.0.0.1", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    if cookie:
        headers["Cookie"] = cookie
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urlrequest.Request(f"http://127.0.0.1:{stack.web_port}{path}", data=data,
                             headers=headers, method=method)
    try:
        with urlrequest.urlopen(req, timeout=30) as response:
            response.read()
            return response.status
    except urlerror.HTTPError as exc:
        exc.read()
        return exc.code
    except OSError:
        return 0


def _players(matches, *, reminders: bool = False) -> list[tuple[Any, Any, str]]:
    """(match, seat, API key) for every seat; no message emails (the bench counts the
    outbox rows of phases and reminders)."""
    from accounts.models import ApiToken, Profile

    out = []
    for match in matches:
        for seat in match.seats.order_by("number").select_related("user"):
            Profile.objects.filter(user=seat.user).update(
                email_messages=False, reminder_hours=3 if reminders else 0)
            token = ApiToken.objects.create(user=seat.user, name="bench",
                                            scope=ApiToken.Scope.PLAY)
            out.append((match, seat, token.key))
    return out


def redis_down(stack: Stack, procs: Processes) -> dict[str, Any]:
    down_s = 10
    matches = make_matches("rdown", n=2, players=3)
    players = _players(matches)
    cookie = _session_cookie(players[0][1].user)
    phases = [first_phase(m) for m in matches]
    status: dict[str, Counter] = {k: Counter() for k in
                                  ("reads", "orders", "posts", "checkins", "pages")}
    stack.redis_stop()
    down_at = time.monotonic()
    try:
        for match, seat, key in players:
            base = f"/api/matches/{match.pk}"
            status["reads"][call(stack, "GET", f"{base}/", token=key)] += 1
            status["orders"][call(stack, "POST", f"{base}/orders/", token=key,
                                  body={"order": {"guess": random.randint(1, 100)}})] += 1
            status["posts"][call(stack, "POST", f"{base}/messages/", token=key,
                                 body={"to": "all", "text": "still here?"})] += 1
            status["checkins"][call(stack, "POST", f"{base}/checkin/", token=key, body={})] += 1
        for path in ("/", f"/m/{matches[0].pk}/", f"/m/{matches[0].pk}/poll/", "/my/",
                     f"/press/m/{matches[0].pk}/", "/accounts/profile/"):
            status["pages"][_get(stack, path, cookie)[0]] += 1
        wrong_token = call(stack, "GET", "/api/matches/", token="pbw_not-a-token")
        time.sleep(max(0.0, down_s - (time.monotonic() - down_at)))
    finally:
        stack.redis_start()
    procs.wait_ready()
    _wait(lambda: all_closed(phases), 60)
    fives = {k: sum(n for code, n in c.items() if code >= 500 or code == 0)
             for k, c in status.items()}
    result = {"name": "redis_down", "down_s": down_s,
              "status": {k: dict(c) for k, c in status.items()},
              "5xx": fives, "wrong_token_status": wrong_token, **close_counts(matches)}
    result.update(email_counts(stack, matches, 120))
    return verdict(result, fives["orders"] == 0, fives["checkins"] == 0,
                   fives["pages"] == 0, fives["reads"] == 0, fives["posts"] == 0,
                   set(status["orders"]) == {200}, set(status["checkins"]) == {200},
                   wrong_token == 503)


def _deadlocks() -> int:
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = "
                       "current_database()")
        return int(cursor.fetchone()[0])


def _log_deadlocks(stack: Stack) -> int:
    try:
        return stack.path("pgrun", "pg.log").read_text(errors="replace").count(
            "deadlock detected")
    except OSError:
        return 0


def nags_under_load(stack: Stack, procs: Processes) -> dict[str, Any]:
    from games.models import Match, Seat
    from games.services.notifications import seats_send_nags

    rounds, round_s, nag_threads, player_threads = 6, 4.0, 2, 6
    matches = make_matches("nags", n=4, players=4, config={"rounds": 50})
    players = _players(matches, reminders=True)
    time.sleep(1.5)  # statistics of earlier scenarios flushed
    before, log_before = _deadlocks(), _log_deadlocks(stack)
    codes: Counter = Counter()
    nags: Counter = Counter()
    stop = threading.Event()
    lock = threading.Lock()

    def player(mine: list[tuple[Any, Any, str]]) -> None:
        rng = random.Random(len(mine))
        while not stop.is_set():
            match, seat, key = rng.choice(mine)
            base = f"/api/matches/{match.pk}"
            step = rng.random()
            if step < 0.6:
                got = call(stack, "POST", f"{base}/orders/", token=key,
                           body={"order": {"guess": rng.randint(1, 100)}})
            elif step < 0.8:
                got = call(stack, "POST", f"{base}/checkin/", token=key, body={})
            else:
                got = call(stack, "POST", f"{base}/checkin/withdraw/", token=key, body={})
            with lock:
                codes[got] += 1

    def nagger() -> None:
        while not stop.is_set():
            try:
                sent = seats_send_nags()
            except Exception as exc:  # noqa: BLE001 - a deadlock shows here too
                with lock:
                    nags[f"error: {type(exc).__name__}"] += 1
            else:
                with lock:
                    nags["sent"] += sent
            finally:
                close_old_connections()
        connection.close()  # this thread's own connection

    started = time.monotonic()
    for _ in range(rounds):
        # every awaited seat's reminder falls due now, the phases a minute later
        Seat.objects.filter(match__in=matches).update(next_nag_at=timezone_now())
        stop.clear()
        threads = [threading.Thread(target=player, args=(players[i::player_threads],))
                   for i in range(player_threads)]
        threads += [threading.Thread(target=nagger) for _ in range(nag_threads)]
        for t in threads:
            t.start()
        time.sleep(round_s / 2)
        due_now(matches)  # the sweep closes them while players and reminders go on
        time.sleep(round_s / 2)
        stop.set()
        for t in threads:
            t.join(60)
        _wait(lambda: not Match.objects.filter(pk__in=[m.pk for m in matches]).filter(
            phases__closed_at__isnull=True, phases__deadline_at__lte=timezone_now()).exists(),
              30)
    load_s = round(time.monotonic() - started, 1)
    time.sleep(1.5)  # PostgreSQL publishes its statistics within a second of idling
    deadlocks, logged = _deadlocks() - before, _log_deadlocks(stack) - log_before
    from django.db.models import Count

    from games.models import Notification, Phase, Snapshot

    reminders = Notification.objects.filter(match__in=matches, kind="reminder").count()
    phases_closed = Phase.objects.filter(match__in=matches, closed_at__isnull=False).count()
    # the early closes (everyone checked in) and the due ones: every phase closed once
    twice = (Phase.objects.filter(match__in=matches).values("match", "number")
             .annotate(n=Count("id")).filter(n__gt=1).count())
    twice += (Snapshot.objects.filter(match__in=matches, phase__isnull=False).values("phase")
              .annotate(n=Count("id")).filter(n__gt=1).count())
    fives = sum(n for code, n in codes.items() if code >= 500 or code == 0)
    left_due = Phase.objects.filter(match__in=matches, closed_at__isnull=True,
                                    deadline_at__lte=timezone_now()).count()
    result = {"name": "nags_under_load", "rounds": rounds, "load_s": load_s,
              "requests": sum(codes.values()), "status": dict(codes), "5xx": fives,
              "reminders_queued": reminders, "nag_runs": dict(nags),
              "phases_closed": phases_closed, "deadlocks": deadlocks,
              "deadlocks_in_log": logged, "closed_twice": twice,
              "lost_closes": left_due}
    result.update(email_counts(stack, matches, 150))
    return verdict(result, deadlocks == 0, logged == 0, fives == 0, reminders > 0,
                   phases_closed >= rounds * len(matches), not any(
                       k.startswith("error") for k in nags))


SCENARIOS = {"redis_down": redis_down, "nags_under_load": nags_under_load}
