"""``manage.py bench_deadlines --matches 1000 --json``: many phases falling due at the same
instant, closed by the real beat and real Celery worker processes on PostgreSQL + Redis,
next to the engine floor measured in the same run.

Steps:

1. Unless already inside the bench environment, re-run itself with one: a PostgreSQL
   database of its own (``pbw_deadlines_<pid>_bench`` on the configured server, dropped at
   the end), a ``redis-server`` of its own on a spare port, Celery *not* eager,
   ``CELERY_BEAT_SWEEP_SECONDS`` from ``--beat-seconds``, email to ``locmem`` (the outbox
   rows are real; nothing leaves the machine).
2. Migrate that database.
3. Create ``--matches`` running matches of ``--game`` (``guess`` registers the tests'
   guess-a-number game here and in the workers via ``bench.devgames``) with
   ``--players`` each, through the real services.
4. **The engine floor**: the same matches' positions resolved in this process with no
   database (load, the default orders of every awaited seat, resolve, dump, the next
   phase and the outcome), CPU seconds ÷ the cores (``engine_floor_seconds``).
5. **The close, profiled**: ``--profile-closes`` of those matches closed in this process
   in a transaction that is rolled back: queries, rows written per close by table, CPU
   per close split into the rules, the diary rows, the outbox rows and the writes.
6. Start ``--workers`` Celery workers of ``--concurrency`` processes on the clock and
   default queues, one worker of ``--mail-concurrency`` processes on the mail queue (as
   docker-compose.yml deploys them; 0: the first workers take mail too) and Celery beat;
   wait until the workers answer a ping.
7. Set every open phase's deadline to the same instant T (a beat and a second ahead) and
   poll until every phase closed or ``--timeout``: closes/s and the workers' memory at
   each tenth of the matches, the sessions waiting on a lock. Then wait for the emails to
   go out.
8. Stop beat and the workers; print the numbers (JSON with ``--json``): ``matches``,
   ``closed``, ``closed_twice`` (matches with more than one closed phase: the next phases'
   deadlines are a day away, so any second close is a double), ``seconds`` (T → the last
   close's commit, from the snapshots' insert time), ``first_close_seconds`` (T → the
   first close's commit: how late the clock starts), ``engine_floor_seconds``, ``ratio``
   (seconds ÷ floor), ``closes_per_s``, ``emails_queued``,
   ``emails_drain_seconds_after_last_close`` (the last close's commit → the last email
   marked sent), ``progress`` and ``scale`` (closes/s and the workers' memory in the
   first tenth against the last: ``--matches 10000`` shows how they grow from 1,000 to
   10,000 matches) and more.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from importlib import import_module
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Count, Max, Min
from django.utils.timezone import now as timezone_now

from bench import databases, procstats

DEV_GAMES = {"guess": "tests.games.guessgame"}
CHILD_FLAG = "PBW_BENCH_CHILD"


def _scale(progress: list[dict]) -> dict:
    """How the storm grows with its size, from ``progress`` (a mark at each tenth of the
    matches): closes/s and the workers' memory in the first tenth against the last (flat
    is the goal: ``closes_per_s_last_over_first`` near 1, ``rss_last_over_first`` too)."""
    if len(progress) < 2:
        return {}
    first, last = progress[0], progress[-1]
    rates = [p["closes_per_s_window"] for p in progress]
    return {
        "closes_per_s_first_tenth": first["closes_per_s_window"],
        "closes_per_s_last_tenth": last["closes_per_s_window"],
        "closes_per_s_last_over_first": (round(last["closes_per_s_window"]
                                               / first["closes_per_s_window"], 2)
                                         if first["closes_per_s_window"] else None),
        "closes_per_s_min": min(rates), "closes_per_s_max": max(rates),
        "rss_mb_first_tenth": first["workers_rss_mb"], "rss_mb_last": last["workers_rss_mb"],
        "rss_last_over_first": (round(last["workers_rss_mb"] / first["workers_rss_mb"], 2)
                                if first["workers_rss_mb"] else None),
    }


class Command(BaseCommand):
    help = "Benchmark: N matches due at once, closed by real beat + Celery workers (JSON out)."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=1000)
        parser.add_argument("--game", default="guess")
        parser.add_argument("--players", type=int, default=None,
                            help="seats per match (default: 3 for guess, the game's minimum "
                                 "or 12 for killgame)")
        parser.add_argument("--json", action="store_true", help="print only the JSON result")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--concurrency", type=int, default=1,
                            help="processes per worker")
        parser.add_argument("--mail-concurrency", type=int, default=4,
                            help="processes of a worker of its own on the mail queue, as "
                                 "docker-compose.yml's worker-mail (0: the --workers take "
                                 "the mail queue too)")
        parser.add_argument("--beat-seconds", type=int, default=1)
        parser.add_argument("--timeout", type=float, default=120.0)
        parser.add_argument("--drain-timeout", type=float, default=60.0,
                            help="after the closes, wait this long for the emails to go out")
        parser.add_argument("--profile-closes", type=int, default=50,
                            help="matches closed in-process (rolled back) for the close's "
                                 "profile; 0: none")
        parser.add_argument("--database-url", default=os.environ.get(
            "BENCH_DATABASE_URL",
            f"postgres://postgres@127.0.0.1:5432/pbw_deadlines_{os.getpid()}_bench"))
        parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", ""),
                            help="default: a redis-server of the bench's own on a spare port "
                                 "(a shared Redis is never flushed under someone else)")

    # --- 1. the environment ------------------------------------------------------------

    def handle(self, *args, **opts):
        if os.environ.get(CHILD_FLAG) != "1":
            return self._reexec(opts)
        if connection.vendor != "postgresql" or settings.CELERY_TASK_ALWAYS_EAGER:
            raise CommandError("The bench needs PostgreSQL and a real broker (not eager).")
        result = self._run(opts)
        if opts["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.stdout.write(json.dumps(result, indent=2))

    def _child_env(self, opts) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            CHILD_FLAG: "1",
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DATABASE_URL": opts["database_url"],
            "REDIS_URL": opts["redis_url"],
            "CELERY_BROKER_URL": opts["redis_url"],
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_BEAT_SWEEP_SECONDS": str(opts["beat_seconds"]),
            "EMAIL_URL": "locmem://",
            "LOG_LEVEL": "WARNING",
        })
        # the children share one throwaway key (settings fail closed without one)
        env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
        if opts["game"] in DEV_GAMES:
            env["PBW_DEV_GAMES"] = DEV_GAMES[opts["game"]]
        return env

    def _reexec(self, opts) -> None:
        if not opts["redis_url"]:
            from bench.management.commands.bench_email import start_redis, stop_process

            redis_proc, opts["redis_url"] = start_redis(tempfile.mkdtemp(prefix="pbw-bench-"))
            try:
                return self._reexec(opts)
            finally:
                stop_process(redis_proc)
        try:
            databases.create(opts["database_url"])
        except databases.NotABenchDatabase as exc:
            raise CommandError(str(exc)) from exc
        try:
            self._run_child(opts)
        finally:
            databases.drop(opts["database_url"])

    def _run_child(self, opts) -> None:
        argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "bench_deadlines",
                "--matches", str(opts["matches"]), "--game", opts["game"],
                "--workers", str(opts["workers"]), "--concurrency", str(opts["concurrency"]),
                "--mail-concurrency", str(opts["mail_concurrency"]),
                "--beat-seconds", str(opts["beat_seconds"]), "--timeout", str(opts["timeout"]),
                "--drain-timeout", str(opts["drain_timeout"]),
                "--profile-closes", str(opts["profile_closes"]),
                "--database-url", opts["database_url"], "--redis-url", opts["redis_url"]]
        if opts["players"] is not None:
            argv += ["--players", str(opts["players"])]
        if opts["json"]:
            argv.append("--json")
        done = subprocess.run(argv, env=self._child_env(opts), cwd=settings.BASE_DIR,
                              capture_output=True, text=True)
        self.stdout.write(done.stdout.rstrip())
        if done.returncode != 0:
            self.stderr.write(done.stderr[-4000:])
            raise CommandError(f"bench failed (exit {done.returncode})")

    # --- 2.-6. the bench itself -------------------------------------------------------

    def _say(self, opts, text: str) -> None:
        if not opts["json"]:
            self.stderr.write(text)

    def _run(self, opts) -> dict:
        from games import registry

        if opts["game"] in DEV_GAMES:
            registry.register(import_module(DEV_GAMES[opts["game"]]))
        entry = registry.get_game(opts["game"])
        players = opts["players"] or (3 if opts["game"] == "guess" else
                                      12 if opts["game"] == "killgame" else entry.min_seats)
        call_command("migrate", interactive=False, verbosity=0)
        import redis

        redis.Redis.from_url(opts["redis_url"]).flushdb()

        t = time.monotonic()
        self._create_matches(entry, opts["matches"], players)
        setup_seconds = time.monotonic() - t
        self._say(opts, f"created {opts['matches']} matches in {setup_seconds:.1f}s")

        floor = self._engine_floor(entry)
        self._say(opts, f"engine floor: {floor}")
        profile = self._close_profile(opts["profile_closes"]) if opts["profile_closes"] else {}
        self._say(opts, f"close profile: {profile}")
        procs = self._start_celery(opts)
        try:
            self._wait_for_workers(opts["workers"] + (1 if opts["mail_concurrency"] else 0),
                                   timeout=60)
            result = self._measure(opts, players, setup_seconds, procs)
        finally:
            self._stop(procs)
        result.update(floor)
        if result.get("seconds") and floor["engine_floor_seconds"]:
            result["ratio"] = round(result["seconds"] / floor["engine_floor_seconds"], 2)
            # the same comparison in CPU: what the storm cost the workers and the database,
            # spread over the cores, against the engine's own CPU; unlike ``ratio`` it
            # does not grow with what other work shares the machine
            storm_cpu = (result["storm_cpu_seconds_clock_workers"]
                         + result["storm_cpu_seconds_database"])
            result["ratio_cpu"] = round(storm_cpu / floor["cores"]
                                        / floor["engine_floor_seconds"], 2)
        result["close_profile"] = profile
        return result

    def _engine_floor(self, entry) -> dict:
        """The rules alone on the same positions: every open phase's match state loaded,
        the awaited seats' default orders submitted, resolved with the phase's seed,
        dumped, the next phase and the outcome asked: this process's CPU seconds (the
        database reads are not counted), divided by the cores the workers share."""
        from games.models import Phase
        from games.rules import RulesError

        import gc

        engine = entry.engine
        cpu = 0.0
        resolved = 0
        gc.collect()
        gc.freeze()  # as the workers' pool processes do (config/celery.py), thresholds too
        threshold = gc.get_threshold()
        if settings.WORKER_GC_THRESHOLD:
            gc.set_threshold(*settings.WORKER_GC_THRESHOLD)
        rows = (Phase.objects.filter(closed_at__isnull=True, number=1)
                .values_list("seed", "awaited", "match__state", "match__bots_enabled")
                .iterator(chunk_size=200))
        for seed, awaited, state_json, bots in rows:
            started = time.process_time()
            state = engine.load(state_json)
            for number in awaited:
                orders = (engine.bot_orders(state, number, seed) if bots
                          else engine.default_orders(state, number))
                for order in orders:
                    try:
                        state = engine.submit(state, number, order).state
                    except RulesError:
                        continue
            resolution = engine.resolve(state, seed)
            engine.dump(resolution.state)
            if engine.outcome(resolution.state) is None:
                engine.current_phase(resolution.state)
            cpu += time.process_time() - started
            resolved += 1
        gc.set_threshold(*threshold)
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
        return {"engine_cpu_seconds": round(cpu, 3), "engine_positions": resolved,
                "cores": cores, "engine_floor_seconds": round(cpu / cores, 3)}

    def _close_profile(self, count: int) -> dict:
        """``count`` of the matches closed here exactly as the sweep closes them (one batch
        transaction each ``CLOSE_BATCH``), then rolled back: what one close costs and
        writes, by part."""
        from collections import Counter

        from django.db.models.signals import post_save  # noqa: F401 - (bulk: none fire)
        from django.test.utils import CaptureQueriesContext

        from games.models import DiaryEntry, Notification, Order, Phase, Snapshot
        from games.services import notifications, phases

        class Rollback(Exception):
            pass

        spent: Counter[str] = Counter()
        rows: Counter[str] = Counter()
        wrapped = {}

        def timed(owner, name, label):
            real = getattr(owner, name)
            wrapped[(owner, name)] = real

            def run(*args, **kwargs):
                started = time.process_time()
                try:
                    return real(*args, **kwargs)
                finally:
                    spent[label] += time.process_time() - started
            setattr(owner, name, run)

        ids = list(Phase.objects.filter(closed_at__isnull=True, number=1)
                   .order_by("pk").values_list("pk", flat=True)[:count])
        before = {model: model.objects.count()
                  for model in (DiaryEntry, Notification, Order, Snapshot, Phase)}
        engine_owner = phases
        timed(engine_owner, "_resolve_one", "resolve_in_memory (rules, diary rows, snapshot)")
        timed(phases, "diary_rows", "diary_rows")
        timed(notifications, "new_phase_rows", "outbox_rows")
        timed(notifications, "notifications_create_bulk", "outbox_insert")
        timed(phases, "_write", "writes (bulk inserts, updates, outbox)")
        queries = 0
        total = 0.0
        import gc

        threshold = gc.get_threshold()
        if settings.WORKER_GC_THRESHOLD:  # as in the workers' pool processes
            gc.set_threshold(*settings.WORKER_GC_THRESHOLD)
        try:
            with transaction.atomic():
                with CaptureQueriesContext(connection) as captured:
                    started = time.process_time()
                    for start in range(0, len(ids), phases.CLOSE_BATCH):
                        phases._close_many(phase_ids=ids[start:start + phases.CLOSE_BATCH],
                                           now=timezone_now(), skip_locked=True,
                                           require_ready=False, force=True)
                    total = time.process_time() - started
                queries = len(captured.captured_queries)
                for model, n in before.items():
                    rows[model.__name__] = model.objects.count() - n
                raise Rollback
        except Rollback:
            pass
        finally:
            gc.set_threshold(*threshold)
            for (owner, name), real in wrapped.items():
                setattr(owner, name, real)
        closes = max(len(ids), 1)
        return {
            "closes": len(ids), "queries": queries,
            "queries_per_close": round(queries / closes, 2),
            "rows_per_close": {name: round(n / closes, 1) for name, n in rows.items()},
            "cpu_ms_per_close": {"total": round(1000 * total / closes, 2),
                                 **{label: round(1000 * v / closes, 2)
                                    for label, v in spent.items()}},
        }

    def _create_matches(self, entry, count: int, players: int) -> None:
        """``count`` running matches, row for row what ``match_create`` + ``match_join`` +
        ``match_start`` write (engine setup with each match's own seed, seats numbered,
        start snapshot, first phase with its seed and deadline), inserted in bulk: the
        services take minutes for a thousand matches on a busy 2-core box, and the bench
        measures the close, not the setup. The first match goes through the services, and
        the bulk rows are checked against it."""
        from django.contrib.auth import get_user_model

        from accounts.models import Profile
        from games.lib.seeds import phase_seed
        from games.models import Match, Phase, Seat, Snapshot, new_invite_code, new_seed
        from games.services.matches import match_create, match_join, match_start
        from games.services.schedule import deadline_for

        User = get_user_model()
        users = [User.objects.create_user(f"bench{i}", f"bench{i}@example.com", None)
                 for i in range(players)]
        # per-phase mail on (the outbox is measured), start mails and reminders off
        Profile.objects.filter(user__in=users).update(
            email_mode=Profile.EmailMode.PER_PHASE, email_match_events=False, reminder_hours=0)
        low, high = min(players, entry.max_seats), max(players, entry.min_seats)
        model = match_create(game=entry.slug, name="bench 0", min_players=low, max_players=high)
        for user in users:
            match_join(match=model, user=user)
        match_start(match=model)
        engine = entry.engine
        now = timezone_now()
        for start in range(1, count, 250):
            size = min(250, count - start)
            with transaction.atomic():
                matches = Match.objects.bulk_create([Match(
                    game=entry.slug, name=f"bench {start + i}", status=Match.Status.RUNNING,
                    config=model.config, min_players=low, max_players=high,
                    timezone=model.timezone, schedule=model.schedule, seed=new_seed(),
                    invite_code=new_invite_code(), started_at=now, version=1)
                    for i in range(size)])
                seats, snaps, phases = [], [], []
                for match in matches:
                    state = engine.setup(match.config, list(range(players)), match.seed)
                    match.state = engine.dump(state)
                    spec = engine.current_phase(state)
                    seats += [Seat(match=match, user=user, number=n) for n, user in enumerate(users)]
                    snaps.append(Snapshot(match=match, phase=None, state=match.state))
                    phases.append(Phase(
                        match=match, number=1, kind=spec.kind, turn=spec.turn,
                        seed=phase_seed(match.seed, 1), opens_at=now,
                        deadline_at=deadline_for(schedule=match.schedule,
                                                 timezone_name=match.timezone, kind=spec.kind,
                                                 timing=spec.timing, now=now),
                        awaited=sorted(spec.awaited),
                        close_when_all_checked_in=spec.close_when_all_checked_in,
                        checkin_final=spec.checkin_final, default_text=spec.default_text[:300]))
                Match.objects.bulk_update(matches, ["state"])
                Seat.objects.bulk_create(seats)
                Snapshot.objects.bulk_create(snaps)
                Phase.objects.bulk_create(phases)
        first = Phase.objects.get(match=model)
        twin = Phase.objects.filter(number=1).exclude(match=model).first()
        if twin is not None:
            assert (twin.kind, twin.awaited, twin.turn) == (first.kind, first.awaited, first.turn)

    def _start_celery(self, opts) -> list[subprocess.Popen]:
        celery = shutil.which("celery", path=str(Path(sys.executable).parent)) or "celery"
        env = dict(os.environ)
        self._tmp = tempfile.mkdtemp(prefix="pbw-bench-")
        procs = []
        mail = opts["mail_concurrency"]
        # the clock (and default) workers; the mail worker apart, as deployed
        layout = [(f"bench{i}", "clock,default" if mail else "clock,mail,default",
                   opts["concurrency"]) for i in range(opts["workers"])]
        if mail:
            layout.append(("benchmail", "mail", mail))
        for name, queues, concurrency in layout:
            procs.append(subprocess.Popen(
                [celery, "-A", "config", "worker", "-l", "WARNING", "-n", f"{name}@%h",
                 "--concurrency", str(concurrency), "-Q", queues,
                 "--without-gossip",
                 "--without-mingle", "--include", "bench.devgames"],
                env=env, cwd=settings.BASE_DIR, start_new_session=True,
                stdout=subprocess.DEVNULL, stderr=open(Path(self._tmp) / f"{name}.log", "w")))
        procs.append(subprocess.Popen(
            [celery, "-A", "config", "beat", "-l", "WARNING", "--pidfile=",
             "-s", str(Path(self._tmp) / "beat-schedule")],
            env=env, cwd=settings.BASE_DIR, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=open(Path(self._tmp) / "beat.log", "w")))
        return procs

    def _wait_for_workers(self, count: int, timeout: float) -> None:
        from config.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(app.control.ping(timeout=0.5) or []) >= count:
                return
        raise CommandError(f"the Celery workers did not answer within {timeout:.0f}s "
                           f"(logs in {self._tmp})")

    def _measure(self, opts, players: int, setup_seconds: float,
                 procs: list[subprocess.Popen]) -> dict:
        from games.models import Notification, Phase, Snapshot, SweepHeartbeat

        # The sweeper is alive from here on: seeding and the floor of many matches outlast
        # the dead-man switch, whose first sweep would otherwise take them for an outage and
        # push every deadline past the storm by its length (10,000 matches closed nothing).
        SweepHeartbeat.objects.update_or_create(pk=1, defaults={"last_run_at": timezone_now()})
        # T comes after the next beat (as a deadline set long before): the sweep that sees
        # it ahead schedules itself for that instant, as in production
        due_at = timezone_now() + timedelta(seconds=opts["beat_seconds"] + 1)
        Phase.objects.filter(closed_at__isnull=True).update(deadline_at=due_at)
        matches = opts["matches"]
        first = Phase.objects.filter(number=1)
        pids = [p.pid for p in procs]
        clock_pids = pids[:opts["workers"]]
        cpu_before = self._storm_cpu(clock_pids, {})
        observed = None
        progress: list[dict] = []
        step = max(matches // 10, 1)
        next_mark, last_mark = step, (0, 0.0)
        lock_samples: list[int] = []
        peak_rss = 0.0
        started = time.monotonic()
        limit = started + opts["timeout"]
        while time.monotonic() < limit:
            closed_now = first.filter(closed_at__isnull=False).count()
            lock_samples.append(self._lock_waiters())
            if closed_now >= next_mark or closed_now >= matches:
                elapsed = time.monotonic() - started
                rss = procstats.tree_rss_mb(pids)
                peak_rss = max(peak_rss, rss)
                window = max(elapsed - last_mark[1], 1e-9)
                progress.append({"closed": closed_now, "seconds": round(elapsed, 2),
                                 "closes_per_s_window": round((closed_now - last_mark[0])
                                                              / window, 1),
                                 "workers_rss_mb": rss})
                last_mark = (closed_now, elapsed)
                while next_mark <= closed_now:
                    next_mark += step
            if closed_now >= matches:
                observed = (timezone_now() - due_at).total_seconds()
                break
            time.sleep(0.1)
        cpu_after = self._storm_cpu(clock_pids, cpu_before["backends"])
        closed = first.filter(closed_at__isnull=False).count()
        commits = Snapshot.objects.filter(phase__number=1).aggregate(
            first=Min("created_at"), last=Max("created_at"))
        last_commit = commits["last"]
        seconds = (last_commit - due_at).total_seconds() if last_commit else None
        twice = (Phase.objects.filter(closed_at__isnull=False).values("match")
                 .annotate(n=Count("id")).filter(n__gt=1).count())
        emails = Notification.objects.filter(created_at__gte=due_at)
        # then let the workers drain the outbox (sent after the closes, by design)
        drain_started = time.monotonic()
        while time.monotonic() - drain_started < opts["drain_timeout"]:
            if not emails.filter(sent_at__isnull=True, failed_at__isnull=True).exists():
                break
            peak_rss = max(peak_rss, procstats.tree_rss_mb(pids))
            time.sleep(0.25)
        unsent = emails.filter(sent_at__isnull=True, failed_at__isnull=True).count()
        last_sent = emails.aggregate(t=Max("sent_at"))["t"]
        drained = (round((last_sent - last_commit).total_seconds(), 3)
                   if unsent == 0 and last_sent and last_commit else None)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_database_size(current_database())")
            database_mb = round(cursor.fetchone()[0] / 2**20, 1)
        return {
            "matches": matches, "game": opts["game"], "players": players,
            "closed": closed, "closed_twice": twice,
            "seconds": round(seconds, 3) if seconds is not None else None,
            "observed_seconds": round(observed, 3) if observed is not None else None,
            # T → the first close's commit: how late the clock starts on a deadline
            "first_close_seconds": (round((commits["first"] - due_at).total_seconds(), 3)
                                    if commits["first"] else None),
            "closes_per_s": round(closed / seconds, 1) if seconds else None,
            "emails_queued": emails.count(),
            "emails_sent": emails.filter(sent_at__isnull=False).count(),
            "emails_drain_seconds_after_last_close": drained,
            "progress": progress,
            "scale": _scale(progress),
            # CPU spent on the storm, whatever else the machine runs: the clock workers
            # (with their pool processes) and the PostgreSQL sessions of this database
            "storm_cpu_seconds_clock_workers": round(cpu_after["workers"]
                                                     - cpu_before["workers"], 2),
            "storm_cpu_seconds_database": round(cpu_after["database"], 2),
            "workers_rss_mb_peak": peak_rss,
            "database_mb": database_mb,
            "lock_waiters": {"samples": len(lock_samples),
                             "max": max(lock_samples, default=0),
                             "mean": round(sum(lock_samples) / len(lock_samples), 2)
                             if lock_samples else 0},
            "workers": opts["workers"], "concurrency": opts["concurrency"],
            "mail_concurrency": opts["mail_concurrency"],
            "beat_seconds": opts["beat_seconds"], "setup_seconds": round(setup_seconds, 1),
            "all_closed": closed == matches, "timed_out": observed is None,
            "load_average_1min": round(os.getloadavg()[0], 1),
        }

    @staticmethod
    def _storm_cpu(clock_pids: list[int], backends_before: dict[int, float]) -> dict:
        """CPU seconds of the clock workers so far, and of this database's PostgreSQL
        sessions since ``backends_before`` (their CPU then, by pid; a session that
        connected later counts from zero)."""

        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = "
                           "current_database() AND pid <> pg_backend_pid()")
            backends = {pid: procstats.cpu_seconds(pid) for (pid,) in cursor.fetchall()}
        database = sum(cpu - backends_before.get(pid, 0.0) for pid, cpu in backends.items())
        return {"workers": procstats.tree_cpu_seconds(clock_pids), "backends": backends,
                "database": database}

    @staticmethod
    def _lock_waiters() -> int:
        """Sessions of this database waiting on a lock right now (the sweepers' and the
        senders' row locks)."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'")
            return int(cursor.fetchone()[0])

    def _stop(self, procs: list[subprocess.Popen]) -> None:
        for proc in procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
