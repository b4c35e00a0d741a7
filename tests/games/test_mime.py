"""The outbox's hand-written MIME (games/lib/mime.py) parses back to what Django's
generator would carry: headers, both parts, non-ASCII text, over-long lines."""

from __future__ import annotations

import email
from email.policy import default as default_policy

import pytest
from django.core.mail import BadHeaderError, EmailMultiAlternatives

from games.lib import mime


def _message(subject="[Partita] Nuova fase — città", body="Ciao è\n.dot line\nend\n",
             html="<p>Ciao è</p>", **headers):
    m = EmailMultiAlternatives(subject=subject, body=body, from_email="Phases <noreply@localhost>",
                               to=["a@example.com"],
                               headers={"Message-ID": "<notification-7.1@localhost>", **headers})
    m.attach_alternative(html, "text/html")
    return m


def test_round_trip_headers_and_parts():
    m = _message(**{"List-Unsubscribe": "<http://localhost/u/x>"})
    parsed = email.message_from_bytes(mime.as_bytes(m), policy=default_policy)
    assert parsed["Subject"] == "[Partita] Nuova fase — città"
    assert parsed["Message-ID"] == "<notification-7.1@localhost>"
    assert parsed["To"] == "a@example.com" and parsed["Date"]
    assert parsed["List-Unsubscribe"] == "<http://localhost/u/x>"
    assert parsed.get_content_type() == "multipart/alternative"
    assert parsed.get_body(("plain",)).get_content().replace("\r\n", "\n") == m.body
    assert parsed.get_body(("html",)).get_content().strip() == "<p>Ciao è</p>"


def test_long_lines_go_quoted_printable():
    body = "è" + "x" * 1500 + "\n"
    raw = mime.as_bytes(_message(body=body))
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    parsed = email.message_from_bytes(raw, policy=default_policy)
    assert parsed.get_body(("plain",)).get_content().replace("\r\n", "\n") == body


def test_other_shapes_take_djangos_path_and_newlines_are_refused():
    m = _message()
    m.attach("a.txt", "x", "text/plain")
    assert mime.as_bytes(m) is None
    no_id = EmailMultiAlternatives("s", "b", "f@localhost", ["a@example.com"])
    no_id.attach_alternative("<p>b</p>", "text/html")
    assert mime.as_bytes(no_id) is None
    with pytest.raises(BadHeaderError):
        mime.as_bytes(_message(subject="a\nBcc: x@example.com"))
