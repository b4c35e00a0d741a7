"""The stack ``bench_capacity`` starts as docker-compose.yml deploys it, and takes down
again whatever happens: its own PostgreSQL database on the configured server, two
``redis-server`` processes (the broker's: append-only, ``noeviction``; the HTML cache's:
no persistence, ``allkeys-lru``), an SMTP sink (aiosmtpd, ``bench_email``'s), the web
server as the web container runs it (``python -m config.webserver``), the three Celery
workers and beat, all with the production settings (``config.settings.production``).

Every process starts in a session of its own (Ctrl-C in the terminal reaches only the
bench, which then stops them in order) and is told to stop if the bench itself dies
(``PR_SET_PDEATHSIG``); each one's process group is written to
``pids`` in the bench's temporary directory as it starts, so :func:`Stack.stop` — run
from ``finally``, from a signal, or by a second bench run given that directory — finds
them all. Nothing here touches the shared Redis or the server's configuration.

CPU by process comes from ``/proc``: each part's processes and their descendants, and
the PostgreSQL backends connected to the bench's database (``pg_stat_activity``).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import databases, procstats

ROOT = Path(__file__).resolve().parents[2]
CLK_TCK = os.sysconf("SC_CLK_TCK")
HOST = "localhost"  # the Host header every request carries (ALLOWED_HOSTS)

# docker-compose.yml's workers: (name, queue, concurrency)
CELERY_WORKERS = (("clock", "clock", 2), ("mail", "mail", 4), ("default", "default", 1))


class StackError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def create_database(url: str) -> None:
    try:
        databases.create(url)
    except databases.NotABenchDatabase as exc:
        raise StackError(str(exc)) from exc


drop_database = databases.drop


def database_backends(url: str) -> list[int]:
    """The PostgreSQL backends serving the bench's database now."""
    import psycopg

    admin, name = databases.admin_url(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s",
                            [name]).fetchall()
    return [int(r[0]) for r in rows]


def machine_busy_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine (``/proc/stat``), all cores."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    total = sum(fields[:8])
    return total - idle, total


@dataclass
class Part:
    name: str  # web, celery, beat, redis, smtp
    proc: subprocess.Popen
    log: Path | None = None


@dataclass
class Stack:
    """What one bench run started; :meth:`stop` undoes all of it, in any state."""

    database_url: str
    redis_ports: tuple[int, int]
    web_port: int
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="pbw-capacity-")))
    parts: list[Part] = field(default_factory=list)
    database_made: bool = False
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    smtp_port: int = 0
    web_env: dict[str, str] = field(default_factory=dict)
    _pg_seen: dict[int, int] = field(default_factory=dict)
    _pg_total: int = 0

    # --- environment ------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        """The production settings' environment (config/settings/production.py, as
        docker-compose.yml sets it), pointed at the bench's own services."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DJANGO_", "PBW_", "GUNICORN_", "GRANIAN_", "CELERY_",
                                    "PYTEST"))
               and k not in {"DATABASE_URL", "REDIS_URL", "CACHE_REDIS_URL", "EMAIL_URL",
                             "SECRET_KEY", "ALLOWED_HOSTS", "WEB_CONCURRENCY", "DEBUG",
                             "SESSION_ENGINE", "GAME_APPS", "TRUSTED_PROXIES", "WEB_SERVER",
                             "WEB_THREADS", "WEB_BIND", "WEB_ACCESS_LOG"}}
        broker, cache = self.redis_ports
        env.update({
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": self.secret_key,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": f"redis://127.0.0.1:{broker}/0",
            "CACHE_REDIS_URL": f"redis://127.0.0.1:{cache}/0",
            "EMAIL_URL": f"smtp://127.0.0.1:{self.smtp_port}",
            "ALLOWED_HOSTS": HOST,
            "SITE_URL": f"https://{HOST}",
            # the bench is the reverse proxy: it sends X-Forwarded-For/-Proto from loopback
            "TRUSTED_PROXIES": "127.0.0.1",
            "BEHIND_PROXY": "true",
            # {% static %} without collectstatic's manifest (no browser fetches the assets)
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
            "PYTHONDONTWRITEBYTECODE": "1",
            "WEB_BIND": f"127.0.0.1:{self.web_port}",
        })
        env.update(self.web_env)
        return env

    def _pids_file(self) -> Path:
        return self.tmp / "pids"

    def _spawn(self, name: str, argv: list[str], *, log: bool = True,
               env: dict[str, str] | None = None) -> Part:
        path = self.tmp / f"{name}.log" if log else None
        out = open(path, "wb") if path else subprocess.DEVNULL
        try:
            proc = subprocess.Popen(argv, cwd=ROOT, env=env or self.env(), stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    preexec_fn=_die_with_parent)
        finally:
            if path:
                out.close()
        with open(self._pids_file(), "a") as fh:
            fh.write(f"{proc.pid}\n")
        part = Part(name, proc, path)
        self.parts.append(part)
        return part

    def tail(self, name: str, lines: int = 30) -> str:
        for part in self.parts:
            if part.name == name and part.log and part.log.exists():
                return "\n".join(part.log.read_text(errors="replace").splitlines()[-lines:])
        return ""

    # --- start ------------------------------------------------------------------------

    def start_services(self) -> None:
        """The database, both Redis and the SMTP sink."""
        server = shutil.which("redis-server")
        if server is None:
            raise StackError("The bench needs redis-server on the PATH.")
        for port in self.redis_ports:
            if port_open(port):
                raise StackError(f"port {port} is taken: the bench starts its own Redis there "
                                 "(--redis-port)")
        if port_open(self.web_port):
            raise StackError(f"port {self.web_port} is taken (--port)")
        create_database(self.database_url)
        self.database_made = True
        broker, cache = self.redis_ports
        self._spawn("redis", [server, "--port", str(broker), "--bind", "127.0.0.1",
                              "--dir", str(self.tmp), "--save", "", "--appendonly", "yes",
                              "--appendfsync", "everysec", "--maxmemory", "512mb",
                              "--maxmemory-policy", "noeviction"])
        self._spawn("redis", [server, "--port", str(cache), "--bind", "127.0.0.1",
                              "--dir", str(self.tmp), "--save", "", "--appendonly", "no",
                              "--maxmemory", "256mb", "--maxmemory-policy", "allkeys-lru"])
        self.smtp_port = free_port()
        code = ("from bench.management.commands.bench_email import serve_sink; "
                f"serve_sink({self.smtp_port})")
        self._spawn("smtp", [sys.executable, "-c", code], log=False)
        self._wait(lambda: all(port_open(p) for p in (*self.redis_ports, self.smtp_port)),
                   20, "Redis and the SMTP sink did not start")

    def manage(self, *args: str, timeout: float = 900) -> str:
        """``manage.py`` with the production environment; its stdout."""
        done = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT,
                              env=self.env(), capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise StackError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def manage_parallel(self, commands: list[list[str]], timeout: float = 900) -> list[str]:
        """Several ``manage.py`` commands at once (production environment); their stdouts."""
        procs = [subprocess.Popen([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT,
                                  env=self.env(), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, preexec_fn=_die_with_parent)
                 for args in commands]
        outs, failed = [], []
        try:
            for args, proc in zip(commands, procs):
                out, err = proc.communicate(timeout=timeout)
                outs.append(out)
                if proc.returncode != 0:
                    failed.append(f"manage.py {' '.join(args)} failed:\n{err[-3000:]}")
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        if failed:
            raise StackError("\n".join(failed))
        return outs

    def start_app(self) -> None:
        """The web server as the web container runs it, the three workers and beat."""
        bin_dir = Path(sys.executable).parent
        self._spawn("web", [sys.executable, "-m", "config.webserver"])
        for name, queue, concurrency in CELERY_WORKERS:
            self._spawn("celery", [str(bin_dir / "celery"), "-A", "config", "worker", "-Q", queue,
                                   "-n", f"{name}@capacity{os.getpid()}", "--loglevel=WARNING",
                                   f"--concurrency={concurrency}", "--without-gossip",
                                   "--without-mingle"])
        self._spawn("beat", [str(bin_dir / "celery"), "-A", "config", "beat",
                             "--loglevel=WARNING", "--pidfile=",
                             f"--schedule={self.tmp / 'beat-schedule'}"])
        self._wait(lambda: port_open(self.web_port) or self._died(), 90,
                   "the web server did not start")
        if self._died():
            raise StackError("a process of the stack died:\n" + self._died())

    def restart_web(self, env: dict[str, str]) -> None:
        """The web server again with other settings (``WEB_SERVER``, ``WEB_CONCURRENCY``,
        ``WEB_THREADS``, ``GUNICORN_*``)."""
        for part in [p for p in self.parts if p.name == "web"]:
            _stop(part.proc)
            self.parts.remove(part)
        self._wait(lambda: not port_open(self.web_port), 30, "the web server did not stop")
        self.web_env = dict(env)
        self._spawn("web", [sys.executable, "-m", "config.webserver"])
        self._wait(lambda: port_open(self.web_port) or self._died(), 90,
                   "the web server did not start")

    def _died(self) -> str:
        for part in self.parts:
            if part.proc.poll() is not None:
                return f"{part.name} exited {part.proc.returncode}\n{self.tail(part.name)}"
        return ""

    def check_alive(self) -> None:
        dead = self._died()
        if dead:
            raise StackError("a process of the stack died:\n" + dead)

    @staticmethod
    def _wait(ready, seconds: float, message: str) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ready():
                return
            time.sleep(0.1)
        raise StackError(message)

    # --- CPU ----------------------------------------------------------------------------

    def cpu_ticks(self) -> dict[str, int]:
        """CPU jiffies so far, by part: each part's processes with their descendants;
        ``postgres``: the backends of the bench's database, summed as they come and go
        (what a backend used after it was last seen and before it ended is missed)."""
        out: dict[str, int] = {}
        for part in self.parts:
            ticks = sum(procstats.cpu_ticks(p) for p in procstats.descendants([part.proc.pid]))
            out[part.name] = out.get(part.name, 0) + ticks
        try:
            for pid in database_backends(self.database_url):
                ticks = procstats.cpu_ticks(pid)
                # backends come and go (CONN_MAX_AGE): each one's ticks since it was last
                # seen (a new one: since it started), added to a running total
                self._pg_total += max(0, ticks - self._pg_seen.get(pid, 0))
                self._pg_seen[pid] = ticks
        except Exception:  # noqa: BLE001 - the figure is missing, the bench goes on
            pass
        out["postgres"] = self._pg_total
        return out

    # --- stop ---------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop every process this run started (the web server first, then the workers and beat,
        Redis last), drop the database, remove the temporary directory. Safe to call
        twice and after a partial start."""
        order = {"web": 0, "beat": 1, "celery": 2, "smtp": 3, "redis": 4}
        for part in sorted(self.parts, key=lambda p: order.get(p.name, 9)):
            _stop(part.proc)
        self.parts.clear()
        stop_recorded(self.tmp)
        if self.database_made:
            for _ in range(3):
                try:
                    drop_database(self.database_url)
                    self.database_made = False
                    break
                except Exception:  # noqa: BLE001 - a backend still closing: try again
                    time.sleep(1)
        shutil.rmtree(self.tmp, ignore_errors=True)


def _die_with_parent() -> None:
    """In the child before it runs: SIGTERM when the bench dies, even by SIGKILL (Linux's
    ``PR_SET_PDEATHSIG``), so nothing it started outlives it."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        proc.poll()
        return
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)


def stop_recorded(tmp: Path) -> None:
    """Kill what a run recorded in ``tmp/pids`` (process groups it started) that is still
    there: the last resort when the run itself could not stop them."""
    path = Path(tmp) / "pids"
    if not path.exists():
        return
    for line in path.read_text().split():
        try:
            os.killpg(int(line), signal.SIGKILL)
        except (ProcessLookupError, PermissionError, ValueError):
            continue
