"""A local HTTP receiver for the tests: records every POST (path, headers, body) and
answers with the next status of a script (default 201). Also a browser's push keys, to
decrypt what the server pushed (RFC 8291 aes128gcm, with ``http_ece``)."""

from __future__ import annotations

import base64
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    statuses: list[int] = field(default_factory=list)
    default_status: int = 201
    received: list[Received] = field(default_factory=list)
    extra_headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                owner.received.append(Received(self.path, {k.lower(): v for k, v in
                                                           self.headers.items()}, body))
                status = owner.statuses.pop(0) if owner.statuses else owner.default_status
                self.send_response(status)
                for k, v in owner.extra_headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class BrowserKeys:
    """What a browser makes when it subscribes: an ECDH key pair and an auth secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict:
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth,
                                version="aes128gcm")
