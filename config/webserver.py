"""The web container's server: ``python -m config.webserver`` (Dockerfile, docker-compose.yml,
``bench_capacity``) replaces itself with **granian** serving ``config.wsgi`` (WSGI, HTTP/1.1
behind the proxy); ``WEB_SERVER=gunicorn`` runs gunicorn with ``config/gunicorn.conf.py``
instead. docs/operations.md "Web processes" and "Capacity".

Why granian (issue 33, ``bench_capacity``, docs/operations.md "Capacity"): the HTTP side
(accepting, keep-alive, parsing, writing) runs in Rust, outside the GIL, so a worker's
Python thread only runs the view. The unchanged htmx poll every open match page sends
every 5 s cost ~1.1–1.3 ms of gunicorn gthread CPU, of which Django's own part is ~0.45 ms;
granian served the same poll for ~0.7 ms, at about twice the requests per second.

- ``WEB_CONCURRENCY`` worker processes, **two per core** by default: a worker's Python
  waits on PostgreSQL and Redis for most of a poll, the second worker of the core runs
  meanwhile.
- ``WEB_THREADS`` Python threads per worker (1): more threads in one process measured
  more CPU per request (GIL hand-overs) for no more throughput.
- ``WEB_BIND`` (``0.0.0.0:8000``). No access log by default: the proxy logs every request
  with the client's real address (deploy/Caddyfile ``log``), a second line per request from
  the web process costs CPU on every poll; ``WEB_ACCESS_LOG=1`` turns it on.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sys


def _int(env: dict[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    return int(raw) if raw else default


def _cores() -> int:
    """The cores this process may run on (a container's cpuset), else the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return multiprocessing.cpu_count()


def command(env: dict[str, str] | None = None) -> list[str]:
    """The argv the web container runs, from ``env`` (default: this process's)."""
    env = dict(os.environ if env is None else env)
    bind = env.get("WEB_BIND", "").strip() or "0.0.0.0:8000"
    host, _, port = bind.rpartition(":")
    bin_dir = os.path.dirname(sys.executable)
    if env.get("WEB_SERVER", "granian").strip() == "gunicorn":
        exe = os.path.join(bin_dir, "gunicorn")
        return [exe if os.path.exists(exe) else shutil.which("gunicorn") or "gunicorn",
                "-b", bind, "-c", "config/gunicorn.conf.py", "config.wsgi"]
    workers = _int(env, "WEB_CONCURRENCY", 2 * _cores())
    threads = _int(env, "WEB_THREADS", 1)
    log = env.get("WEB_ACCESS_LOG", "").strip().lower() in ("1", "true", "yes")
    return [sys.executable, "-m", "granian", "--interface", "wsgi", "--http", "1", "--no-ws",
            "--host", host or "0.0.0.0", "--port", port or "8000",
            "--workers", str(workers), "--blocking-threads", str(threads),
            "--respawn-failed-workers", "--workers-kill-timeout", "30",
            "--access-log" if log else "--no-access-log",
            "config.wsgi:application"]


def main() -> None:
    argv = command()
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
