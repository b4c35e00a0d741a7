"""The fault bench's own services, on spare loopback ports in one temporary directory:
a PostgreSQL cluster (``initdb``; run as the ``postgres`` user when we are root), a Redis
with append-only persistence, the SMTP catcher, and the Celery workers, beats and a
gunicorn web process as subprocesses. Never the machine's shared services.

Every service can be stopped and started again by whichever process holds the
:class:`Stack` (the state lives in files and pidfiles under its directory), so the bench
can take the database or the broker away in the middle of a scenario.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
DATABASE = "pbw_faults"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pg_binary(name: str) -> str:
    found = shutil.which(name) or sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))[-1:]
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} was not found (install postgresql)")
    return found if isinstance(found, str) else found[0]


def _bin(name: str) -> str:
    """An executable next to this Python (the venv's celery, gunicorn) or on PATH."""
    return shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name) or name


@dataclass
class Stack:
    """Where everything lives; JSON-able so the bench's child process can take it over."""

    root: str
    pg_port: int = field(default_factory=free_port)
    redis_port: int = field(default_factory=free_port)
    smtp_port: int = field(default_factory=free_port)
    web_port: int = field(default_factory=free_port)
    smtp_pid: int = 0

    # --- describing ------------------------------------------------------------------

    def dumps(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def loads(cls, raw: str) -> "Stack":
        return cls(**json.loads(raw))

    def path(self, *parts: str) -> Path:
        return Path(self.root, *parts)

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.pg_port}/{DATABASE}"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def received(self) -> Path:
        return self.path("received.jsonl")

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of every Django process of the bench (workers, beat, web, us)."""
        env = dict(os.environ)
        env.update({
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "CELERY_BROKER_URL": self.redis_url,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_BEAT_SWEEP_SECONDS": "1",
            "BEAT_LOCK_TTL_SECONDS": "8",
            "EMAIL_URL": f"smtp://127.0.0.1:{self.smtp_port}",
            "EMAIL_CLAIM_SECONDS": "20",
            "PBW_DEV_GAMES": "tests.games.guessgame",
            "SECRET_KEY": "fault-bench-only-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SITE_URL": f"http://127.0.0.1:{self.web_port}",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            # the bench serves no collected static files
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
        })
        env.update(extra)
        return env

    # --- PostgreSQL ------------------------------------------------------------------

    def _as_postgres(self) -> dict:
        """Popen arguments that drop root to the postgres user (initdb refuses root)."""
        if os.geteuid() != 0:
            return {}
        user = _postgres_user()
        return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}

    def pg_init(self) -> None:
        data = self.path("pg")
        data.mkdir(parents=True)
        self.path("pgrun").mkdir()  # socket and log: written by the postgres user
        if os.geteuid() == 0:
            user = _postgres_user()
            os.chmod(self.root, 0o755)
            for p in (data, self.path("pgrun")):
                os.chown(p, user.pw_uid, user.pw_gid)
        subprocess.run([_pg_binary("initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                        "-E", "UTF8", "--no-sync", "--no-instructions"], check=True,
                       capture_output=True, **self._as_postgres())

    def pg_start(self) -> None:
        options = (f"-p {self.pg_port} -k {self.path('pgrun')} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=60 -c client_connection_check_interval=1000")
        subprocess.run([_pg_binary("pg_ctl"), "-D", str(self.path("pg")), "-l",
                        str(self.path("pgrun", "pg.log")), "-o", options, "-w", "-t", "60", "start"],
                       check=True, capture_output=True, **self._as_postgres())

    def pg_stop(self, mode: str = "fast") -> None:
        subprocess.run([_pg_binary("pg_ctl"), "-D", str(self.path("pg")), "-m", mode, "-w",
                        "-t", "60", "stop"], capture_output=True, **self._as_postgres())

    def pg_create_database(self) -> None:
        import psycopg

        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.pg_port}/postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{DATABASE}"')

    # --- Redis -----------------------------------------------------------------------

    def redis_start(self) -> None:
        self.path("redis").mkdir(exist_ok=True)
        subprocess.run(["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                        "--dir", str(self.path("redis")), "--appendonly", "yes",
                        "--appendfsync", "everysec", "--save", "", "--daemonize", "yes",
                        "--pidfile", str(self.path("redis.pid")),
                        "--logfile", str(self.path("redis.log"))], check=True)
        self._wait(lambda: self._redis_ping(), "Redis")

    def _redis_ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def redis_stop(self) -> None:
        pid = self._pidfile("redis.pid")
        if pid:
            _signal(pid, signal.SIGTERM)
            self._wait(lambda: not _alive(pid), "Redis to stop")

    # --- the SMTP catcher ------------------------------------------------------------

    def smtp_start(self) -> None:
        proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("catcher.py")),
             "--port", str(self.smtp_port), "--out", str(self.received)],
            start_new_session=True, stdout=subprocess.DEVNULL,
            stderr=open(self.path("smtp.log"), "a"))
        self.smtp_pid = proc.pid

        def listening() -> bool:
            try:
                socket.create_connection(("127.0.0.1", self.smtp_port), timeout=1).close()
                return True
            except OSError:
                return False
        self._wait(listening, "the SMTP catcher")

    def smtp_hang(self) -> None:
        _signal(self.smtp_pid, signal.SIGSTOP)

    def smtp_resume(self) -> None:
        _signal(self.smtp_pid, signal.SIGCONT)

    def smtp_received(self) -> list[dict]:
        if not self.received.exists():
            return []
        return [json.loads(line) for line in self.received.read_text().splitlines() if line]

    # --- Celery and gunicorn ---------------------------------------------------------

    def spawn(self, name: str, argv: list[str], **env: str) -> subprocess.Popen:
        """Start a bench process in its own session (so it dies with its children)."""
        return subprocess.Popen(argv, env=self.env(**env), cwd=BASE_DIR, start_new_session=True,
                                stdout=subprocess.DEVNULL,
                                stderr=open(self.path(f"{name}.log"), "a"))

    def worker(self, queue: str, name: str) -> subprocess.Popen:
        return self.spawn(name, [
            _bin("celery"), "-A", "config", "worker", "-Q", queue, "-n", f"{name}@%h",
            "--concurrency", "1", "-l", "INFO", "--without-gossip", "--without-mingle",
            "--include", "bench.devgames"])

    def beat(self, name: str) -> subprocess.Popen:
        return self.spawn(name, [
            _bin("celery"), "-A", "config", "beat", "-l", "INFO", "--pidfile=",
            "-s", str(self.path(f"{name}-schedule"))])

    def web(self) -> subprocess.Popen:
        return self.spawn("web", [
            _bin("gunicorn"), "bench.faultbench.wsgi", "--bind", f"127.0.0.1:{self.web_port}",
            "--workers", "1", "--threads", "4", "--timeout", "30"])

    # --- helpers ---------------------------------------------------------------------

    def _pidfile(self, name: str) -> int:
        try:
            return int(self.path(name).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0

    @staticmethod
    def _wait(check, what: str, timeout: float = 60) -> None:
        limit = time.monotonic() + timeout
        while time.monotonic() < limit:
            if check():
                return
            time.sleep(0.1)
        raise RuntimeError(f"timed out waiting for {what}")

    def stop_all(self) -> None:
        """Stop every service (what a crashed child left running included)."""
        if self.smtp_pid:
            _signal(self.smtp_pid, signal.SIGCONT)
            kill(self.smtp_pid)
        self.redis_stop()
        if self.path("pg", "postmaster.pid").exists():
            self.pg_stop("immediate")


def _postgres_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("PostgreSQL refuses to run as root and there is no 'postgres' "
                           "user: run the bench as another user") from None


def new_root() -> str:
    """The bench's directory; under /tmp when we are root, so the postgres user can reach
    it whatever TMPDIR says."""
    return tempfile.mkdtemp(prefix="pbw-faults-",
                            dir="/tmp" if os.geteuid() == 0 and os.path.isdir("/tmp") else None)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie child of ours counts as gone
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return False


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def kill(pid: int, sig: int = signal.SIGKILL) -> None:
    """Signal a whole process group started by :meth:`Stack.spawn` (a worker and its pool)."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        _signal(pid, sig)


def stop(proc: subprocess.Popen, timeout: float = 15) -> None:
    """Warm shutdown (SIGTERM), then SIGKILL."""
    if proc.poll() is not None:
        return
    kill(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(proc.pid)
        proc.wait()
