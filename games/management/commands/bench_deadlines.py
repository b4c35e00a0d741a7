"""``manage.py bench_deadlines --matches 1000 --json``: many phases falling due at the same
instant, closed by the real beat and real Celery worker processes on PostgreSQL + Redis.

Steps:

1. Unless already inside the bench environment, re-run itself with one: a dedicated
   PostgreSQL database (``pbw_bench``, dropped and created afresh), a dedicated Redis db,
   Celery *not* eager, ``CELERY_BEAT_SWEEP_SECONDS`` from ``--beat-seconds``, email to
   ``locmem`` (the outbox rows are real; nothing leaves the machine).
2. Migrate that database, empty its Redis db.
3. Create ``--matches`` running matches of ``--game`` (``guess`` registers the tests'
   guess-a-number game here and in the workers via ``games.lib.devgames``) with
   ``--players`` each, through the real services.
4. Start ``--workers`` Celery workers of ``--concurrency`` processes on the clock and
   default queues, one worker of ``--mail-concurrency`` processes on the mail queue (as
   docker-compose.yml deploys them; 0: the first workers take mail too) and Celery beat;
   wait until the workers answer a ping.
5. Set every open phase's deadline to the same instant T (one second ahead) and poll until
   every phase closed or ``--timeout``.
6. Stop beat and the workers; print the numbers (JSON with ``--json``): ``matches``,
   ``closed``, ``closed_twice`` (matches with more than one closed phase: the next phases'
   deadlines are a day away, so any second close is a double), ``seconds`` (T → the last
   close's commit, from the snapshots' insert time), ``closes_per_s``, ``emails_queued``
   (outbox rows the closes wrote) and more.
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
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Count, Max
from django.utils.timezone import now as timezone_now

DEV_GAMES = {"guess": "tests.games.guessgame"}
CHILD_FLAG = "PBW_BENCH_CHILD"


def _recreate_database(url: str) -> None:
    """Drop and create the bench database (it belongs to the bench alone): every run starts
    from the migrations, data migrations included."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name.endswith("bench"):
        raise CommandError("The bench database's name must end in 'bench' (it is dropped).")
    admin_url = urlunsplit(parts._replace(path="/postgres", query=""))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


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
        parser.add_argument("--database-url", default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pbw_bench"))
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
            from games.management.commands.bench_email import start_redis, stop_process

            redis_proc, opts["redis_url"] = start_redis(tempfile.mkdtemp(prefix="pbw-bench-"))
            try:
                return self._reexec(opts)
            finally:
                stop_process(redis_proc)
        _recreate_database(opts["database_url"])
        argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "bench_deadlines",
                "--matches", str(opts["matches"]), "--game", opts["game"],
                "--workers", str(opts["workers"]), "--concurrency", str(opts["concurrency"]),
                "--mail-concurrency", str(opts["mail_concurrency"]),
                "--beat-seconds", str(opts["beat_seconds"]), "--timeout", str(opts["timeout"]),
                "--drain-timeout", str(opts["drain_timeout"]),
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

        procs = self._start_celery(opts)
        try:
            self._wait_for_workers(opts["workers"] + (1 if opts["mail_concurrency"] else 0),
                                   timeout=60)
            return self._measure(opts, players, setup_seconds)
        finally:
            self._stop(procs)

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
                 "--without-mingle", "--include", "games.lib.devgames"],
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

    def _measure(self, opts, players: int, setup_seconds: float) -> dict:
        from games.models import Notification, Phase, Snapshot

        due_at = timezone_now() + timedelta(seconds=1)
        Phase.objects.filter(closed_at__isnull=True).update(deadline_at=due_at)
        matches = opts["matches"]
        first = Phase.objects.filter(number=1)
        observed = None
        limit = time.monotonic() + opts["timeout"]
        while time.monotonic() < limit:
            if first.filter(closed_at__isnull=False).count() >= matches:
                observed = (timezone_now() - due_at).total_seconds()
                break
            time.sleep(0.1)
        closed = first.filter(closed_at__isnull=False).count()
        last_commit = Snapshot.objects.filter(phase__number=1).aggregate(t=Max("created_at"))["t"]
        seconds = (last_commit - due_at).total_seconds() if last_commit else None
        twice = (Phase.objects.filter(closed_at__isnull=False).values("match")
                 .annotate(n=Count("id")).filter(n__gt=1).count())
        emails = Notification.objects.filter(created_at__gte=due_at)
        # then let the workers drain the outbox (sent after the closes, by design)
        drain_started = time.monotonic()
        drained = None
        while time.monotonic() - drain_started < opts["drain_timeout"]:
            if not emails.filter(sent_at__isnull=True, failed_at__isnull=True).exists():
                drained = round(time.monotonic() - drain_started, 3)
                break
            time.sleep(0.25)
        return {
            "matches": matches, "game": opts["game"], "players": players,
            "closed": closed, "closed_twice": twice,
            "seconds": round(seconds, 3) if seconds is not None else None,
            "observed_seconds": round(observed, 3) if observed is not None else None,
            "closes_per_s": round(closed / seconds, 1) if seconds else None,
            "emails_queued": emails.count(),
            "emails_sent": emails.filter(sent_at__isnull=False).count(),
            "emails_drain_seconds_after_last_close": drained,
            "workers": opts["workers"], "concurrency": opts["concurrency"],
            "mail_concurrency": opts["mail_concurrency"],
            "beat_seconds": opts["beat_seconds"], "setup_seconds": round(setup_seconds, 1),
            "all_closed": closed == matches, "timed_out": observed is None,
        }

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
