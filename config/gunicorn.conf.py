"""gunicorn settings for the web container (Dockerfile and docker-compose run
``gunicorn -c config/gunicorn.conf.py config.wsgi``); docs/operations.md "Web processes".

- ``workers``: **two per core** by default (``WEB_CONCURRENCY`` overrides), each **gthread**
  with ``GUNICORN_THREADS`` threads (4). A request costs the same CPU under the sync and the
  gthread worker (``bench_capacity``: 1.3–1.5 ms of gunicorn CPU for the unchanged poll,
  7–8 ms for the match page with either); what differs is whether the cores are used.
  The poll every open match page sends every 5 s waits on PostgreSQL and Redis for most of
  its time: a sync worker sits idle meanwhile (issue 33 measured 20–40 % of both cores
  idle at the knee with two sync workers, and more players held with four), a gthread
  worker runs another request. Two processes per core keep both cores busy when one
  process's requests wait or its kept-alive connections are the busier ones (each of the
  proxy's connections stays with the worker that accepted it). Measured with
  ``manage.py bench_capacity --compare`` (docs/operations.md "Capacity").
  ``GUNICORN_WORKER_CLASS=sync`` goes back to one request per process.
- ``gc.freeze()`` once each worker has loaded the app: the objects loaded at start-up
  (modules, templates, URL patterns, the engines' tables) move to a permanent generation,
  so the collector stops walking them on every full collection (tens of ms in p99 before).
"""

from __future__ import annotations

import gc
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


def post_worker_init(worker) -> None:  # noqa: ANN001 - gunicorn's hook signature
    """After the worker imported the app: freeze what start-up allocated (see above)."""
    gc.collect()
    gc.freeze()
