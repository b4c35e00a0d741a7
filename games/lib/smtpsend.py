"""One message over an open ``smtplib`` session: what ``SMTP.sendmail`` does, for the
outbox's hot path.

``sendmail`` parses both envelope addresses with ``email.utils`` on every call and scans
the message for bare line ends; the outbox sends thousands of messages from one sender to
plain ASCII addresses, already in wire form (CRLF, from ``games.lib.mime``). So the
addresses are put in angle brackets once (memoised) and the conversation is the same
commands, replies and exceptions as ``sendmail``: ``MAIL FROM`` (with ``SIZE`` when the
server offers it), ``RCPT TO``, ``DATA`` with dot-stuffing, ``SMTPSenderRefused`` /
``SMTPRecipientsRefused`` / ``SMTPDataError`` with the server's code, ``RSET`` after a
refusal and the connection closed on 421.
"""

from __future__ import annotations

import re
import smtplib
from functools import lru_cache

CRLF = b"\r\n"
_LEADING_DOT = re.compile(rb"(?m)^\.")


@lru_cache(maxsize=4096)
def envelope(address: str) -> str:
    """``address`` (``Name <a@b>`` or ``a@b``) as ``<a@b>`` for ``MAIL``/``RCPT``."""
    if "\r" in address or "\n" in address:
        raise ValueError(f"an address can't contain a line break: {address!r}")
    return smtplib.quoteaddr(address)


def _command(smtp: smtplib.SMTP, line: str) -> tuple[int, bytes]:
    smtp.send(line + "\r\n")
    return smtp.getreply()


def _refused(smtp: smtplib.SMTP, code: int) -> None:
    """After a refusal: a 421 ends the session, anything else resets the transaction."""
    if code == 421:
        smtp.close()
    else:
        smtp._rset()  # noqa: SLF001 - sendmail's own reset, which ignores a lost server


def send(smtp: smtplib.SMTP, sender: str, recipients: list[str], raw: bytes) -> None:
    """Send ``raw`` (CRLF line ends, ASCII envelope) from ``sender`` to ``recipients``;
    raises what ``smtplib.SMTP.sendmail`` raises for the same replies."""
    smtp.ehlo_or_helo_if_needed()
    size = f" SIZE={len(raw)}" if smtp.does_esmtp and smtp.has_extn("size") else ""
    code, reply = _command(smtp, f"MAIL FROM:{envelope(sender)}{size}")
    if code != 250:
        _refused(smtp, code)
        raise smtplib.SMTPSenderRefused(code, reply, sender)
    refused: dict[str, tuple[int, bytes]] = {}
    for recipient in recipients:
        code, reply = _command(smtp, f"RCPT TO:{envelope(recipient)}")
        if code not in (250, 251):
            refused[recipient] = (code, reply)
        if code == 421:
            smtp.close()
            raise smtplib.SMTPRecipientsRefused(refused)
    if len(refused) == len(recipients):
        smtp._rset()  # noqa: SLF001
        raise smtplib.SMTPRecipientsRefused(refused)
    code, reply = _command(smtp, "DATA")
    if code != 354:
        raise smtplib.SMTPDataError(code, reply)
    data = _LEADING_DOT.sub(b"..", raw)
    if not data.endswith(CRLF):
        data += CRLF
    smtp.send(data + b"." + CRLF)
    code, reply = smtp.getreply()
    if code != 250:
        _refused(smtp, code)
        raise smtplib.SMTPDataError(code, reply)
