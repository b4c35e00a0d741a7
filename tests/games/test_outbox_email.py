"""The outbox's emails are Django's (``games.emails.OutboxEmail``): the standard library
builds and flattens them; the only changes are a boundary chosen up front and the
``OutboxPolicy`` that writes a plain ASCII one-line header as it is. These tests hold
that to Django's own output."""

from __future__ import annotations

import email
import re
from email.policy import default as default_policy

import pytest
from django.core.mail import EmailMultiAlternatives

from games.emails import OutboxEmail

SUBJECTS = ["[Kill Game 3] New phase: Action (turn 3)",
            "[ヘビ] 新しいフェーズ: 行動 (ターン 3)",  # encoded words, folded by compat32
            "[A long match name that goes on] " + "word " * 30]
UNSUBSCRIBE = "<http://play.example.org/accounts/unsubscribe/" + "A1b2C3d4" * 12 + "/>"


def _make(cls, subject: str):
    message = cls(subject=subject, body="Hello ann,\n\n- Bob moved.\n" + "x" * 1200 + "\n",
                  from_email="Phases <noreply@example.org>", to=["ann@example.org"],
                  headers={"List-Unsubscribe": UNSUBSCRIBE,
                           "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                           "Message-ID": "<notification-7.1700000000@example.org>",
                           "Date": "Wed, 02 Dec 2026 10:00:00 -0000"})
    message.attach_alternative("<p>Hello ann,</p><ul><li>Bob moved · è</li></ul>", "text/html")
    return message


def _flat(cls, subject: str) -> bytes:
    raw = _make(cls, subject).message().as_bytes(linesep="\r\n")
    boundary = re.search(rb'boundary="([^"]+)"', raw).group(1)
    return raw.replace(boundary, b"BOUNDARY")


def _parts(raw: bytes) -> list:
    parsed = email.message_from_bytes(raw)  # compat32, as written on the wire
    return [([(name, " ".join(value.split())) for name, value in part.items()],
             None if part.is_multipart() else part.get_payload())
            for part in parsed.walk()]


@pytest.mark.parametrize("subject", SUBJECTS)
def test_the_same_message_as_djangos_but_long_ascii_headers_stay_on_one_line(subject):
    ours, django = _flat(OutboxEmail, subject), _flat(EmailMultiAlternatives, subject)
    # part for part the same bodies, and header for header the same values once unfolded
    assert _parts(ours) == _parts(django)
    # a header compat32 leaves on one line: the very same bytes
    assert ours.split(b"\r\n\r\n", 1)[1] == django.split(b"\r\n\r\n", 1)[1]
    assert b"\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n" in ours
    for line in ours.split(b"\r\n"):
        assert len(line) <= 998
    head = ours.split(b"\r\n\r\n", 1)[0].decode()
    assert f"List-Unsubscribe: {UNSUBSCRIBE}\r\n" in head + "\r\n"  # one line, as written
    parsed = email.message_from_bytes(ours, policy=default_policy)
    assert parsed["Subject"].strip() in (" ".join(subject.split()), subject.strip())
    assert parsed.get_body(("plain",)).get_content().startswith("Hello ann,")
    assert "è" in parsed.get_body(("html",)).get_content()


def test_a_header_with_a_line_break_is_refused_as_django_refuses_it():
    from django.core.mail import BadHeaderError

    with pytest.raises(BadHeaderError):
        _make(OutboxEmail, "two\nlines").message()


def test_each_message_has_its_own_boundary():
    one, two = (_make(OutboxEmail, SUBJECTS[0]).message() for _ in range(2))
    assert one.get_boundary() != two.get_boundary()
    assert len(one.get_boundary()) >= 32
