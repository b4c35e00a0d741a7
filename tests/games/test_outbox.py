"""The outbox sender (games/services/outbox.py) against a real SMTP server on loopback:
one connection per batch, sent only once accepted, leases that expire back into the queue,
backoff for 24 hours then failed (shown on the profile), a permanent 5xx refusal failed
once without retries, and a stable Message-ID per notification."""

from __future__ import annotations

import email
import socket
from datetime import datetime, timedelta, timezone
from email.policy import default as default_policy

import pytest
import time_machine
from aiosmtpd.controller import Controller
from django.urls import reverse

from games import tasks
from games.models import Notification
from games.services.outbox import (message_id, notifications_claim, notifications_send_batch,
                                   retry_delay)
from tests.factories import make_user

pytestmark = pytest.mark.django_db
CURRENT_TIME = datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)


class Server:
    """An SMTP sink that counts connections and refuses some addresses."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.connections = 0
        self.refuse: dict[str, str] = {}

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        self.connections += 1
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=default_policy))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp(settings):
    server = Server()
    port = _free_port()
    controller = Controller(server, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    yield server
    controller.stop()


def _rows(users, **extra) -> list[Notification]:
    return [Notification.objects.create(recipient=u, kind="director",
                                        payload={"subject": f"s{u.pk}", "message": "m"}, **extra)
            for u in users]


def test_a_batch_goes_over_one_connection_and_is_marked_sent(smtp):
    users = [make_user(staff=True) for _ in range(5)]
    rows = _rows(users)
    report = notifications_send_batch(ids=[r.pk for r in rows])
    assert sorted(report.sent) == sorted(r.pk for r in rows)
    assert smtp.connections == 1 and len(smtp.messages) == 5
    assert not Notification.objects.filter(sent_at__isnull=True).exists()
    assert set(Notification.objects.values_list("claimed_until", flat=True)) == {None}


def test_message_id_is_stable_per_notification(smtp):
    row = _rows([make_user(staff=True)])[0]
    notifications_send_batch(ids=[row.pk])
    assert smtp.messages[0]["Message-ID"] == message_id(row)
    # a resend after a crash (row unsent again) carries the same Message-ID
    Notification.objects.filter(pk=row.pk).update(sent_at=None)
    notifications_send_batch(ids=[row.pk])
    assert smtp.messages[1]["Message-ID"] == smtp.messages[0]["Message-ID"]
    assert message_id(row) != message_id(_rows([make_user(staff=True)])[0])


def test_a_claimed_row_is_not_sent_twice_and_an_expired_lease_returns_to_the_queue(smtp):
    row = _rows([make_user(staff=True)])[0]
    with time_machine.travel(CURRENT_TIME, tick=False):
        Notification.objects.filter(pk=row.pk).update(next_attempt_at=CURRENT_TIME)
        assert notifications_claim(now=CURRENT_TIME, limit=10) == [row.pk]  # a sender died
        assert notifications_send_batch(ids=[row.pk]).claimed == 0  # its lease holds
        assert tasks.notifications_send_pending.delay().get() == 0
    assert smtp.messages == []
    # the lease expires (60 s); the 30-s sweep picks the row up again
    with time_machine.travel(CURRENT_TIME + timedelta(seconds=61), tick=False):
        assert tasks.notifications_send_pending.delay().get() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2 and len(smtp.messages) == 1


def test_a_permanent_refusal_fails_once_and_is_never_retried(smtp):
    good, bad = make_user(staff=True), make_user(staff=True, email="nobody@example.com")
    smtp.refuse["nobody@example.com"] = "550 5.1.1 No such user"
    rows = _rows([bad, good])
    report = notifications_send_batch(ids=[r.pk for r in rows])
    assert report.failed == [rows[0].pk] and report.sent == [rows[1].pk]
    failed = Notification.objects.get(pk=rows[0].pk)
    assert failed.failed_at is not None and failed.attempts == 1 and "550" in failed.error
    with time_machine.travel(timedelta(days=2)):
        assert tasks.notifications_send_pending.delay().get() == 0
    assert Notification.objects.get(pk=rows[0].pk).attempts == 1  # no retry storm
    assert [m["To"] for m in smtp.messages] == [good.email]


def test_a_temporary_refusal_backs_off_and_fails_after_24_hours(smtp, settings, client):
    user = make_user(email="later@example.com")
    smtp.refuse["later@example.com"] = "451 4.3.0 Try again later"
    with time_machine.travel(CURRENT_TIME, tick=False):
        row = Notification.objects.create(recipient=user, kind="reminder", payload={})
        notifications_send_batch(ids=[row.pk])
    row.refresh_from_db()
    assert row.failed_at is None and row.sent_at is None
    assert row.next_attempt_at == CURRENT_TIME + retry_delay(1) and "451" in row.error
    when, attempts = CURRENT_TIME, 1
    while when < CURRENT_TIME + timedelta(hours=settings.EMAIL_RETRY_HOURS):
        when = Notification.objects.get(pk=row.pk).next_attempt_at
        with time_machine.travel(when, tick=False):
            tasks.notifications_send_pending.delay().get()
        attempts += 1
        assert Notification.objects.get(pk=row.pk).attempts == attempts
    row.refresh_from_db()
    assert row.failed_at is not None and row.sent_at is None
    assert row.failed_at - row.created_at >= timedelta(hours=settings.EMAIL_RETRY_HOURS)
    assert attempts < 40  # backoff, not a storm
    # the player's profile shows the failure
    client.force_login(user)
    with time_machine.travel(row.failed_at + timedelta(hours=1), tick=False):
        page = client.get(reverse("accounts:profile")).content.decode()
    assert "could not deliver" in page and "451" in page


def test_a_dead_server_leaves_every_row_queued(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", _free_port(), 2
    rows = _rows([make_user(staff=True) for _ in range(3)])
    report = notifications_send_batch(ids=[r.pk for r in rows])
    assert sorted(report.retry) == sorted(r.pk for r in rows) and report.sent == []
    for row in Notification.objects.all():
        assert row.sent_at is None and row.failed_at is None and row.claimed_until is None


@pytest.mark.slow
def test_bench_email_delivers_everything_once_through_real_workers(capsys):
    """The bench itself, small: its own Redis, database, SMTP server and mail workers."""
    import json

    from django.core.management import call_command

    call_command("bench_email", "--emails", "60", "--json", "--timeout", "120")
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["emails"] == result["sent"] == result["received"] == 60
    assert result["lost"] == 0 and result["duplicates"] == 0 and result["per_s"] > 0


def test_a_shared_rendering_gives_each_reader_only_their_own_name_and_link(smtp):
    """Reminders of one phase are rendered once per batch (emails.SHARED_KINDS); each
    reader still gets their own name (escaped in HTML) and unsubscribe link, nobody
    else's."""
    from games import selectors
    from games.lib.unsubscribe import unsubscribe_url
    from tests.factories import make_match

    alice, bob = make_user("alice<b>", email="alice@example.com"), make_user("bob")
    match = make_match(users=[alice, bob])
    phase = selectors.current_phase(match)
    Notification.objects.all().delete()
    for user in (alice, bob, alice):
        Notification.objects.create(recipient=user, kind="reminder", match=match, phase=phase,
                                    payload={"phase_id": phase.pk})
    report = notifications_send_batch()
    assert len(report.sent) == 3 and smtp.connections == 1
    for message in smtp.messages:
        me, other = (alice, bob) if message["To"] == alice.email else (bob, alice)
        text = message.get_body(("plain",)).get_content()
        html = message.get_body(("html",)).get_content()
        assert f"Hello {me.username}," in text and unsubscribe_url(me, "reminder") in text
        assert other.username not in text + html
        assert unsubscribe_url(other, "reminder") not in text + html
        assert "PBWREADER" not in text + html + message["Subject"]
    to_alice = [m for m in smtp.messages if m["To"] == alice.email][0]
    assert "alice&lt;b&gt;" in to_alice.get_body(("html",)).get_content()


def _kill_after_two_marks(smtp, monkeypatch):
    """The sender dies right after the server accepted the third message, before writing
    that row: the first two are already marked sent (not sent again), the third is the
    only one in flight (sent again after the lease, same Message-ID), the rest were never
    handed to the server and go once."""
    from contextlib import contextmanager

    from games.services import outbox

    rows = _rows([make_user(staff=True) for _ in range(6)])
    real, marked = outbox._marker, []

    class Killed(BaseException):
        """What SIGKILL would leave: nothing after this point runs."""

    @contextmanager
    def marker_that_dies(**kwargs):
        with real(**kwargs) as mark:
            def mark_then_die(row):
                if len(marked) == 2:
                    raise Killed
                mark(row)
                marked.append(row.pk)
            mark_then_die.settle = mark.settle
            yield mark_then_die

    monkeypatch.setattr(outbox, "_marker", marker_that_dies)
    with pytest.raises(Killed):
        notifications_send_batch(ids=[r.pk for r in rows])
    assert len(smtp.messages) == 3
    assert set(Notification.objects.filter(sent_at__isnull=False).values_list(
        "pk", flat=True)) == set(marked) == {rows[0].pk, rows[1].pk}
    monkeypatch.setattr(outbox, "_marker", real)
    later = datetime.now(timezone.utc) + timedelta(seconds=61)  # the lease expired
    with time_machine.travel(later, tick=False):
        report = notifications_send_batch()
    assert sorted(report.sent) == sorted(r.pk for r in rows[2:])
    ids = [m["Message-ID"] for m in smtp.messages]
    assert len(ids) == 7 and len(set(ids)) == 6
    assert [i for i in set(ids) if ids.count(i) > 1] == [message_id(rows[2])]


def test_each_accepted_message_is_marked_at_once_so_a_kill_doubles_at_most_one(
        smtp, monkeypatch):
    """Inside a transaction (a test's): each mark run and answered in turn."""
    _kill_after_two_marks(smtp, monkeypatch)


@pytest.mark.django_db(transaction=True)
def test_overlapped_marks_also_double_at_most_one_on_a_kill(smtp, monkeypatch):
    """Outside a transaction, as the mail workers send: each mark goes to the server
    before the next message and is answered while that message is sent
    (``outbox._SentMarker``); a kill still leaves only the message in flight unmarked."""
    from games.services import outbox

    seen = []
    real = outbox._SentMarker

    class Recording(real):
        def __init__(self, sql):
            super().__init__(sql)
            seen.append(self)

    monkeypatch.setattr(outbox, "_SentMarker", Recording)
    _kill_after_two_marks(smtp, monkeypatch)
    assert seen  # the overlapped marker did the marking


@pytest.mark.django_db(transaction=True)
def test_overlapped_marks_record_every_verdict(smtp):
    """A batch outside a transaction: every accepted message marked, a refused one failed
    and a deferred one retried in between (the pending mark answered first), and the
    connection usable afterwards."""
    users = [make_user(email=f"u{i}@example.com") for i in range(6)]
    smtp.refuse["u2@example.com"] = "550 5.1.1 No such user"
    smtp.refuse["u4@example.com"] = "451 4.3.0 Try again later"
    rows = [Notification.objects.create(recipient=u, kind="reminder", payload={})
            for u in users]
    report = notifications_send_batch(ids=[r.pk for r in rows])
    assert sorted(report.sent) == sorted(r.pk for r in rows if r.recipient.email
                                         not in smtp.refuse)
    assert report.failed == [rows[2].pk] and report.retry == [rows[4].pk]
    sent = set(Notification.objects.filter(sent_at__isnull=False, error="")
               .values_list("pk", flat=True))
    assert sent == set(report.sent)
    assert Notification.objects.get(pk=rows[2].pk).failed_at is not None
    assert Notification.objects.get(pk=rows[4].pk).next_attempt_at > rows[4].next_attempt_at


def test_every_failure_is_logged_with_the_outbox_id_and_the_reason(smtp, caplog, settings):
    later, gone = make_user(email="later@example.com"), make_user(email="gone@example.com")
    smtp.refuse["later@example.com"] = "451 4.3.0 Try again later"
    smtp.refuse["gone@example.com"] = "550 5.1.1 No such user"
    rows = [Notification.objects.create(recipient=u, kind="reminder", payload={})
            for u in (later, gone)]
    with caplog.at_level("WARNING", logger="games.services.outbox"):
        notifications_send_batch(ids=[r.pk for r in rows])
    text = caplog.text
    assert f"notification {rows[0].pk} not sent" in text and "451" in text
    assert f"notification {rows[1].pk} refused for good" in text and "550" in text
    caplog.clear()
    settings.EMAIL_PORT = _free_port()  # nothing listens: the connection fails
    row = Notification.objects.create(recipient=later, kind="reminder", payload={})
    with caplog.at_level("WARNING", logger="games.services.outbox"):
        notifications_send_batch(ids=[row.pk])
    assert f"notification {row.pk} not sent" in caplog.text and "connect" in caplog.text
