"""Error reports to the operators that a flood of failures cannot turn into a flood of mail.

Django's own ``mail_admins`` handler sends one email per failing request, inside that
request (a 31-second database outage once sent 304). Here instead:

- **grouped**: a report is about one *distinct* error — the exception's type and the
  deepest line of the project's code it went through (or, without an exception, the logger
  and the message's template), not the request's address or arguments;
- **throttled**: one report per distinct error per ``ERROR_REPORT_INTERVAL_SECONDS`` across
  all processes (``cache.add`` on a shared key; per process if the cache is down); the
  next report says how many more happened since;
- **off the request path**: the request only puts the report in a bounded in-process
  queue (dropped, and counted, when full); a daemon thread sends it with ``mail_admins``;
- **or Sentry**: with ``SENTRY_DSN`` set, :func:`sentry_init` hands errors to sentry-sdk
  (its own background transport, grouping and rate limits) and no mail is sent.

Reports carry no cookies, headers or form data: the method, the path (escaped), the
traceback. docs/operations.md "Error reports".
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
import traceback
from dataclasses import dataclass
from hashlib import sha1
from pathlib import Path
from typing import Any

QUEUE_SIZE = 100
_PROJECT = str(Path(__file__).resolve().parents[1])


@dataclass
class Report:
    fingerprint: str
    subject: str
    body: str


def _project_frame(tb: Any) -> tuple[str, int, str] | None:
    """The deepest frame of the project's own code (not a library's) in a traceback."""
    found = None
    last = None
    for frame, lineno in traceback.walk_tb(tb):
        path = frame.f_code.co_filename
        last = (path, lineno, frame.f_code.co_name)
        if path.startswith(_PROJECT) and "/.venv/" not in path and "site-packages" not in path:
            found = last
    return found or last


def fingerprint(record: logging.LogRecord) -> tuple[str, str]:
    """(key, a short human description) of the distinct error a record is about."""
    if record.exc_info and record.exc_info[0] is not None:
        exc_type, _exc, tb = record.exc_info
        where = _project_frame(tb)
        place = f"{os.path.relpath(where[0], _PROJECT)}:{where[1]} in {where[2]}" if where else "?"
        what = f"{exc_type.__module__}.{exc_type.__qualname__} at {place}"
    else:
        what = f"{record.name}: {str(record.msg)[:200]}"
    return sha1(what.encode("utf-8", "replace")).hexdigest()[:16], what


class Throttle:
    """Which occurrences of an error are reported: the first of each interval."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}

    def admit(self, key: str, interval: float, now: float | None = None) -> int | None:
        """None: do not report (counted); else the number suppressed since the last one."""
        now = time.monotonic() if now is None else now
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < interval:
                self._suppressed[key] = self._suppressed.get(key, 0) + 1
                return None
            if len(self._last) > 10_000:  # bounded, whatever varies
                self._last.clear()
            self._last[key] = now
            return self._suppressed.pop(key, 0)

    def reset(self) -> None:
        with self._lock:
            self._last.clear()
            self._suppressed.clear()


throttle = Throttle()
_queue: queue.Queue[Report] = queue.Queue(maxsize=QUEUE_SIZE)
_worker: threading.Thread | None = None
_worker_pid: int | None = None
_worker_lock = threading.Lock()
dropped = 0


def _shared_admit(key: str, interval: int) -> bool:
    """Across processes: the first to add the key this interval reports (True when the
    cache is unreachable: the process's own throttle still holds)."""
    try:
        from django.core.cache import cache

        return bool(cache.add(f"errreport:{key}", 1, interval))
    except Exception:  # noqa: BLE001 - the cache may be what is failing
        return True


def _send_loop() -> None:
    from django.core import mail

    while True:
        report = _queue.get()
        try:
            mail.mail_admins(report.subject, report.body, fail_silently=True)
        except Exception:  # noqa: BLE001 - a report that cannot go is not an error of its own
            pass
        finally:
            _queue.task_done()


def _ensure_worker() -> None:
    global _worker, _worker_pid
    with _worker_lock:
        if _worker is not None and _worker.is_alive() and _worker_pid == os.getpid():
            return
        _worker = threading.Thread(target=_send_loop, name="error-reports", daemon=True)
        _worker_pid = os.getpid()
        _worker.start()


def flush(timeout: float = 10.0) -> None:
    """Wait until the queued reports are sent (tests, and a process about to exit)."""
    deadline = time.monotonic() + timeout
    while _queue.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.01)


def _describe(record: logging.LogRecord, what: str, suppressed: int) -> tuple[str, str]:
    from django.conf import settings

    request = getattr(record, "request", None)
    lines = [what, ""]
    if suppressed:
        lines.append(f"It happened {suppressed} more time(s) since the last report.")
    interval = settings.ERROR_REPORT_INTERVAL_SECONDS
    lines.append(f"Further occurrences within {interval} s are counted, not sent.")
    if request is not None:
        path = getattr(request, "path", "")
        lines.append(f"Request: {getattr(request, 'method', '?')} {path!r}")
    lines.append(f"Logger: {record.name}, process {os.getpid()}")
    lines.append("")
    try:
        lines.append(record.getMessage())
    except Exception:  # noqa: BLE001
        lines.append(str(record.msg))
    if record.exc_info:
        lines.append("")
        lines.append("".join(traceback.format_exception(*record.exc_info))[-20_000:])
    status = getattr(record, "status_code", None)
    subject = f"{record.levelname}{f' {status}' if status else ''}: {what}"
    return subject[:180], "\n".join(lines)


class ThrottledAdminEmailHandler(logging.Handler):
    """``ERROR`` records to ``ADMINS`` by email: grouped, throttled, sent by a thread."""

    def emit(self, record: logging.LogRecord) -> None:
        global dropped
        try:
            from django.conf import settings

            if not settings.ADMINS or getattr(settings, "SENTRY_DSN", ""):
                return
            interval = settings.ERROR_REPORT_INTERVAL_SECONDS
            key, what = fingerprint(record)
            suppressed = throttle.admit(key, interval)
            if suppressed is None or not _shared_admit(key, interval):
                return
            subject, body = _describe(record, what, suppressed)
            _ensure_worker()
            try:
                _queue.put_nowait(Report(key, subject, body))
            except queue.Full:
                dropped += 1
        except Exception:  # noqa: BLE001 - logging must never break the request
            self.handleError(record)


def sentry_init(dsn: str, **options: Any) -> bool:
    """Report errors to Sentry (``SENTRY_DSN``): Django and Celery integrations, no
    personal data, performance tracing only if ``SENTRY_TRACES_SAMPLE_RATE`` asks."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.logging import LoggingIntegration

    sentry_sdk.init(
        dsn=dsn, send_default_pii=False,
        integrations=[DjangoIntegration(), CeleryIntegration(),
                      LoggingIntegration(level=logging.INFO, event_level=logging.ERROR)],
        **options)
    return True
