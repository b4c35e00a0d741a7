"""An outgoing email flattened to SMTP bytes by hand, for the outbox's hot path.

Django's ``EmailMessage.message().as_bytes()`` goes through the standard library's email
generator, which folds and re-encodes every header: most of the CPU an email costs. The
outbox's emails have one fixed shape (a text part and an HTML alternative, UTF-8, a few
ASCII headers), so they are written here directly, with the same headers and the same
transfer encodings Django would pick (7bit, 8bit, or quoted-printable when a line is
longer than SMTP allows). Anything outside that shape (attachments, a non-ASCII address)
gets ``None`` and goes through Django's own path.
"""

from __future__ import annotations

import secrets
from email.header import Header
from email.quoprimime import body_encode
from email.utils import formatdate

from django.core.mail import BadHeaderError, EmailMultiAlternatives

CRLF = "\r\n"
MAX_LINE = 998  # RFC 5322 §2.1.1, without the CRLF


def _header(name: str, value: str) -> str:
    if "\n" in value or "\r" in value:
        raise BadHeaderError(f"Header values can't contain newlines (got {value!r} for {name})")
    if value.isascii() and len(value) + len(name) + 2 <= MAX_LINE:
        return f"{name}: {value}"
    return f"{name}: {Header(value, 'utf-8', header_name=name).encode(linesep=CRLF)}"


def _part(content_type: str, text: str) -> str:
    """One ``text/*`` part: headers, blank line, body (CRLF line ends)."""
    lines = text.splitlines()
    long_line = (len(text) * 4 > MAX_LINE and len(text.encode()) > MAX_LINE
                 and any(len(line.encode()) > MAX_LINE for line in lines))
    if long_line:
        # quoprimime escapes code points < 256: feed it the UTF-8 bytes as latin-1
        encoding = "quoted-printable"
        body = body_encode(text.encode().decode("latin-1"), 76, eol=CRLF)
    else:
        encoding = "7bit" if text.isascii() else "8bit"
        body = CRLF.join(lines) + (CRLF if text.endswith(("\n", "\r")) else "")
    # (no MIME-Version here: RFC 2045 §4 asks for it in the message's header only)
    return (f'Content-Type: {content_type}; charset="utf-8"{CRLF}'
            f"Content-Transfer-Encoding: {encoding}{CRLF}{CRLF}{body}")


def as_bytes(message: EmailMultiAlternatives, *, localtime: bool = False) -> bytes | None:
    """``message`` as the bytes to hand to ``smtplib.SMTP.sendmail``, or ``None`` when it
    is not of the outbox's shape (Django's generator must handle it)."""
    html = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    if (message.attachments or len(message.alternatives) != 1 or len(html) != 1
            or message.cc or message.bcc or message.reply_to
            or not message.from_email.isascii()
            or not all(address.isascii() for address in message.to)):
        return None
    boundary = "=_" + secrets.token_hex(16)
    headers = [
        f'Content-Type: multipart/alternative; boundary="{boundary}"', "MIME-Version: 1.0",
        _header("Subject", message.subject), _header("From", message.from_email),
        _header("To", ", ".join(message.to)),
    ]
    extra = {name.lower() for name in message.extra_headers}
    if "date" not in extra:
        headers.append("Date: " + formatdate(localtime=localtime))
    if "message-id" not in extra:
        return None  # the outbox always sets its stable one; anything else: Django's path
    headers += [_header(name, str(value)) for name, value in message.extra_headers.items()]
    return (CRLF.join(headers) + CRLF + CRLF
            + f"--{boundary}{CRLF}" + _part("text/plain", message.body) + CRLF
            + f"--{boundary}{CRLF}" + _part("text/html", str(html[0])) + CRLF
            + f"--{boundary}--{CRLF}").encode()
