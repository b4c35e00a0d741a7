"""The server's VAPID key pair (RFC 8292): push services accept a push only when it is
signed by the key whose public half the browser subscribed with.

The key comes from the settings (``VAPID_PRIVATE_KEY``, or the file ``VAPID_PRIVATE_KEY_FILE``
names: a PEM, or the raw key in base64url). The embedded server (``manage.py run``) makes
one in ``var/vapid_private.pem`` on first start, as it does the secret key; production
never makes or changes one (a new key would silently orphan every subscription): without
a configured key push is off and the API says so. ``manage.py vapid_key`` prints a new one.

This module imports no model: the settings use :func:`dev_vapid_key`.
"""

from __future__ import annotations

import base64
import os
import time
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid


def new_private_pem() -> str:
    """A new P-256 private key as PEM text."""
    key = Vapid()
    key.generate_keys()
    return key.private_pem().decode()


def dev_vapid_key(path: Path, *, create: bool) -> str:
    """The key kept in ``path`` (mode 0600), made on first use only when ``create``;
    ``""`` otherwise (as ``config.devkey.dev_secret_key``)."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        if not create:
            return ""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text().strip()
    pem = new_private_pem()
    with os.fdopen(fd, "w") as fh:
        fh.write(pem)
    return pem.strip()


def load(text: str) -> Vapid:
    """The key from its settings text (PEM or base64url raw/DER); ``ValueError`` if bad."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            return Vapid.from_pem(text.encode())
        return Vapid.from_string(text)
    except Exception as exc:  # noqa: BLE001 - every malformed key is the same mistake
        raise ValueError(f"VAPID_PRIVATE_KEY is not a valid P-256 private key: {exc}") from None


@lru_cache(maxsize=4)
def _key(text: str) -> Vapid:
    return load(text)


def server_key() -> Vapid | None:
    """The configured key, or ``None`` (push is off)."""
    from django.conf import settings

    text = getattr(settings, "VAPID_PRIVATE_KEY", "")
    return _key(text) if text else None


def public_key_b64(key: Vapid) -> str:
    """The ``applicationServerKey`` a browser subscribes with: the uncompressed point,
    base64url without padding."""
    raw = key.public_key.public_bytes(serialization.Encoding.X962,
                                      serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


_headers: dict[str, tuple[float, dict[str, str]]] = {}
HEADER_SECONDS = 3600  # a signature is reused for an hour per push service (it lives 12 h)


def auth_headers(key: Vapid, audience: str, subject: str) -> dict[str, str]:
    """The ``Authorization`` header for pushes to ``audience`` (the push service's
    origin), signed once an hour rather than once per push."""
    now = time.time()
    cached = _headers.get(audience)
    if cached is not None and cached[0] > now:
        return cached[1]
    claims = {"aud": audience, "sub": subject, "exp": int(now) + 12 * 3600}
    headers = {k.lower(): v for k, v in key.sign(claims).items()}
    # RFC 8292 "vapid" scheme: t=<JWT>, k=<public key>, one header
    signed = {"authorization": headers["authorization"]}
    if "crypto-key" in headers and not headers["authorization"].startswith("vapid "):
        signed["crypto-key"] = headers["crypto-key"]
    _headers[audience] = (now + HEADER_SECONDS, signed)
    return signed
