"""``manage.py bench_notify --deliveries 4000 --json``: push and webhook fan-out through the
outbox to local receivers, counted by delivery id: 0 lost, 0 doubled, deliveries per second.

1. Outside: make a PostgreSQL database of the bench's own (dropped at the end) and run
   the bench inside with it (``NOTIFY_ALLOW_LOOPBACK`` on: the receivers are on loopback).
2. Inside: migrate; a running Kill Game of ``--players`` players through the services;
   each player gets push subscriptions and webhooks (JSON, signed) to the receivers, half
   the deliveries each, one outbox row per target ("your move", as a close writes them).
   The subscriptions share one browser key, so the receivers decrypt every push.
3. Start ``--receivers`` receiver processes (``reach/bench/receiver.py``, one port) and
   ``--senders`` sender processes; each sender loads Django, waits for the start signal,
   then sends batches (``games.services.outbox.notifications_send_batch``, what the
   Celery tasks call) until nothing is due.
4. Time from the start signal until the last sender is done (every row is then marked:
   a row is marked after its receiver's answer); stop the receivers and count the ids
   they read against the rows: ``lost`` (never received), ``duplicates`` (received more
   than once), ``unsent`` (rows not marked sent).
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from reach.bench import receiver

CHILD_FLAG = "PBW_BENCH_NOTIFY_CHILD"
SENDER = """
import os, sys, time, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django.setup()
from games.services.outbox import notifications_send_batch
import reach.push, reach.webhooks, pywebpush, urllib3  # loaded before the clock starts
from django.urls import reverse
from django.db import connection
reverse("healthz")  # the URL map is read once per process (a worker has it from its first task)
with connection.cursor() as cursor:  # connected before the clock, as a worker is
    cursor.execute("SELECT pg_backend_pid()")
    backend = cursor.fetchone()[0]
def backend_cpu():  # this sender's PostgreSQL backend, when the server runs on this machine
    try:
        fields = open(f"/proc/{backend}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
backend_before = backend_cpu()
print("ready", flush=True)
go = sys.argv[1]
while not os.path.exists(go):
    time.sleep(0.005)
def drain():
    sent = 0
    while True:
        report = notifications_send_batch()
        sent += len(report.sent)
        if report.claimed == 0:
            return sent
if os.environ.get("BENCH_SAMPLE_OUT"):  # the sending thread's stack each ms (wall clock:
    import collections, pickle, threading, traceback  # where it waits, not only where it works)
    seen = collections.Counter()
    main = threading.get_ident()
    stop = False
    def sample():
        while not stop:
            frame = sys._current_frames().get(main)
            if frame is not None:
                seen[tuple((f.f_code.co_filename.rsplit("/", 2)[-1], f.f_code.co_name)
                           for f, _ in traceback.walk_stack(frame))] += 1
            time.sleep(0.001)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    sent = drain()
    stop = True
    sampler.join()
    with open(f"{os.environ['BENCH_SAMPLE_OUT']}.{os.getpid()}", "wb") as fh:
        pickle.dump(seen, fh)  # a Counter of stacks (file, function), innermost first
elif os.environ.get("BENCH_PROFILE_OUT"):  # a pstats file per sender
    import cProfile
    profile = cProfile.Profile(time.thread_time)  # the sending thread's own CPU
    sent = profile.runcall(drain)
    profile.dump_stats(f"{os.environ['BENCH_PROFILE_OUT']}.{os.getpid()}")
else:
    sent = drain()
ended = time.time()
backend_after = backend_cpu()
used = -1 if backend_before is None or backend_after is None else backend_after - backend_before
print(f"{sent} {ended} {used}")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url_for(base: str, name: str) -> tuple[str, str]:
    parts = urlsplit(base)
    return (urlunsplit(parts._replace(path=f"/{name}", query="")),
            urlunsplit(parts._replace(path="/postgres", query="")))


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Command(BaseCommand):
    help = "Benchmark: push and webhook deliveries through the outbox to local receivers."

    def add_arguments(self, parser):
        parser.add_argument("--deliveries", type=int, default=4000,
                            help="in all, half pushes and half webhooks")
        parser.add_argument("--players", type=int, default=12)
        parser.add_argument("--senders", type=int, default=2,
                            help="sending processes (one per core: each posts from threads)")
        parser.add_argument("--receivers", type=int, default=2)
        parser.add_argument("--batch", type=int, default=100, help="rows per claim")
        parser.add_argument("--json", action="store_true", help="print only the JSON result")
        parser.add_argument("--timeout", type=float, default=600.0)
        parser.add_argument("--database-url", default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"))

    def handle(self, *args, **opts):
        if os.environ.get(CHILD_FLAG) == "1":
            if connection.vendor != "postgresql":
                raise CommandError("The bench needs PostgreSQL.")
            self._spawned: list[subprocess.Popen] = []
            try:
                result = self._run(opts)
            finally:  # a failed run leaves no receiver or sender behind (nor a pipe open)
                for proc in self._spawned:
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
            self.stdout.write(json.dumps(result) if opts["json"] else json.dumps(result, indent=2))
            return
        self._reexec(opts)

    def _reexec(self, opts) -> None:
        import psycopg

        name = f"pbw_notify_{os.getpid()}_bench"
        db_url, admin_url = database_url_for(opts["database_url"], name)
        try:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{name}"')
            env = dict(os.environ)
            env.update({CHILD_FLAG: "1", "DJANGO_SETTINGS_MODULE": "config.settings.base",
                        "DATABASE_URL": db_url, "LOG_LEVEL": "WARNING",
                        "NOTIFY_ALLOW_LOOPBACK": "true", "CELERY_TASK_ALWAYS_EAGER": "true",
                        "EMAIL_URL": "dummymail://",  # the seed's emails: not on stdout
                        "EMAIL_BATCH_SIZE": str(opts["batch"]),
                        "SITE_URL": env.get("SITE_URL", "http://localhost:8000")})
            env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
            if not env.get("VAPID_PRIVATE_KEY"):
                from reach.vapid import new_private_pem

                env["VAPID_PRIVATE_KEY"] = new_private_pem()
            argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "bench_notify",
                    "--deliveries", str(opts["deliveries"]), "--players", str(opts["players"]),
                    "--senders", str(opts["senders"]), "--receivers", str(opts["receivers"]),
                    "--batch", str(opts["batch"]), "--timeout", str(opts["timeout"])]
            if opts["json"]:
                argv.append("--json")
            done = subprocess.run(argv, env=env, cwd=settings.BASE_DIR, capture_output=True,
                                  text=True)
            self.stdout.write(done.stdout.rstrip())
            if done.returncode == 0 and '"ok": false' in done.stdout:
                self.stderr.write(done.stderr[-4000:])  # what the senders logged: why
            if done.returncode != 0:
                self.stderr.write(done.stderr[-4000:])
                raise CommandError(f"bench failed (exit {done.returncode})")
        finally:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _say(self, opts, text: str) -> None:
        if not opts["json"]:
            self.stderr.write(text)

    def _run(self, opts) -> dict:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        call_command("migrate", interactive=False, verbosity=0)
        tmp = tempfile.mkdtemp(prefix="pbw-bench-notify-")
        browser = ec.generate_private_key(ec.SECP256R1())
        auth = secrets.token_bytes(16)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        rows = self._create_rows(opts["deliveries"], opts["players"], base, browser, auth)
        self._say(opts, f"{len(rows)} outbox rows to deliver")
        import base64

        pem = browser.private_bytes(serialization.Encoding.PEM,
                                    serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()).decode()
        auth_b64 = base64.urlsafe_b64encode(auth).rstrip(b"=").decode()
        receivers = []
        for n in range(opts["receivers"]):
            proc = subprocess.Popen(
                [sys.executable, "-m", "reach.bench.receiver", str(port),
                 str(Path(tmp) / f"received-{n}.pickle")],
                stdout=subprocess.PIPE, text=True, cwd=settings.BASE_DIR)
            self._spawned.append(proc)
            if proc.stdout.readline().strip() != "ready":
                raise CommandError("a receiver did not start")
            receivers.append(proc)
        go = Path(tmp) / "go"
        senders = [subprocess.Popen([sys.executable, "-c", SENDER, str(go)],
                                    stdout=subprocess.PIPE, text=True, cwd=settings.BASE_DIR,
                                    env=dict(os.environ))
                   for _ in range(opts["senders"])]
        self._spawned += senders
        for proc in senders:  # each has loaded Django before the clock starts
            if proc.stdout.readline().strip() != "ready":
                raise CommandError("a sender did not start")
        cpu_before = {p.pid: cpu_seconds(p.pid) for p in senders + receivers}
        started = time.time()
        go.touch()
        outputs, ends = [], []
        deadline = time.monotonic() + opts["timeout"]
        cpu_after: dict[int, float] = {}
        sender_cpu = 0.0
        for proc in senders:
            left = max(1.0, deadline - time.monotonic())
            ended = time.monotonic() + left
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    proc.returncode = os.waitstatus_to_exitcode(status)
                    sender_cpu += usage.ru_utime + usage.ru_stime - cpu_before[proc.pid]
                    break
                if time.monotonic() > ended:
                    proc.kill()
                    os.wait4(proc.pid, 0)
                    break
                time.sleep(0.01)
            outputs.append(proc.stdout.read())
        for proc in receivers:
            cpu_after[proc.pid] = cpu_seconds(proc.pid)
        backends: list[float] = []
        for line in outputs:
            parts = line.split()
            if len(parts) == 3:
                ends.append(float(parts[1]))
                if float(parts[2]) >= 0:
                    backends.append(float(parts[2]))
        seconds = (max(ends) if ends else time.time()) - started
        # the clock has stopped: the floor, then every delivery checked
        floor = self._floor(port, min(len(rows), 2000))
        for proc in receivers:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
        kept = []
        for n in range(opts["receivers"]):
            kept += receiver.load(str(Path(tmp) / f"received-{n}.pickle"))
        received, bad = receiver.verify(kept, key_pem=pem, auth_b64=auth_b64,
                                        secrets=self._secrets(rows))
        result = self._result(rows, received, bad, seconds, opts, cpu_before, cpu_after,
                              receivers)
        result.update(floor)
        if result["per_s"] and floor["floor_posts_per_s"]:
            result["ratio_to_floor"] = round(result["per_s"] / floor["floor_posts_per_s"], 3)
        result["cpu_seconds_senders"] = round(sender_cpu, 2)
        result["cpu_ms_per_delivery"] = round(1000 * (sender_cpu + result[
            "cpu_seconds_receivers"]) / max(result["deliveries"], 1), 3)
        if len(backends) == len(senders):  # the senders' own PostgreSQL backends
            result["cpu_seconds_postgres"] = round(sum(backends), 2)
            result["cpu_ms_per_delivery_with_postgres"] = round(1000 * (
                sender_cpu + result["cpu_seconds_receivers"] + sum(backends))
                / max(result["deliveries"], 1), 3)
        result["load_average_1m"] = round(os.getloadavg()[0], 2)
        result["cpus"] = os.cpu_count()
        return result

    def _secrets(self, rows) -> dict[str, str]:
        """The signing secret of each bench webhook, by its path on the receivers."""
        from reach.models import Webhook

        ids = [r.target_id for r in rows if r.channel == "webhook"]
        return {urlsplit(url).path: secret for url, secret in
                Webhook.objects.filter(pk__in=ids).values_list("url", "secret")}

    def _floor(self, port: int, count: int) -> dict:
        """Raw HTTP POSTs per second to the same receivers over one keep-alive connection
        (urllib3, as the senders use it; a body the size of a push, no database, no
        encryption): what the loopback, the receivers and the HTTP client alone allow on
        this machine now."""
        import urllib3

        pool = urllib3.HTTPConnectionPool("127.0.0.1", port, maxsize=1, retries=False)
        body = secrets.token_bytes(260)
        headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/octet-stream"}
        count = max(count, 200)
        started = time.perf_counter()
        for n in range(count):
            answer = pool.urlopen("POST", f"/f/{n}", body=body, headers=headers,
                                  redirect=False, retries=False)
            if answer.status != 201:
                raise CommandError(f"the floor got HTTP {answer.status}")
        seconds = time.perf_counter() - started
        pool.close()
        return {"floor_posts": count, "floor_posts_per_s": round(count / seconds, 1)}

    def _result(self, rows, received, bad, seconds, opts, cpu_before, cpu_after,
                receivers) -> dict:
        from games.models import Notification
        from reach.messages import delivery_id

        expected = {}
        for row in Notification.objects.filter(pk__in=[r.pk for r in rows]):
            expected[f"{row.channel}:{delivery_id(row)}"] = row
        counts = Counter(received)
        lost = [key for key in expected if counts[key] == 0]
        duplicates = sum(n - 1 for key, n in counts.items() if n > 1)
        strangers = [key for key in counts if key not in expected]
        unsent = Notification.objects.filter(pk__in=[r.pk for r in rows],
                                             sent_at__isnull=True).count()
        total = len(expected)
        receiver_cpu = sum(cpu_after.get(p.pid, 0) - cpu_before.get(p.pid, 0) for p in receivers)
        return {"deliveries": total,
                "push": sum(1 for r in rows if r.channel == "push"),
                "webhook": sum(1 for r in rows if r.channel == "webhook"),
                "received": len(received), "lost": len(lost), "duplicates": duplicates,
                "unexpected": len(strangers), "undecryptable": len(bad), "unsent": unsent,
                "seconds": round(seconds, 3),
                "per_s": round(total / seconds, 1) if seconds > 0 else None,
                "senders": opts["senders"], "receivers": opts["receivers"],
                "batch": opts["batch"], "cpu_seconds_receivers": round(receiver_cpu, 2),
                "ok": not lost and not duplicates and not unsent and not bad}

    def _create_rows(self, count: int, players: int, base: str, browser, auth: bytes):
        """A running Kill Game; per player subscriptions and webhooks to the receivers;
        one "your move" row per target, as a close writes them."""
        import base64

        from cryptography.hazmat.primitives import serialization
        from django.contrib.auth import get_user_model

        from games.models import Notification, Phase
        from games.services.matches import match_create, match_join, match_start
        from reach.models import PushSubscription, Webhook

        User = get_user_model()
        users = [User.objects.create_user(f"reach{i}", f"reach{i}@example.com", None)
                 for i in range(players)]
        match = match_create(game="killgame", name="bench notify", min_players=2,
                             max_players=max(players, 2))
        for user in users:
            match_join(match=match, user=user)
        match_start(match=match)
        Notification.objects.all().delete()  # what the start queued is not measured
        phase = Phase.objects.get(match=match, closed_at__isnull=True)
        seats = {s.user_id: s.number for s in match.seats.all()}
        point = browser.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        p256dh = base64.urlsafe_b64encode(point).rstrip(b"=").decode()
        auth_b64 = base64.urlsafe_b64encode(auth).rstrip(b"=").decode()
        pushes = count // 2
        subs = PushSubscription.objects.bulk_create([
            PushSubscription(user=users[i % players], endpoint=f"{base}/p/{i}",
                             p256dh=p256dh, auth=auth_b64) for i in range(pushes)])
        hooks = Webhook.objects.bulk_create([
            Webhook(user=users[i % players], url=f"{base}/w/{i}", kind="json")
            for i in range(count - pushes)])
        rows = []
        for channel, targets in (("push", subs), ("webhook", hooks)):
            for target in targets:
                user_id = target.user_id
                rows.append(Notification(
                    recipient_id=user_id, kind=Notification.Kind.YOUR_TURN, match=match,
                    phase=phase, channel=channel, target_id=target.pk,
                    payload={"phase_id": phase.pk, "closed_phase_id": None, "from_seq": 1,
                             "to_seq": match.diary_seq, "seat": seats[user_id],
                             "awaited": True}))
        # interleave the channels as a close's rows would come
        rows.sort(key=lambda r: (r.target_id, r.channel))
        created = []
        for start in range(0, len(rows), 1000):
            created += Notification.objects.bulk_create(rows[start:start + 1000])
        return created
