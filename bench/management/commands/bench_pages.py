"""``manage.py bench_pages --json``: how long the pages take on the server, each as a
ratio to a floor measured in the same run, request by request.

Steps:

1. Unless already inside the bench environment, re-run itself with one: a dedicated
   PostgreSQL database on the configured server (``pbw_pages_<pid>_bench``, created
   here and dropped at the end), its own Redis (``redis-server`` on a spare port, stopped
   at the end; the local-memory cache when ``redis-server`` is missing — the JSON says
   which), base settings (sessions, cache and database as deployed), email to ``locmem``,
   and the bench's URLconf (bench/urls.py: the site plus one trivial view, the floor).
2. Migrate, then build the matches through the real services, as people and the beat
   would: Kill Game with 30 and 100 players (bots play the absent seats, every phase
   closed by ``phase_close`` at its deadline) up to turn 3 and turn 9, a 10-seat Three
   Kingdoms Kill table, a Dice Slayer versus game, and 100 public running matches for
   the lobby; a director (staff) for the admin's match page and match list.
3. Measure each page in-process with Django's test ``Client`` (the whole middleware
   stack, templates and database round trips; no HTTP server): a few warm-up requests,
   one request with the queries counted, then ``--iterations`` timed requests, each
   followed by one request of the floor (the trivial view, same client and session), so
   a machine busy with other work slows both alike; report the medians in ms, the
   ``ratio`` (page ÷ floor), the query count and the body size. ``gc.freeze()`` runs
   first, as the gunicorn config does after fork. ``/healthz`` is reported apart
   (``healthz``): it checks the database, Redis and the queues, so it is no floor.
4. The director's "Close phase now" on the 30-player match (``director_close``): the
   admin's POST timed until it answers, the close's tasks queued to the bench's Redis on
   commit (as deployed, not run inline).

Output: ``{"floor_ms", "pages": [{"name", "ms", "ratio", "limit", "queries", "bytes",
"cpu_ms", "ratio_cpu"}], "healthz", "director_close", "load_average", ...}``; the Kill
Game pages add ``cold_ms`` / ``cold_ratio``: the first load after a change, every fragment
rendered anew (games/lib/htmlcache.py). ``limit`` is the issue's goal for that ratio,
printed beside it; nothing here fails on it (speed is measured, not asserted).
"""

from __future__ import annotations

import gc
import html
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from bench import databases
from bench.urls import FLOOR_PATH

CHILD_FLAG = "PBW_BENCH_PAGES_CHILD"
POLLER = re.compile(r'id="poller" hx-get="([^"]+)"')
# the goals for each page's ratio to the floor (issue 30); cold renders: COLD_LIMIT
LIMITS = {"kg30_t3": 5, "kg100_t3": 8, "kg100_t9": 8, "kg_poll_204": 1.5, "sgs10": 8,
          "ds_versus": 8, "lobby100": 6, "director_kg30": 10, "admin_matches": 10}
COLD_LIMIT = 15
DIRECTOR_CLOSE_LIMIT_MS = 500


def _spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Command(BaseCommand):
    help = "Benchmark: server time, queries and bytes of the main pages, with the floor (JSON)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print only the JSON result")
        parser.add_argument("--iterations", type=int, default=200,
                            help="timed requests per page (the median is reported)")
        parser.add_argument("--only", default="",
                            help="comma-separated page names to measure (default: all)")
        parser.add_argument("--profile", default="",
                            help="a page name: print its queries (most repeated first) and "
                                 "its cProfile (BENCH_PROFILE_SORT, default cumulative; "
                                 "BENCH_PROFILE_COLD=1: every fragment rendered anew)")
        parser.add_argument("--closes", type=int, default=5,
                            help="the director's 'Close phase now' timed this many times")
        parser.add_argument("--reuse", action="store_true",
                            help="development: keep the database and reuse the matches a "
                                 "previous --reuse run built (kg100_t3 is then skipped)")
        parser.add_argument("--database-url", default=os.environ.get(
            "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/pbw_pages_{os.getpid()}_bench"))

    # --- 1. the environment ------------------------------------------------------------

    def handle(self, *args, **opts):
        if os.environ.get(CHILD_FLAG) != "1":
            return self._parent(opts)
        result = self._run(opts)
        self.stdout.write(json.dumps(result) if opts["json"] else json.dumps(result, indent=2))

    def _parent(self, opts) -> None:
        url = opts["database_url"]
        if opts["reuse"]:
            url = url.rsplit("/", 1)[0] + "/pbw_pages_dev_bench"
            databases.create(url, keep=True)
        else:
            databases.create(url)
        redis_proc, redis_url, tmp = None, "", tempfile.mkdtemp(prefix="pbw-bench-pages-")
        server = shutil.which("redis-server")
        try:
            if server:
                port = _spare_port()
                redis_proc = subprocess.Popen(
                    [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--dir", tmp],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
                redis_url = f"redis://127.0.0.1:{port}/0"
                self._wait_port(port)
            env = dict(os.environ)
            env.update({
                CHILD_FLAG: "1", "DJANGO_SETTINGS_MODULE": "config.settings.base",
                "DATABASE_URL": url, "REDIS_URL": redis_url,
                "CELERY_TASK_ALWAYS_EAGER": "true", "EMAIL_URL": "locmem://",
                "ALLOWED_HOSTS": "testserver,localhost", "DEBUG": "false",
                "LOG_LEVEL": "ERROR", "PYTHONWARNINGS": "ignore",
                "SECRET_KEY": secrets.token_urlsafe(50),  # this run only
                "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
            })
            argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "bench_pages",
                    "--iterations", str(opts["iterations"]), "--closes", str(opts["closes"]),
                    "--database-url", url]
            if opts["only"]:
                argv += ["--only", opts["only"]]
            if opts["profile"]:
                argv += ["--profile", opts["profile"]]
            if opts["reuse"]:
                argv.append("--reuse")
            if opts["json"]:
                argv.append("--json")
            done = subprocess.run(argv, env=env, cwd=settings.BASE_DIR, capture_output=True,
                                  text=True)
            self.stdout.write(done.stdout.rstrip())
            if not opts["json"] and done.stderr:
                self.stderr.write(done.stderr.rstrip())
            if done.returncode != 0:
                self.stderr.write(done.stderr[-4000:])
                raise CommandError(f"bench failed (exit {done.returncode})")
        finally:
            if redis_proc is not None:
                os.killpg(redis_proc.pid, signal.SIGTERM)
                redis_proc.wait(timeout=10)
            shutil.rmtree(tmp, ignore_errors=True)
            if not opts["reuse"]:
                databases.drop(url)

    @staticmethod
    def _wait_port(port: int) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise CommandError("redis-server did not start")

    # --- 2. the matches ----------------------------------------------------------------

    def _say(self, opts, text: str) -> None:
        if not opts["json"]:
            self.stderr.write(text)

    def _run(self, opts) -> dict[str, Any]:
        from django.db import connection
        from django.test.utils import override_settings

        if connection.vendor != "postgresql":
            raise CommandError("The bench needs PostgreSQL.")
        override_settings(ROOT_URLCONF="bench.urls").enable()  # the floor's address
        call_command("migrate", interactive=False, verbosity=0)
        only = {n for n in opts["only"].split(",") if n}
        want = (lambda name: not only or name in only)  # noqa: E731
        t0 = time.monotonic()
        self._results: list[dict[str, Any]] = []
        self._floor_ms: list[float] = []
        self._floor_cpu: list[float] = []
        pages: list[tuple[str, Any, str, dict[str, str], int]] = []
        reuse = opts["reuse"]
        from django.urls import reverse

        director = self._director()
        kg30 = None
        if want("kg30_t3") or want("director_kg30") or want("director_close"):
            kg30, reader = self._reused("Kill Game 30", reuse) or self._killgame(30, "a")
            self._advance_kg(kg30, turn=3)
            if want("kg30_t3"):
                pages.append(("kg30_t3", reader, self._detail(kg30), {}, 200))
            if want("director_kg30"):
                pages.append(("director_kg30", director,
                              reverse("admin:games_match_change", args=[kg30.pk]), {}, 200))
        if want("kg100_t3") or want("kg100_t9") or want("kg_poll_204"):
            found = self._reused("Kill Game 100", reuse)
            match, reader = found or self._killgame(100, "b")
            self._advance_kg(match, turn=3)
            if want("kg100_t3") and not found:
                pages.append(("kg100_t3", reader, self._detail(match), {}, 200))
                self._measure_all(pages, opts)  # measured now: the same match moves on
            self._advance_kg(match, turn=9)
            reader = self._living_reader(match, reader)
            if want("kg100_t9"):
                pages.append(("kg100_t9", reader, self._detail(match), {}, 200))
            if want("kg_poll_204"):
                pages.append(("kg_poll_204", reader, "poll:" + self._detail(match),
                              {"HX-Request": "true"}, 204))
        if want("sgs10"):
            match, reader = self._reused("Table of ten", reuse) or self._sanguosha(10)
            pages.append(("sgs10", reader, reverse("sanguosha:table", args=[match.pk]), {}, 200))
        if want("ds_versus"):
            match, reader = self._reused("ds_0 vs ds_1", reuse) or self._diceslayer()
            pages.append(("ds_versus", reader, reverse("diceslayer:play", args=[match.pk]), {},
                          200))
        if want("lobby100") or want("admin_matches"):
            found = self._reused("Public match 0", reuse)
            reader = found[1] if found else self._lobby(100)
            if want("lobby100"):
                pages.append(("lobby100", reader, "/?status=running", {}, 200))
            if want("admin_matches"):
                pages.append(("admin_matches", director, reverse("admin:games_match_changelist"),
                              {}, 200))
        self._say(opts, f"built in {time.monotonic() - t0:.1f}s")
        self._measure_all(pages, opts)
        healthz = self._time(None, "/healthz", {}, 200, opts, name="healthz")
        closes = (self._director_close(kg30, director, opts)
                  if kg30 is not None and want("director_close") else None)
        floor_ms = round(statistics.median(self._floor_ms), 3) if self._floor_ms else None
        return {
            "floor_ms": floor_ms,
            "floor_cpu_ms": (round(statistics.median(self._floor_cpu), 3)
                             if self._floor_cpu else None),
            "floor": "a trivial view (bench/urls.py) through the whole middleware stack, "
                     "requested after each timed page request by the same client",
            "pages": self._results,
            "healthz": {k: healthz[k] for k in ("ms", "ratio", "cpu_ms", "queries")},
            "director_close": closes,
            "over_limit": [p["name"] for p in self._results
                           if p.get("limit") is not None and p["ratio"] > p["limit"]]
                          + [p["name"] + " (cold)" for p in self._results
                             if "cold_ratio" in p and p["cold_ratio"] > COLD_LIMIT],
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "cpu_count": os.cpu_count(),
            "database": "postgresql (own database on the shared server)",
            "cache": "redis (own redis-server)" if os.environ.get("REDIS_URL") else "locmem",
            "session_engine": settings.SESSION_ENGINE,
            "iterations": opts["iterations"],
            "method": "django.test.Client in-process, median of the timed requests",
        }

    def _director(self):
        """A staff director (a superuser, as the admin's director pages ask)."""
        from django.contrib.auth import get_user_model

        User = get_user_model()
        found = User.objects.filter(username="bench_director").first()
        return found or User.objects.create_superuser("bench_director",
                                                      "director@example.com", None)

    def _director_close(self, match, director, opts) -> dict[str, Any]:
        """The admin's "Close phase now" on ``match``, POSTed and timed until it answers.
        The tasks the close queues go to the bench's Redis on commit, as deployed (not
        inline, which would time the emails' rendering too); nothing consumes them."""
        from django.db import connection
        from django.test import Client
        from django.urls import reverse

        from config.celery import app
        from games.models import Phase

        if not os.environ.get("REDIS_URL"):
            return {"skipped": "no redis-server: the close's tasks would run inline"}
        client = Client()
        client.force_login(director)
        url = reverse("admin:games_match_do", args=[match.pk, "close_now"])
        eager = app.conf.task_always_eager
        app.conf.task_always_eager = False
        times, cpu, queries = [], [], 0
        try:
            for i in range(opts["closes"]):
                before = Phase.objects.filter(match=match, closed_at__isnull=False).count()
                counted: list[str] = []

                def count(execute, sql, params, many, context):
                    counted.append(sql)
                    return execute(sql, params, many, context)

                start, start_cpu = time.perf_counter(), time.process_time()
                with connection.execute_wrapper(count):
                    response = client.post(url)
                cpu.append(time.process_time() - start_cpu)
                times.append(time.perf_counter() - start)
                queries = max(queries, len(counted))
                after = Phase.objects.filter(match=match, closed_at__isnull=False).count()
                if response.status_code != 302 or after != before + 1:
                    raise CommandError(f"director close {i}: answered {response.status_code}, "
                                       f"{after - before} phase(s) closed")
        finally:
            app.conf.task_always_eager = eager
        match.refresh_from_db()
        players = match.seats.filter(number__isnull=False).count()
        out = {"ms": round(statistics.median(times) * 1000, 1),
               "ms_max": round(max(times) * 1000, 1),
               "cpu_ms": round(statistics.median(cpu) * 1000, 1), "closes": len(times),
               "queries_max": queries, "players": players,
               "limit_ms": DIRECTOR_CLOSE_LIMIT_MS,
               "method": "POST /admin/games/match/<id>/do/close_now/ until its redirect"}
        self._say(opts, f"director_close: {out}")
        return out

    def _reused(self, name: str, reuse: bool):
        """(match, its creator) from an earlier ``--reuse`` run, or None."""
        from games.models import Match

        match = Match.objects.filter(name=name).select_related("created_by").first()
        if not reuse or match is None:
            return None
        return match, match.created_by

    def _detail(self, match) -> str:
        from django.urls import reverse

        return reverse("games:match-detail", args=[match.pk])

    def _users(self, prefix: str, n: int) -> list[Any]:
        from django.contrib.auth import get_user_model

        User = get_user_model()
        return [User.objects.create_user(f"{prefix}{i}", f"{prefix}{i}@example.com", None)
                for i in range(n)]

    def _killgame(self, players: int, prefix: str):
        from games.services.matches import match_create, match_join, match_start

        users = self._users(f"kg{prefix}{players}_", players)
        match = match_create(game="killgame", name=f"Kill Game {players}", created_by=users[0],
                             config={"max_players": 100, "min_players": 2}, min_players=2,
                             max_players=100, bots_enabled=True)
        for user in users:
            match_join(match=match, user=user)
        match_start(match=match, actor=users[0])
        match.refresh_from_db()
        return match, users[0]

    def _close_open(self, match) -> bool:
        from games.models import Phase
        from games.services.phases import phase_close

        phase = Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()
        if phase is None:
            return False
        phase_close(phase_id=phase.pk, now=phase.deadline_at or phase.opens_at)
        match.refresh_from_db()
        return True

    def _advance_kg(self, match, *, turn: int) -> None:
        from games.models import Phase

        for _ in range(4 * turn + 4):
            phase = Phase.objects.filter(match=match, closed_at__isnull=True).first()
            if phase is None:
                raise CommandError(f"the Kill Game match ended before turn {turn}")
            if phase.turn >= turn:
                return
            self._close_open(match)
        raise CommandError(f"turn {turn} not reached")

    def _living_reader(self, match, reader):
        """The reader if still alive, else the first living seat's user."""
        from games import selectors
        from games.models import Seat

        seats = Seat.objects.filter(match=match, number__isnull=False).select_related("user")
        by_user = {s.user_id: s for s in seats}
        order = [by_user[reader.pk]] + [s for s in seats if s.user_id != reader.pk]
        for seat in order:
            me = selectors.player_view_for(match, seat).get("me") or {}
            if me.get("alive"):
                return seat.user
        return reader

    def _sanguosha(self, players: int):
        from games import registry
        from games.services.matches import match_create, match_join, match_start

        game = registry.get_game("sanguosha")  # games/ reaches a game only through the registry
        users = self._users("sgs_", players)
        cfg = game.engine.validate_config({})
        match = match_create(game=game.slug, name="Table of ten", created_by=users[0],
                             config=cfg, min_players=4, max_players=10,
                             schedule=game.hooks.default_schedule(cfg), bots_enabled=True)
        for user in users:
            match_join(match=match, user=user, invite_code=match.invite_code)
        match_start(match=match, actor=users[0])
        for _ in range(40):  # characters chosen, a few turns of play
            if match.status != match.Status.RUNNING or not self._close_open(match):
                break
        return match, users[0]

    def _diceslayer(self):
        """A two-player versus game (what an accepted challenge starts), through the
        framework's services; the bot plays each turn at its deadline."""
        from games import registry
        from games.services.matches import match_create, match_join, match_start

        game = registry.get_game("diceslayer")
        a, b = self._users("ds_", 2)
        cfg = {"variant": "versus2", "target_score": 0}
        match = match_create(game=game.slug, name="ds_0 vs ds_1", created_by=a, config=cfg,
                             min_players=2, max_players=2, is_private=True,
                             schedule=game.hooks.default_schedule(cfg), bots_enabled=True)
        for user in (a, b):
            match_join(match=match, user=user, invite_code=match.invite_code)
        match_start(match=match, actor=a)
        match.refresh_from_db()
        for _ in range(12):
            if match.status != match.Status.RUNNING or not self._close_open(match):
                break
        return match, a

    def _lobby(self, count: int):
        """``count`` public running Kill Game matches of 12 players; the reader plays in
        three of them (their "My matches" list), like most visitors of the lobby."""
        from games.services.matches import match_create, match_join, match_start

        users = self._users("lobby_", 13)
        reader, players = users[0], users[1:]
        for i in range(count):
            match = match_create(game="killgame", name=f"Public match {i}", created_by=reader,
                                 config={"max_players": 30, "min_players": 2}, min_players=2,
                                 max_players=30)
            for user in players[:11] + ([reader] if i < 3 else players[11:]):
                match_join(match=match, user=user)
            match_start(match=match, actor=reader)
        return reader

    # --- 3. measuring --------------------------------------------------------------------

    def _measure_all(self, pages, opts) -> None:
        for name, user, url, headers, status in pages:
            result = self._time(user, url, headers, status, opts, name=name)
            self._results.append({"name": name, **result})
            self._say(opts, f"{name}: {result}")
        pages.clear()

    def _time(self, user, url: str, headers: dict[str, str], status: int, opts,
              name: str = "floor") -> dict[str, Any]:
        from django.db import connection
        from django.test import Client

        client = Client()
        if user is not None:
            client.force_login(user)
        if url.startswith("poll:"):
            page = client.get(url[5:])
            found = POLLER.search(page.content.decode())
            if not found:
                raise CommandError(f"{name}: the page has no poller")
            url = html.unescape(found.group(1))
        for _ in range(3):
            response = client.get(url, headers=headers)
            self._request(client, FLOOR_PATH, {})
        if response.status_code != status:
            raise CommandError(f"{name}: {url} answered {response.status_code}, not {status}")
        queries: list[str] = []

        def count(execute, sql, params, many, context):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            response = client.get(url, headers=headers)
        size = len(response.content)
        if opts["profile"] == name:  # the counted request's SQL, most repeated first
            for sql, n in Counter(queries).most_common(25):
                sys.stderr.write(f"{n:5d}  {sql[:300]}\n")
        gc.collect()
        gc.freeze()
        if opts["profile"] == name:
            self._profile(client, url, headers)
        times, cpu, floor, floor_cpu = [], [], [], []
        for _ in range(opts["iterations"]):
            wall, used = self._request(client, url, headers)
            times.append(wall)
            cpu.append(used)
            wall, used = self._request(client, FLOOR_PATH, {})
            floor.append(wall)
            floor_cpu.append(used)
        self._floor_ms += [t * 1000 for t in floor]
        self._floor_cpu += [t * 1000 for t in floor_cpu]
        # cpu_ms: this process's CPU time (the database and Redis run elsewhere); on a
        # shared machine it moves less than the wall-clock ms when the cores are busy
        ms, floor_ms = statistics.median(times), statistics.median(floor)
        out = {"ms": round(ms * 1000, 2), "ratio": round(ms / floor_ms, 2),
               "limit": LIMITS.get(name), "floor_ms": round(floor_ms * 1000, 3),
               "queries": len(queries), "bytes": size,
               "cpu_ms": round(statistics.median(cpu) * 1000, 2),
               "ratio_cpu": round(statistics.median(cpu) / statistics.median(floor_cpu), 2)}
        if status == 200 and name.startswith("kg"):
            out.update(self._cold(client, url, headers, opts))
        return out

    @staticmethod
    def _request(client, url: str, headers: dict[str, str]) -> tuple[float, float]:
        """(wall seconds, this process's CPU seconds) of one GET."""
        start, start_cpu = time.perf_counter(), time.process_time()
        client.get(url, headers=headers)
        return time.perf_counter() - start, time.process_time() - start_cpu

    def _cold(self, client, url: str, headers: dict[str, str], opts) -> dict[str, Any]:
        """The first load after a change: every fragment rendered anew (a new key prefix
        each time, as after a version bump; the diary sentences stay cached, as they do),
        and what a process keeps under the match's version (the away periods and seat
        notes, players/away.py) read again, as the first reader after a close finds it."""
        from games.lib import htmlcache
        from players import away

        real = htmlcache.code_version
        times, cpu, floor = [], [], []
        try:
            for i in range(max(5, opts["iterations"] // 4)):
                htmlcache.code_version = lambda i=i: f"bench-cold-{os.getpid()}-{i}"
                away._away_kept.clear()
                wall, used = self._request(client, url, headers)
                times.append(wall)
                cpu.append(used)
                floor.append(self._request(client, FLOOR_PATH, {})[0])
        finally:
            htmlcache.code_version = real
        ms = statistics.median(times)
        return {"cold_ms": round(ms * 1000, 2),
                "cold_ratio": round(ms / statistics.median(floor), 2),
                "cold_limit": COLD_LIMIT,
                "cold_cpu_ms": round(statistics.median(cpu) * 1000, 2)}

    def _profile(self, client, url: str, headers: dict[str, str]) -> None:
        import cProfile
        import io
        import pstats

        from games.lib import htmlcache

        cold = os.environ.get("BENCH_PROFILE_COLD") == "1"  # every fragment rendered anew
        real = htmlcache.code_version
        prof = cProfile.Profile()
        try:
            for i in range(20):
                if cold:
                    htmlcache.code_version = lambda i=i: f"bench-profile-{os.getpid()}-{i}"
                prof.enable()
                client.get(url, headers=headers)
                prof.disable()
            if cold:  # one more cold request: its queries, most repeated first
                from django.db import connection

                htmlcache.code_version = lambda: f"bench-profile-{os.getpid()}-q"
                queries: list[str] = []

                def count(execute, sql, params, many, context):
                    queries.append(sql)
                    return execute(sql, params, many, context)

                with connection.execute_wrapper(count):
                    client.get(url, headers=headers)
                sys.stderr.write(f"cold: {len(queries)} queries\n")
                for sql, n in Counter(queries).most_common(25):
                    sys.stderr.write(f"{n:5d}  {sql[:200]}\n")
        finally:
            htmlcache.code_version = real
        if os.environ.get("BENCH_PROFILE_OUT"):  # a file for pstats / snakeviz
            prof.dump_stats(os.environ["BENCH_PROFILE_OUT"])
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(os.environ.get("BENCH_PROFILE_SORT", "cumulative")).print_stats(60)
        sys.stderr.write(out.getvalue())
