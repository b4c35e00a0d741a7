"""gunicorn settings, the alternative web server: ``WEB_SERVER=gunicorn python -m
config.webserver`` runs ``gunicorn -c config/gunicorn.conf.py config.wsgi``. The deployed
server is granian (config/webserver.py); docs/operations.md "Web processes" and "Capacity".

Kept as the fallback an operator may switch to (the fault bench also runs gunicorn).
Measured on this 2-core machine (``bench_capacity --compare``, docs/operations.md
"Capacity"): the unchanged poll cost ~1.1–1.3 ms of gunicorn gthread CPU against ~0.7 ms
under granian, whose HTTP side runs in Rust outside the GIL.

- ``workers``: **two per core** by default (``WEB_CONCURRENCY`` overrides), each **gthread**
  with ``GUNICORN_THREADS`` threads (4); ``GUNICORN_WORKER_CLASS=sync`` goes back to one
  request per process.
- ``gc.freeze()`` after start-up is done by ``config/wsgi.py`` for either server.
"""

from __future__ import annotations

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
def _cores() -> int:
    """The cores this process may run on (a container's cpuset), else the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return multiprocessing.cpu_count()


workers = _int("WEB_CONCURRENCY", 2 * _cores())
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
threads = _int("GUNICORN_THREADS", 4)  # per worker; only gthread uses it
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _int("GUNICORN_KEEPALIVE", 5)
max_requests = _int("GUNICORN_MAX_REQUESTS", 0)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 0)
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
