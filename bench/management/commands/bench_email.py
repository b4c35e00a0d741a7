"""``manage.py bench_email --emails 5000 --json``: N outbox rows sent through the real
tasks and Celery worker processes to a real SMTP server on loopback, counted on arrival.

Steps:

1. Unless already inside the bench environment, set one up and re-run itself in it: a
   ``redis-server`` of its own on a spare port (nothing shared is flushed), a PostgreSQL
   database of its own (``pbw_email_<pid>_bench`` on the configured server, dropped at the
   end), Celery not eager.
2. Inside: migrate; start the SMTP server (aiosmtpd, ``--smtp-processes`` processes of
   its own sharing one spare loopback port, counting Message-IDs only); point
   ``EMAIL_URL`` at it; create a running match through the services and ``--emails``
   outbox rows (new-phase emails to its players, rendered with the diary like real ones).
3. Start ``--workers`` Celery workers on the ``mail`` queue; wait for their ping.
4. Queue the rows the way a close does (``notifications_send`` tasks of up to
   ``EMAIL_BATCH_SIZE`` ids) and wait until the server has them all (or ``--timeout``).
5. Print ``{"emails", "sent", "lost", "duplicates", "seconds", "per_s"}`` and more:
   ``sent`` = rows marked sent, ``lost`` = rows the server never received, ``duplicates``
   = extra copies received (counted by Message-ID), ``seconds`` = queueing → last arrival,
   and the CPU per email of the workers and of the SMTP server.
"""

from __future__ import annotations

import json
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from bench import databases
from bench.procstats import cpu_seconds as process_cpu_seconds
from bench.procstats import tree_cpu_seconds

CHILD_FLAG = "PBW_BENCH_EMAIL_CHILD"
MESSAGE_ID = re.compile(rb"^Message-ID:\s*(<[^>]+>)", re.IGNORECASE | re.MULTILINE)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(tmp: str) -> tuple[subprocess.Popen, str]:
    """A throwaway ``redis-server`` on a spare loopback port (no persistence)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise CommandError("The bench needs redis-server on the PATH.")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", tmp],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    stop_process(proc)
    raise CommandError("redis-server did not start.")


def stop_process(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


class Sink:
    """Counts what the SMTP server processes received, by Message-ID.

    The server itself runs in ``--smtp-processes`` processes of its own (``serve_sink``;
    a deployment's SMTP server is not its web or worker processes either), all bound to
    one port with ``SO_REUSEPORT``; each writes one line per accepted message to its
    stdout, read here by one thread per process."""

    def __init__(self) -> None:
        self.ids: Counter[bytes] = Counter()
        self.received = 0
        self.last_at = 0.0
        self.cpu_seconds = 0.0
        self.lock = threading.Lock()

    def follow(self, stream) -> threading.Thread:
        def read() -> None:
            for line in stream:
                if line.startswith(b"CPU "):
                    with self.lock:
                        self.cpu_seconds += float(line.split()[1])
                    continue
                with self.lock:
                    self.ids[line.rstrip(b"\n")] += 1
                    self.received += 1
                    self.last_at = time.monotonic()
        thread = threading.Thread(target=read, daemon=True)
        thread.start()
        return thread


class CountingHandler:
    """aiosmtpd handler of one sink process: find the Message-ID in the headers, report
    it, accept. No parsing beyond that (the server's CPU is not what is measured)."""

    def __init__(self, out) -> None:
        self.out = out

    async def handle_DATA(self, server, session, envelope):
        content = envelope.original_content or envelope.content
        end = content.find(b"\r\n\r\n")
        found = MESSAGE_ID.search(content, 0, end if end >= 0 else len(content))
        self.out.write((found.group(1) if found else b"?") + b"\n")  # serve_sink flushes
        return "250 OK"


def serve_sink(port: int) -> None:
    """One SMTP server process (``python -c``): aiosmtpd on 127.0.0.1:``port`` with
    ``SO_REUSEPORT``; on SIGTERM it prints its CPU seconds and exits."""
    import asyncio

    from aiosmtpd.smtp import SMTP

    out = sys.stdout.buffer
    handler = CountingHandler(out)
    loop = asyncio.new_event_loop()

    def stop(*_args) -> None:
        out.flush()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        out.write(f"CPU {usage.ru_utime + usage.ru_stime:.3f}\n".encode())
        out.flush()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)

    def flush() -> None:
        """One write per 20 ms, not one per message: an arrival is stamped at most 20 ms
        late (the bench errs on the slow side)."""
        out.flush()
        loop.call_later(0.02, flush)

    loop.run_until_complete(loop.create_server(
        lambda: SMTP(handler, hostname="localhost"), host="127.0.0.1", port=port,
        reuse_port=True))
    out.write(b"READY\n")
    out.flush()
    loop.call_soon(flush)
    loop.run_forever()


def start_sinks(count: int, port: int, sink: Sink) -> list[subprocess.Popen]:
    procs = []
    code = f"from bench.management.commands.bench_email import serve_sink; serve_sink({port})"
    for _ in range(count):
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=settings.BASE_DIR,
                                stdout=subprocess.PIPE, start_new_session=True)
        if proc.stdout.readline() != b"READY\n":
            raise CommandError("the SMTP sink did not start")
        sink.follow(proc.stdout)
        procs.append(proc)
    return procs


class Command(BaseCommand):
    help = "Benchmark: N outbox emails through real Celery workers to a loopback SMTP server."

    def add_arguments(self, parser):
        parser.add_argument("--emails", type=int, default=5000)
        parser.add_argument("--json", action="store_true", help="print only the JSON result")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--concurrency", type=int, default=2,
                            help="processes per worker (a sending process waits on the SMTP "
                                 "server and the database most of the time: 2 x 2 keep two "
                                 "cores busy, as worker-mail's --concurrency=4 does)")
        parser.add_argument("--smtp-processes", type=int, default=2,
                            help="SMTP server processes (one port, SO_REUSEPORT)")
        parser.add_argument("--players", type=int, default=12)
        parser.add_argument("--profile", action="store_true",
                            help="development: send the first batch in-process under cProfile "
                                 "(stats on stderr) before the workers send the rest")
        parser.add_argument("--timeout", type=float, default=600.0,
                            help="give up waiting for the server to receive everything")
        parser.add_argument("--database-url", default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
            help="the PostgreSQL server to use (a database of the bench's own is made there)")

    # --- 1. the environment ------------------------------------------------------------

    def handle(self, *args, **opts):
        if os.environ.get(CHILD_FLAG) == "1":
            if connection.vendor != "postgresql" or settings.CELERY_TASK_ALWAYS_EAGER:
                raise CommandError("The bench needs PostgreSQL and a real broker (not eager).")
            result = self._run(opts)
            self.stdout.write(json.dumps(result) if opts["json"]
                              else json.dumps(result, indent=2))
            return
        self._reexec(opts)

    def _reexec(self, opts) -> None:
        name = f"pbw_email_{os.getpid()}_bench"
        db_url = databases.url_for(opts["database_url"], name)
        tmp = tempfile.mkdtemp(prefix="pbw-bench-email-")
        redis_proc, redis_url = start_redis(tmp)
        try:
            databases.create(db_url)
            env = dict(os.environ)
            env.update({
                CHILD_FLAG: "1", "DJANGO_SETTINGS_MODULE": "config.settings.base",
                "DATABASE_URL": db_url, "REDIS_URL": redis_url, "CELERY_BROKER_URL": redis_url,
                "CELERY_TASK_ALWAYS_EAGER": "false", "LOG_LEVEL": "WARNING",
                "PBW_BENCH_TMP": tmp, "SITE_URL": env.get("SITE_URL", "http://localhost:8000"),
            })
            env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
            argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "bench_email",
                    "--emails", str(opts["emails"]), "--workers", str(opts["workers"]),
                    "--concurrency", str(opts["concurrency"]),
                    "--smtp-processes", str(opts["smtp_processes"]), "--players", str(opts["players"]),
                    "--timeout", str(opts["timeout"])]
            if opts["json"]:
                argv.append("--json")
            if opts["profile"]:
                argv.append("--profile")
            done = subprocess.run(argv, env=env, cwd=settings.BASE_DIR, capture_output=True,
                                  text=True)
            self.stdout.write(done.stdout.rstrip())
            if opts["profile"]:
                self.stderr.write(done.stderr[-20000:])
            if done.returncode != 0:
                self.stderr.write(done.stderr[-4000:])
                raise CommandError(f"bench failed (exit {done.returncode}); logs in {tmp}")
        finally:
            stop_process(redis_proc)
            databases.drop(db_url)

    # --- 2.-5. the bench itself ---------------------------------------------------------

    def _say(self, opts, text: str) -> None:
        if not opts["json"]:
            self.stderr.write(text)

    def _run(self, opts) -> dict:
        call_command("migrate", interactive=False, verbosity=0)
        sink = Sink()
        port = free_port()
        sinks = start_sinks(opts["smtp_processes"], port, sink)
        os.environ["EMAIL_URL"] = f"smtp://127.0.0.1:{port}"  # the workers inherit it
        procs: list[subprocess.Popen] = []
        result: dict = {}
        try:
            t = time.monotonic()
            ids = self._create_rows(opts["emails"], opts["players"])
            self._say(opts, f"created {len(ids)} outbox rows in {time.monotonic() - t:.1f}s")
            if opts["profile"]:  # development: one batch sent here, under cProfile
                ids = self._profile(ids, port)
            procs = self._start_workers(opts)
            self._wait_for_workers(opts["workers"], timeout=60)
            # CPU of the sending alone: the workers' and servers' start-up is left out
            workers_before = tree_cpu_seconds([p.pid for p in procs])
            mains_before = sum(process_cpu_seconds(p.pid) for p in procs)
            server_before = tree_cpu_seconds([p.pid for p in sinks])
            result = self._measure(opts, ids, sink)
            workers = tree_cpu_seconds([p.pid for p in procs]) - workers_before
            mains = sum(process_cpu_seconds(p.pid) for p in procs) - mains_before
            server = tree_cpu_seconds([p.pid for p in sinks]) - server_before
        finally:
            for proc in procs:
                stop_process(proc)
            for proc in sinks:
                stop_process(proc)
        time.sleep(0.2)  # the readers take the sinks' last line (their CPU)
        # where the CPU went while sending: the workers (render, MIME, SMTP client) and the
        # SMTP server processes; and in all, start-up included
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        with sink.lock:
            server_total = sink.cpu_seconds
        result["cpu_seconds_workers"] = round(workers, 2)
        # of which the Celery worker processes themselves (consuming, acknowledging,
        # heartbeats), apart from the pool processes that render and send
        result["cpu_seconds_worker_main_processes"] = round(mains, 2)
        result["cpu_seconds_smtp_server"] = round(server, 2)
        result["cpu_seconds_workers_with_startup"] = round(
            children.ru_utime + children.ru_stime - server_total, 2)
        if result.get("sent"):
            result["cpu_ms_per_email_workers"] = round(1000 * workers / result["sent"], 2)
            result["cpu_ms_per_email_smtp_server"] = round(1000 * server / result["sent"], 2)
            # the goal: the senders spend no more CPU per email than the server receiving it
            result["ratio"] = round(workers / server, 2) if server else None
        return result

    def _profile(self, ids: list[int], port: int) -> list[int]:
        """Send the first batch in this process under cProfile (stats to stderr, sorted by
        ``BENCH_PROFILE_SORT``, default tottime); the rest goes to the workers."""
        import cProfile
        import io
        import pstats

        from django.test.utils import override_settings

        from games.services.outbox import notifications_send_batch

        batch, rest = ids[:settings.EMAIL_BATCH_SIZE], ids[settings.EMAIL_BATCH_SIZE:]
        prof = cProfile.Profile(time.process_time)  # CPU, as the bench reports it
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                               EMAIL_HOST="127.0.0.1", EMAIL_PORT=port, EMAIL_USE_TLS=False,
                               EMAIL_USE_SSL=False, EMAIL_HOST_USER="",
                               EMAIL_HOST_PASSWORD=""):
            notifications_send_batch(ids=batch[:5])  # warm: templates compiled
            start = time.process_time()
            prof.enable()
            notifications_send_batch(ids=batch[5:])
            prof.disable()
        used = time.process_time() - start
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(
            os.environ.get("BENCH_PROFILE_SORT", "tottime")).print_stats(45)
        sys.stderr.write(f"{len(batch) - 5} emails: {used * 1000 / (len(batch) - 5):.2f} ms "
                         f"CPU each (profiled)\n{out.getvalue()}")
        return rest

    def _create_rows(self, count: int, players: int) -> list[int]:
        """A running Kill Game through the services, then ``count`` new-phase rows to its
        players (their diary lines of the first phase), inserted in bulk."""
        from django.contrib.auth import get_user_model

        from accounts.models import Profile
        from games.models import Notification, Phase
        from games.services.matches import match_create, match_join, match_start

        User = get_user_model()
        users = [User.objects.create_user(f"mail{i}", f"mail{i}@example.com", None)
                 for i in range(players)]
        Profile.objects.filter(user__in=users).update(
            email_mode=Profile.EmailMode.PER_PHASE, email_match_events=False, reminder_hours=0)
        match = match_create(game="killgame", name="bench mail", min_players=2,
                             max_players=max(players, 2))
        for user in users:
            match_join(match=match, user=user)
        match_start(match=match)
        Notification.objects.all().delete()  # whatever the start queued is not measured
        phase = Phase.objects.get(match=match, closed_at__isnull=True)
        seats = {s.user_id: s.number for s in match.seats.all()}
        rows = []
        for i in range(count):
            user = users[i % players]
            rows.append(Notification(
                recipient=user, kind=Notification.Kind.NEW_PHASE, match=match, phase=phase,
                payload={"phase_id": phase.pk, "closed_phase_id": None, "from_seq": 1,
                         "to_seq": match.diary_seq, "seat": seats[user.pk], "awaited": True}))
        created = []
        for start in range(0, len(rows), 1000):
            created += Notification.objects.bulk_create(rows[start:start + 1000])
        return [n.pk for n in created]

    def _start_workers(self, opts) -> list[subprocess.Popen]:
        celery = shutil.which("celery", path=str(Path(sys.executable).parent)) or "celery"
        tmp = os.environ.get("PBW_BENCH_TMP") or tempfile.mkdtemp(prefix="pbw-bench-email-")
        procs = []
        for i in range(opts["workers"]):
            procs.append(subprocess.Popen(
                [celery, "-A", "config", "worker", "-l", "WARNING", "-n", f"mail{i}@%h",
                 "-Q", "mail", "--concurrency", str(opts["concurrency"]), "--without-gossip",
                 "--without-mingle", "--prefetch-multiplier", "1"],
                env=dict(os.environ), cwd=settings.BASE_DIR, start_new_session=True,
                stdout=subprocess.DEVNULL, stderr=open(Path(tmp) / f"worker{i}.log", "w")))
        return procs

    def _wait_for_workers(self, count: int, timeout: float) -> None:
        from config.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(app.control.ping(timeout=0.5) or []) >= count:
                return
        raise CommandError(f"the Celery workers did not answer within {timeout:.0f}s")

    def _measure(self, opts, ids: list[int], sink: Sink) -> dict:
        from games.models import Notification
        from games.tasks import notifications_send

        count = len(ids)
        size = settings.EMAIL_BATCH_SIZE
        started = time.monotonic()
        for start in range(0, count, size):
            notifications_send.delay(ids[start:start + size])
        limit = started + opts["timeout"]
        while time.monotonic() < limit and len(sink.ids) < count:
            time.sleep(0.05)
        timed_out = len(sink.ids) < count
        # a little longer: a late duplicate would show here
        time.sleep(1.0)
        with sink.lock:
            unique = len(sink.ids)
            received = sink.received
            last_at = sink.last_at
        seconds = max(last_at - started, 1e-9) if received else None
        expected = {f"<notification-{pk}." for pk in ids}
        prefixes = {i.decode().split(".")[0] + "." for i in sink.ids}
        sent = Notification.objects.filter(pk__in=ids, sent_at__isnull=False, error="").count()
        return {
            "emails": count,
            "sent": sent,
            "lost": len(expected - prefixes),
            "duplicates": received - unique,
            "seconds": round(seconds, 3) if seconds else None,
            "per_s": round(unique / seconds, 1) if seconds else None,
            "received": received,
            "failed": Notification.objects.filter(pk__in=ids, failed_at__isnull=False).count(),
            "workers": opts["workers"], "concurrency": opts["concurrency"],
            "smtp_processes": opts["smtp_processes"],
            "batch_size": size, "timed_out": timed_out,
            "load_average_1min": round(os.getloadavg()[0], 1),
        }
