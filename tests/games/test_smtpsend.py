"""The outbox's SMTP conversation (games/lib/smtpsend.py) against a real aiosmtpd server:
what arrives is the message (dots stuffed and unstuffed), and a refusal raises what
``smtplib.SMTP.sendmail`` raises, with the session still usable after it."""

from __future__ import annotations

import smtplib
import socket

import pytest
from aiosmtpd.controller import Controller

from games.lib import smtpsend


class Sink:
    def __init__(self):
        self.received: list[tuple[str, list[str], bytes]] = []
        self.refuse_rcpt: dict[str, str] = {}
        self.refuse_data: str | None = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse_rcpt:
            return self.refuse_rcpt[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.refuse_data:
            return self.refuse_data
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos),
                              envelope.original_content))
        return "250 OK"


@pytest.fixture
def session():
    sink = Sink()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    smtp = smtplib.SMTP("127.0.0.1", port, timeout=5)
    yield smtp, sink
    smtp.close()
    controller.stop()


RAW = b"Subject: x\r\nMessage-ID: <n-1.1@localhost>\r\n\r\nfirst\r\n.dot line\r\n..two\r\nend"


def test_the_message_arrives_as_written(session):
    smtp, sink = session
    smtpsend.send(smtp, "Phases <noreply@localhost>", ["a@example.com"], RAW)
    sender, rcpts, content = sink.received[0]
    assert sender == "noreply@localhost" and rcpts == ["a@example.com"]
    assert content == RAW + b"\r\n"


def test_refusals_raise_what_sendmail_raises_and_the_session_goes_on(session):
    smtp, sink = session
    sink.refuse_rcpt["gone@example.com"] = "550 5.1.1 No such user"
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        smtpsend.send(smtp, "noreply@localhost", ["gone@example.com"], RAW)
    assert refused.value.recipients["gone@example.com"][0] == 550
    sink.refuse_data = "451 4.3.0 try later"
    with pytest.raises(smtplib.SMTPDataError) as later:
        smtpsend.send(smtp, "noreply@localhost", ["a@example.com"], RAW)
    assert later.value.smtp_code == 451
    sink.refuse_data = None
    smtpsend.send(smtp, "noreply@localhost", ["a@example.com"], RAW)
    assert len(sink.received) == 1
    with pytest.raises(ValueError):
        smtpsend.envelope("a@example.com\r\nRCPT TO:<b@example.com>")
