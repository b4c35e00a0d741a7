"""Email through a real SMTP server on 127.0.0.1 (aiosmtpd), including the one-click
unsubscribe round trip: the link's token, followed through the service and the URL,
turns that email off, and the next phase sends nothing to that reader."""

from __future__ import annotations

import email
import re
import socket
from email.policy import default as default_policy

import pytest
from aiosmtpd.controller import Controller

from games import selectors
from games.models import Notification
from games.services.notifications import notification_unsubscribe, notification_unsubscribe_read
from games.services.orders import order_submit
from games.services.phases import phase_close
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


class Inbox:
    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=default_policy))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp(settings):
    inbox = Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    yield inbox
    controller.stop()


def _body(message, subtype):
    return message.get_body(preferencelist=(subtype,)).get_content()


def test_new_phase_email_over_smtp_with_unsubscribe_round_trip(
        smtp, client, django_capture_on_commit_callbacks):
    alice = make_user("alice", timezone="Europe/Rome")
    bob = make_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(users=[alice, bob], name="Smtp match")
    assert {m["To"] for m in smtp.messages} == {alice.email, bob.email}
    smtp.messages.clear()

    seat_a = selectors.seat_for_user(match, alice)
    order_submit(match=match, seat=seat_a, payload={"guess": 64})
    order_submit(match=match, seat=selectors.seat_for_user(match, bob), payload={"guess": 12})
    with django_capture_on_commit_callbacks(execute=True):
        phase_close(phase_id=selectors.current_phase(match).pk)
    to_alice = [m for m in smtp.messages if m["To"] == alice.email]
    assert len(to_alice) == 1
    message = to_alice[0]
    assert message["Subject"] == "[Smtp match] New phase: Guess (turn 2)"
    text, html = _body(message, "plain"), _body(message, "html")
    # her own new diary lines, not Bob's secret guess; the deadline in her time zone
    # (what to do and by when first, then what changed: her lines, never Bob's 12)
    changed = text.split("What changed since the last phase:")[1].split("--")[0]
    assert "Your guess was 64." in changed and "12" not in changed
    assert text.index("until") < text.index("Your guess was 64.")
    deadline = selectors.current_phase(match).deadline_at
    from games.lib.dates import format_local
    assert format_local(deadline, "Europe/Rome") in text
    assert "Your guess was 64." in html
    # List-Unsubscribe headers and the same link in the body
    header = message["List-Unsubscribe"]
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = re.fullmatch(r"<(.+)>", re.sub(r"\s+", "", str(header))).group(1)
    assert url in text and url in html
    token = re.search(r"/accounts/unsubscribe/([^/]+)/$", url).group(1)

    # the GET page only reads; following the token through the service applies it
    assert notification_unsubscribe_read(token).user == alice
    path = url.removeprefix("http://testserver")
    if client.get(path).status_code == 200:  # the web side's confirm page
        alice.profile.refresh_from_db()
        assert alice.profile.email_mode == "my_move"  # the GET changed nothing
        assert client.post(path).status_code == 200
    else:
        notification_unsubscribe(token)
    alice.profile.refresh_from_db()
    assert alice.profile.email_mode == "off"

    smtp.messages.clear()
    with django_capture_on_commit_callbacks(execute=True):
        phase_close(phase_id=selectors.current_phase(match).pk)
    assert [m["To"] for m in smtp.messages] == [bob.email]
    assert not Notification.objects.filter(recipient=alice, kind="new_phase",
                                           phase=selectors.current_phase(match)).exists()


def test_a_tampered_token_is_refused(smtp):
    from games.exceptions import ApplicationError

    with pytest.raises(ApplicationError) as err:
        notification_unsubscribe("not-a-token")
    assert err.value.status == 400


def test_reminder_and_director_emails_over_smtp(smtp, django_capture_on_commit_callbacks,
                                                director):
    from datetime import timedelta

    import time_machine

    from games.services.notifications import seats_send_nags

    player = make_user("carol")
    match = make_match(users=[player], config={"crash": True, "rounds": 1})
    phase = selectors.current_phase(match)
    with time_machine.travel(phase.deadline_at - timedelta(hours=1), tick=False), \
            django_capture_on_commit_callbacks(execute=True):
        assert seats_send_nags() == 1
    reminder = [m for m in smtp.messages if "Reminder" in m["Subject"]]
    assert len(reminder) == 1 and reminder[0]["List-Unsubscribe"]
    from games.services.phases import PhaseCloseFailed
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            with pytest.raises(PhaseCloseFailed):
                phase_close(phase_id=phase.pk, force=True)
    alert = [m for m in smtp.messages if m["To"] == director.email]
    assert len(alert) == 1 and "needs the director" in alert[0]["Subject"]
    assert "/admin/games/match/" in _body(alert[0], "plain")
