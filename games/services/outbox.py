"""Sending the notification outbox: at least once, never silently dropped, in batches.

A row moves through these states (all columns of ``games.Notification``):

- *due*: ``sent_at`` and ``failed_at`` empty, ``next_attempt_at <= now`` and no live lease
  (``claimed_until`` empty or past);
- *claimed*: a sender set ``claimed_until = now + EMAIL_CLAIM_SECONDS`` (and counted the
  attempt) in one statement, ``FOR UPDATE SKIP LOCKED``, so two senders never hold the
  same row; a sender that dies leaves the lease to expire, and the beat task
  ``notifications_send_pending`` (every 30 s) finds the row due again;
- *sent*: ``sent_at`` is written right after the SMTP server accepted that message, one
  row at a time, the statement on its way before the next message goes (a sender killed
  between the server's "250" and that write re-sends only the one message in flight,
  with the same ``Message-ID`` so the copy is recognisable);
  push and webhook answers, which come back many at a time from the threads that post
  them, are marked together (at most ``CHANNEL_MARK_ROWS`` rows or
  ``CHANNEL_MARK_SECONDS``, and at the end of the batch);
- *retry*: a temporary failure (connection refused, 4xx, timeout) releases the lease and
  sets ``next_attempt_at`` with exponential backoff (30 s doubling, at most an hour);
- *failed*: a permanent refusal of the address (5xx to ``RCPT``/``DATA``) at once, or any
  failure once the row is ``EMAIL_RETRY_HOURS`` (24) old; the admin's outbox list and the
  reader's profile page show it.

One batch = one claim statement (which also reads the rows) and one SMTP connection of
Django's email backend. The batch is rendered, and its messages built (Django's
``EmailMultiAlternatives``; the standard library's MIME and generator underneath) and
flattened, before the connection opens (``OutboxEmail.freeze``); then each goes through
the backend's ``send_messages`` (``smtplib`` speaks SMTP), message by message so each
gets its own verdict, and its row is marked the moment the server accepts it. Every failure is
logged with the outbox id and the server's reason.
"""

from __future__ import annotations

import logging
import select
import smtplib
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import get_connection
from django.core.mail.backends.smtp import EmailBackend as SMTPBackend
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils.timezone import now as timezone_now

from games import emails
from games.lib import unsubscribe
from accounts.models import Profile
from games.models import Match, Notification, Phase
from games.services import notifications

log = logging.getLogger(__name__)

RETRY_BASE_SECONDS = 30
RETRY_MAX_SECONDS = 3600
SKIPPED_PREFIX = "skipped: "


@dataclass
class BatchReport:
    """What one batch did (ids per outcome)."""

    claimed: int = 0
    sent: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    retry: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


def message_id(notification: Notification) -> str:
    """A Message-ID that stays the same for every attempt at this row."""
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    stamp = int(notification.created_at.timestamp()) if notification.created_at else 0
    return f"<notification-{notification.pk}.{stamp}@{host}>"


def retry_delay(attempts: int) -> timedelta:
    """Backoff after the ``attempts``-th failed attempt: 30 s, 60 s, 2 min … at most 1 h."""
    return timedelta(seconds=min(RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0),
                                 RETRY_MAX_SECONDS))


def due(now: datetime):
    """The rows a sender may claim now."""
    return Notification.objects.filter(
        sent_at__isnull=True, failed_at__isnull=True, next_attempt_at__lte=now,
    ).filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))


def notifications_claim(*, now: datetime, limit: int, ids: list[int] | None = None) -> list[int]:
    """Lease up to ``limit`` due rows (of ``ids`` if given) to this sender; their ids."""
    lease = now + timedelta(seconds=settings.EMAIL_CLAIM_SECONDS)
    with transaction.atomic():
        qs = due(now)
        if ids is not None:
            qs = qs.filter(pk__in=ids)
        picked = list(qs.order_by("next_attempt_at", "pk")
                      .select_for_update(skip_locked=True, of=("self",))
                      .values_list("pk", flat=True)[:limit])
        if picked:
            Notification.objects.filter(pk__in=picked).update(
                claimed_until=lease, attempts=F("attempts") + 1)
    return picked


_CLAIM_ROWS = """UPDATE {table} SET claimed_until = %s, attempts = attempts + 1
WHERE id IN (SELECT id FROM {table}
             WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= %s
               AND (claimed_until IS NULL OR claimed_until < %s){only}
             ORDER BY next_attempt_at, id LIMIT %s FOR UPDATE SKIP LOCKED)
RETURNING {columns}"""


#: the columns a batch reads of its claimed rows (the rest — the lease, the send and retry
#: stamps, the error — are written by statements of their own, never read while sending):
#: their values are left deferred, so a hundred rows are not three hundred timestamps
#: parsed (Django's time-zone loader, in Python) for nothing. A deferred field read
#: anyway costs a query, never a wrong value.
CLAIM_COLUMNS = ("id", "recipient", "kind", "match", "phase", "payload", "created_at",
                 "attempts", "channel", "target_id")


def _claim_rows(*, now: datetime, limit: int, ids: list[int] | None) -> list[Notification]:
    """``notifications_claim`` and the claimed rows, in id order. On PostgreSQL one
    statement (the lease written and the rows returned by the same ``UPDATE``, its
    subquery ``FOR UPDATE SKIP LOCKED`` as ``notifications_claim``'s), not three (pick,
    lease, read): the ORM compiling and the client binding a hundred ids three times
    cost more CPU per email than reading the rows."""
    if connection.vendor != "postgresql":
        picked = notifications_claim(now=now, limit=limit, ids=ids)
        return list(Notification.objects.filter(pk__in=picked).order_by("pk")) if picked else []
    quote = connection.ops.quote_name
    sql = _CLAIM_ROWS.format(
        table=quote(Notification._meta.db_table),
        only=" AND id = ANY(%s)" if ids is not None else "",
        columns=", ".join(quote(Notification._meta.get_field(name).column)
                          for name in CLAIM_COLUMNS))
    lease = now + timedelta(seconds=settings.EMAIL_CLAIM_SECONDS)
    params: list[Any] = [lease, now, now, *([list(ids)] if ids is not None else []), limit]
    return sorted(Notification.objects.raw(sql, params), key=lambda row: row.pk)


def _permanent(exc: Exception) -> bool:
    """The server refused this address or message for good (5xx)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _msg in exc.recipients.values()]
        return bool(codes) and all(code >= 500 for code in codes)
    if isinstance(exc, (smtplib.SMTPDataError,)):
        return exc.smtp_code >= 500
    return False


def _connection_lost(exc: Exception) -> bool:
    """The connection itself is gone: the rest of the batch cannot go this way."""
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return True
    return isinstance(exc, OSError) and not isinstance(exc, smtplib.SMTPException)


def _retry_or_fail(rows: list[Notification], error: str, now: datetime,
                   report: BatchReport) -> None:
    """Release rows after a temporary failure; those past the retry window fail for good."""
    give_up = now - timedelta(hours=settings.EMAIL_RETRY_HOURS)
    for row in rows:
        if row.created_at <= give_up:
            Notification.objects.filter(pk=row.pk, sent_at__isnull=True).update(
                failed_at=now, claimed_until=None, error=error[:2000])
            report.failed.append(row.pk)
            log.error("notification %s failed for good after %s attempts: %s",
                      row.pk, row.attempts, error)
        else:
            delay = retry_delay(row.attempts)
            Notification.objects.filter(pk=row.pk, sent_at__isnull=True).update(
                claimed_until=None, error=error[:2000], next_attempt_at=now + delay)
            report.retry.append(row.pk)
            log.warning("notification %s not sent (attempt %s), retry in %ds: %s",
                        row.pk, row.attempts, delay.total_seconds(), error)


_MARK_SENT = ("UPDATE {table} SET sent_at = %s, claimed_until = NULL, "
              "error = '' WHERE id = %s")
_MARK_SENT_MANY = ("UPDATE {table} SET sent_at = %s, claimed_until = NULL, "
                   "error = '' WHERE id IN ({ids})")
#: push and webhook answers are marked sent together: at most this many rows or this old
CHANNEL_MARK_ROWS = 50
CHANNEL_MARK_SECONDS = 0.05


@contextmanager
def _grouped_marks(*, rows: int, seconds: float) -> Iterator[Callable[[Notification], None]]:
    """``mark(row)`` for push and webhooks, whose answers come back many at a time from the
    threads that post them: the marks are gathered and written in one statement once
    ``rows`` are waiting or the oldest waited ``seconds``, and at the end of the batch —
    also when the batch ends on an error. A sender killed in between sends those few
    again (at least once: each carries its stable delivery id, so a receiver drops it).
    Committed without waiting for the WAL flush on PostgreSQL, as :func:`_marker`'s."""
    table = connection.ops.quote_name(Notification._meta.db_table)
    relaxed = connection.vendor == "postgresql" and not connection.in_atomic_block
    waiting: list[int] = []
    since = 0.0
    with connection.cursor() as cursor:
        if relaxed:
            cursor.execute("SET synchronous_commit TO off")

        def flush() -> None:
            if waiting:
                ids = ", ".join(["%s"] * len(waiting))
                cursor.execute(_MARK_SENT_MANY.format(table=table, ids=ids),
                               [timezone_now(), *waiting])
                waiting.clear()

        def mark(row: Notification) -> None:
            nonlocal since
            if not waiting:
                since = time.monotonic()
            waiting.append(row.pk)
            if len(waiting) >= rows or time.monotonic() - since >= seconds:
                flush()

        try:
            yield mark
        finally:
            try:
                flush()
            finally:
                if relaxed:
                    cursor.execute("SET synchronous_commit TO DEFAULT")


class _Marker:
    """``mark(row)`` after each accepted message, ``settle()`` before any other statement
    on the connection (see :func:`_marker`). Synchronous: ``settle`` has nothing to do."""

    def __init__(self, mark: Callable[[Notification], None]) -> None:
        self.mark = mark

    def __call__(self, row: Notification) -> None:
        self.mark(row)

    def settle(self) -> None:
        pass


class _SentMarker(_Marker):
    """The marks on PostgreSQL outside a transaction: each ``UPDATE`` (a statement
    prepared once per connection, ``_MARK_PREPARED``) handed to the server without
    waiting for its answer, which is read before the next statement goes. The server
    runs and commits each one on its own (autocommit: the protocol's Sync goes with it),
    whether or not the sender is still there to read the answer; the round trip overlaps
    the next message's exchange with the SMTP server instead of being one more wait per
    email (after which the process starts on cold caches). A failed mark is raised at
    the next ``mark`` or ``settle``."""

    NAME = b"pbw_outbox_mark_sent"

    def __init__(self, sql: str) -> None:
        from psycopg import pq

        self.conn = connection.connection
        self.pg = self.conn.pgconn
        # Django's error wrapper, looked up once (``connection`` is a per-context lookup)
        self.errors = connection.wrap_database_errors
        self.ok = pq.ExecStatus.COMMAND_OK
        self.pending = False
        if self.conn not in _MARK_PREPARED:
            self._check(self.pg.prepare(self.NAME, _numbered(sql).encode(), None))
            _MARK_PREPARED.add(self.conn)

    def _check(self, result: Any) -> None:
        if result is not None and result.status != self.ok:
            import psycopg.errors

            with connection.wrap_database_errors:
                raise psycopg.errors.error_from_result(result, encoding="utf-8")

    def _wait(self, read: bool) -> None:
        poll = select.poll()  # (select.select refuses descriptors past 1023)
        poll.register(self.pg.socket, select.POLLIN if read else select.POLLOUT)
        if not poll.poll(MARK_TIMEOUT_SECONDS * 1000):
            from django.db import OperationalError

            raise OperationalError("the database did not answer a sent mark in time")

    def __call__(self, row: Notification) -> None:
        self.settle()
        with self.errors:
            self.pg.send_query_prepared(self.NAME, [timezone_now().isoformat().encode(),
                                                    str(row.pk).encode()])
            while self.pg.flush():  # all of it handed to the kernel before the next message
                self._wait(read=False)
        self.pending = True

    def settle(self) -> None:
        if not self.pending:
            return
        self.pending = False
        with self.errors:
            self.pg.consume_input()
            while self.pg.is_busy():
                self._wait(read=True)
                self.pg.consume_input()
            failed = None
            while (result := self.pg.get_result()) is not None:
                if result.status != self.ok and failed is None:
                    failed = result
        self._check(failed)


#: psycopg connections on which the mark is prepared (a new connection prepares it again)
_MARK_PREPARED: weakref.WeakSet[Any] = weakref.WeakSet()
MARK_TIMEOUT_SECONDS = 30


def _numbered(sql: str) -> str:
    """``%s`` placeholders as PostgreSQL's ``$1``, ``$2``…"""
    parts = sql.split("%s")
    return "".join(part + (f"${i}" if i < len(parts) else "")
                   for i, part in enumerate(parts, start=1))


@contextmanager
def _marker(*, overlap: bool = False) -> Iterator[_Marker]:
    """``mark(row)``: the server accepted this row's message, say so now, before the next
    one goes (a sender killed later re-sends none of the messages already marked). One
    plain statement per message, stamped by the application's clock (the one the quiet
    periods are reckoned by; the ORM's ``filter().update()`` cost three times the CPU,
    paid per email). ``mark.settle()``: before any other statement in between.

    With ``overlap`` (the email sender, whose only other statements between marks follow
    a failed message, after ``settle``) on PostgreSQL outside a transaction (the mail
    workers) it is :class:`_SentMarker`: the statement is on its way to the server before
    the next message goes, and its answer is read while that message is being sent.
    Otherwise on PostgreSQL (a channel's sender, which may query between its verdicts;
    tests and callers inside ``atomic``) a prepared statement on a cursor of psycopg's
    own, run and answered one at a time; elsewhere (SQLite) Django's cursor. Errors are
    Django's.

    On PostgreSQL the marks are committed without waiting for the WAL flush
    (``synchronous_commit = off``, for this sending only): each is visible to every other
    sender at once and survives the sender being killed; only a crash of PostgreSQL itself
    may lose the last fraction of a second of marks, whose messages are then sent again
    (at least once, same Message-ID). Waiting for the flush cost a disk sync per email. A
    lost database connection mid-batch is seen one message later: that batch may send
    two messages again (a killed sender, one)."""
    sql = _MARK_SENT.format(table=connection.ops.quote_name(Notification._meta.db_table))
    postgres = connection.vendor == "postgresql"
    relaxed = postgres and not connection.in_atomic_block
    with connection.cursor() as cursor:
        if relaxed:
            cursor.execute("SET synchronous_commit TO off")
        try:
            if relaxed and overlap:
                marker: _Marker = _SentMarker(sql)
                try:
                    yield marker
                finally:
                    marker.settle()
            elif postgres:
                import psycopg

                raw = psycopg.Cursor(connection.connection)  # server-side binding
                errors = connection.wrap_database_errors

                def mark(row: Notification) -> None:
                    with errors:
                        raw.execute(sql, (timezone_now(), row.pk), prepare=True)
                try:
                    yield _Marker(mark)
                finally:
                    raw.close()
            else:
                yield _Marker(lambda row: cursor.execute(sql, [timezone_now(), row.pk]))
        finally:
            if relaxed:
                cursor.execute("SET synchronous_commit TO DEFAULT")


def notifications_send_batch(*, ids: list[int] | None = None, limit: int | None = None,
                             now: datetime | None = None) -> BatchReport:
    """Claim a batch (``ids``, or the oldest due rows) and send it over one connection.

    1. Claim (lease) the rows, read in the same statement (``_claim_rows``); attach
       their recipients, profiles, matches and phases (``_attach``).
    2. Ask the policy (``notifications.send_decision``) about each: send, skip (nobody
       wants it any more: closed with ``sent_at`` and an ``error`` saying why) or hold
       (a coalesced "your move" waiting for its time).
    3. Render each email; a rendering error is a retry of that row only.
    4. Open one SMTP connection; send message by message so each gets its own verdict;
       a lost connection sends the rest of the batch back to the queue. Each accepted
       message's row is marked sent at once.
    """
    now = now or timezone_now()
    limit = limit or settings.EMAIL_BATCH_SIZE
    report = BatchReport()
    rows = _claim_rows(now=now, limit=limit, ids=ids)
    report.claimed = len(rows)
    if not rows:
        return report
    rows = _attach(rows)
    mail = [row for row in rows if row.channel == "email"]
    emails.prefetch(mail)
    unsubscribe.prefetch_tokens([row.recipient for row in mail],
                                kinds_for=[(row.recipient, row.kind) for row in mail])
    decisions = notifications.send_decisions(rows, now=now)
    to_build: list[Notification] = []
    others: dict[str, list[Notification]] = {}
    for row in rows:
        decision = decisions[row.pk]
        if decision.skip:
            Notification.objects.filter(pk=row.pk).update(
                sent_at=now, claimed_until=None, error=SKIPPED_PREFIX + decision.skip)
            report.skipped.append(row.pk)
            continue
        if decision.hold_until is not None:
            Notification.objects.filter(pk=row.pk).update(
                claimed_until=None, next_attempt_at=decision.hold_until,
                attempts=F("attempts") - 1)
            continue
        if row.channel != "email":  # push, webhook: the channel's own sender, below
            others.setdefault(row.channel, []).append(row)
            continue
        to_build.append(row)
    ready: list[tuple[Notification, object]] = []
    for row, message in emails.build_many(to_build):
        if isinstance(message, Exception):  # one broken template must not stop the batch
            log.error("notification %s could not be rendered", row.pk, exc_info=message)
            _retry_or_fail([row], f"render: {message!r}", now, report)
            continue
        message.extra_headers["Message-ID"] = message_id(row)
        ready.append((row, message))
    if ready:
        _deliver(ready, now, report)
    for name, channel_rows in others.items():
        _deliver_channel(name, channel_rows, now, report)
    return report


_SELECT_ANY: dict[tuple[Any, str], str] = {}


def _by_ids(model: Any, ids: set[int], *, column: str = "id") -> list[Any]:
    """The rows of ``model`` whose ``column`` is one of ``ids``. On PostgreSQL one
    statement written once per process (``= ANY(%s)``: the same text for any number of
    ids), read through ``raw``; the ORM compiled a query anew for each table and batch,
    which cost more CPU than reading the rows. Elsewhere the ORM's ``__in``."""
    if not ids:
        return []
    if connection.vendor != "postgresql":
        return list(model._default_manager.filter(**{f"{column}__in": ids}))
    sql = _SELECT_ANY.get((model, column))
    if sql is None:
        quote = connection.ops.quote_name
        sql = _SELECT_ANY[(model, column)] = "SELECT {} FROM {} WHERE {} = ANY(%s)".format(
            ", ".join(quote(f.column) for f in model._meta.concrete_fields),
            quote(model._meta.db_table), quote(column))
    return list(model._default_manager.raw(sql, [list(ids)]))


def _attach(rows: list[Notification]) -> list[Notification]:
    """The claimed rows, each with its recipient (and profile), phase and match attached,
    one object per recipient, phase and match in the batch (three queries, not a join per
    row): a close's emails share their match and phase, and a reader with several
    emails in a batch is one user. The Match's state is large JSON, decoded once per
    batch, and renderers memoise on the Match object for the batch. A row whose user or
    match was deleted since the claim is left out (the deletion took the row with it)."""
    user_ids = {row.recipient_id for row in rows}
    users = {user.pk: user for user in _by_ids(get_user_model(), user_ids)}
    for profile in _by_ids(Profile, user_ids, column="user_id"):
        users[profile.user_id].profile = profile  # what select_related would attach
    phases = {p.pk: p for p in _by_ids(Phase, {row.phase_id for row in rows if row.phase_id})}
    matches = {m.pk: m for m in _by_ids(Match, {row.match_id for row in rows if row.match_id})}
    out = []
    for row in rows:
        if row.recipient_id not in users or (row.match_id is not None
                                             and row.match_id not in matches):
            continue
        row.recipient = users[row.recipient_id]
        row.phase = phases.get(row.phase_id) if row.phase_id is not None else None
        if row.match_id is not None:
            row.match = matches[row.match_id]
        out.append(row)
    return out


def _deliver_channel(name: str, rows: list[Notification], now: datetime,
                     report: BatchReport) -> None:
    """Rows of a plugged-in channel (``AppHooks.channels``): it sends, and records
    each verdict the moment it has it, as email does (sent: marked at once, so a killed
    sender re-sends only what was in flight; retry with backoff; failed; skipped)."""
    channel = notifications.channels().get(name)
    if channel is None:
        _retry_or_fail(rows, f"no channel {name!r} installed", now, report)
        return
    recorded: set[int] = set()
    with _grouped_marks(rows=CHANNEL_MARK_ROWS, seconds=CHANNEL_MARK_SECONDS) as mark:
        def record(row: Notification, verdict: str, reason: str = "") -> None:
            recorded.add(row.pk)
            if verdict == "sent":
                mark(row)
                report.sent.append(row.pk)
            elif verdict == "skip":
                Notification.objects.filter(pk=row.pk).update(
                    sent_at=now, claimed_until=None, error=(SKIPPED_PREFIX + reason)[:2000])
                report.skipped.append(row.pk)
            elif verdict == "failed":
                Notification.objects.filter(pk=row.pk).update(
                    failed_at=now, claimed_until=None, error=reason[:2000])
                report.failed.append(row.pk)
                log.warning("notification %s (%s) refused for good: %s", row.pk, name, reason)
            else:
                _retry_or_fail([row], reason or "retry", now, report)

        try:
            channel.deliver(rows, now, record)
        except Exception as exc:  # noqa: BLE001 - a broken channel must not stop the batch
            log.exception("channel %s failed on a batch", name)
            _retry_or_fail([r for r in rows if r.pk not in recorded], f"{name}: {exc!r}",
                           now, report)


def _deliver(ready: list[tuple[Notification, object]], now: datetime,
             report: BatchReport) -> None:
    """Send over one connection, message by message; sort each into sent / retry / failed.

    Through Django's SMTP backend the whole batch is built and flattened for the wire
    first (``_flatten``), then sent by the backend: the message building and the standard
    library's generator run back to back for the batch, not between two waits for the
    server, after each of which the process starts on cold caches (under load that
    tripled their CPU)."""
    mailer = get_connection(fail_silently=False)
    items: list[tuple[Notification, Any]] = list(ready)
    if isinstance(mailer, SMTPBackend):  # it sends message().as_bytes(linesep="\r\n")
        items = _flatten(ready, now, report)
        if not items:
            return
    try:
        mailer.open()
    except Exception as exc:  # noqa: BLE001 - the server is down: all of it later
        _retry_or_fail([row for row, _ in items], f"connect: {exc!r}", now, report)
        return
    try:
        with _marker(overlap=True) as mark:
            _send_each(_sender(mailer), items, now, report, mark)
    finally:
        try:
            mailer.close()
        except Exception:  # noqa: BLE001 - the messages are already accepted
            pass


def _flatten(ready: list[tuple[Notification, object]], now: datetime,
             report: BatchReport) -> list[tuple[Notification, Any]]:
    """Each message built and flattened for the wire now (``OutboxEmail.freeze``); one
    that cannot be built (a header with a line break) is a retry of that row only, as a
    failed send is."""
    out: list[tuple[Notification, Any]] = []
    for row, message in ready:
        try:
            message.freeze()  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - the rest of the batch still goes
            log.error("notification %s could not be built", row.pk, exc_info=exc)
            _retry_or_fail([row], f"message: {exc!r}", now, report)
            continue
        out.append((row, message))
    return out


def _sender(mailer) -> Callable[[Any], None]:
    """``send(message)`` over the open connection ``mailer``: its ``send_messages`` of
    that one message (Django's SMTP backend: ``smtplib``'s ``sendmail`` of the frozen
    message, its exceptions raised)."""
    return lambda message: mailer.send_messages([message])


def _send_each(send: Callable[[Any], None], items: list[tuple[Notification, Any]],
               now: datetime, report: BatchReport, mark: _Marker) -> None:
    for index, (row, item) in enumerate(items):
        try:
            send(item)  # the connection is open: nothing here opens or closes it
        except Exception as exc:  # noqa: BLE001 - sorted below
            mark.settle()  # the last mark answered before other statements go
            if _permanent(exc):
                Notification.objects.filter(pk=row.pk).update(
                    failed_at=now, claimed_until=None, error=repr(exc)[:2000])
                report.failed.append(row.pk)
                log.warning("notification %s refused for good: %r", row.pk, exc)
                continue
            if _connection_lost(exc):
                _retry_or_fail([r for r, _ in items[index:]], repr(exc), now, report)
                return
            _retry_or_fail([row], repr(exc), now, report)
            continue
        mark(row)
        report.sent.append(row.pk)


def notifications_drain(*, budget_seconds: float = 25.0, now: datetime | None = None) -> int:
    """Send due rows batch after batch until none is left or the time budget is used; the
    number of rows sent (a beat task: leftovers wait for the next tick or another drainer)."""
    started = time.monotonic()
    sent = 0
    while time.monotonic() - started < budget_seconds:
        report = notifications_send_batch(now=now)
        sent += len(report.sent)
        if report.claimed == 0:
            break
    return sent


def notifications_due_count(*, now: datetime | None = None) -> int:
    return due(now or timezone_now()).count()


def notification_send(*, notification_id: int, now: datetime | None = None) -> bool:
    """Send one outbox row now if it is due and unclaimed; True if the server accepted it.
    Failures are recorded on the row (retry later, or failed), never raised."""
    return notification_id in notifications_send_batch(ids=[notification_id], now=now).sent


def notifications_pending(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """Ids of rows a sender may claim now (unsent, due, no live lease)."""
    return list(due(now or timezone_now()).order_by("next_attempt_at")
                .values_list("pk", flat=True)[:limit])
