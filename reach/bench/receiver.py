"""The bench's local receiver: a bare asyncio HTTP/1.1 server (keep-alive, Content-Length
bodies, answers 201) in a process of its own; several share one port (``SO_REUSEPORT``).

While the clock runs it only keeps each request as it came (path, the headers the check
needs, the raw body) — the receivers share the two cores with the senders, so the costly
part waits: when told to stop (SIGTERM) it writes them to a file, and the bench
(:func:`verify`) then decrypts every push (RFC 8291, the bench browser's key) and checks
every webhook's HMAC signature and delivery id, after the timed window. A request to
``/f/`` (the bench's raw-HTTP floor) is answered and not kept."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import pickle
import signal
import socket
import sys
from typing import Any, Iterable

RESPONSE = b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"
KEPT = ("x-phases-delivery", "x-phases-timestamp", "x-phases-signature")


def serve(port: int, out_path: str) -> None:
    kept: list[tuple[str, dict[str, str], bytes]] = []

    class Proto(asyncio.Protocol):
        def connection_made(self, transport) -> None:
            self.transport, self.buf = transport, b""

        def data_received(self, data: bytes) -> None:
            self.buf += data
            while True:
                end = self.buf.find(b"\r\n\r\n")
                if end < 0:
                    return
                head = self.buf[:end].decode("latin-1").split("\r\n")
                headers = {}
                for line in head[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length") or 0)
                if len(self.buf) < end + 4 + length:
                    return
                body, self.buf = self.buf[end + 4:end + 4 + length], self.buf[end + 4 + length:]
                path = head[0].split(" ")[1]
                if not path.startswith("/f/"):
                    kept.append((path, {k: headers[k] for k in KEPT if k in headers}, body))
                self.transport.write(RESPONSE)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = loop.create_future()

        def finish() -> None:
            if not stop.done():
                stop.set_result(None)

        loop.add_signal_handler(signal.SIGTERM, finish)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("127.0.0.1", port))
        server = await loop.create_server(Proto, sock=sock, backlog=1024)
        print("ready", flush=True)
        await stop
        server.close()

    asyncio.run(main())
    with open(out_path, "wb") as fh:
        pickle.dump(kept, fh, protocol=pickle.HIGHEST_PROTOCOL)


def load(path: str) -> list[tuple[str, dict[str, str], bytes]]:
    with open(path, "rb") as fh:
        return pickle.load(fh)


def _sign(secret: str, timestamp: str, body: bytes) -> str:
    # the receiver's side of reach.webhooks.sign, written out as a receiver would
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def verify(kept: Iterable[tuple[str, dict[str, str], bytes]], *, key_pem: str, auth_b64: str,
           secrets: dict[str, str]) -> tuple[list[str], list[str]]:
    """(delivery ids read, problems): each push decrypted with the browser key (its id is
    in the payload), each webhook's signature checked with its secret (``secrets``: path
    -> secret) and its id header compared with the body's. A delivery that fails a check
    is a problem, not an id (so the bench counts it lost)."""
    import http_ece
    from cryptography.hazmat.primitives import serialization

    private = serialization.load_pem_private_key(key_pem.encode(), password=None)
    auth = base64.urlsafe_b64decode(auth_b64 + "=" * (-len(auth_b64) % 4))
    ids: list[str] = []
    bad: list[str] = []
    for path, headers, body in kept:
        try:
            if path.startswith("/p/"):
                plain = http_ece.decrypt(body, private_key=private, auth_secret=auth,
                                         version="aes128gcm")
                ids.append("push:" + json.loads(plain)["id"])
                continue
            secret = secrets.get(path)
            if secret is None:
                raise ValueError("no webhook at this path")
            expected = _sign(secret, headers.get("x-phases-timestamp", ""), body)
            if not hmac.compare_digest(expected, headers.get("x-phases-signature", "")):
                raise ValueError("bad signature")
            document: dict[str, Any] = json.loads(body)
            if document.get("id") != headers.get("x-phases-delivery"):
                raise ValueError("the delivery header is not the body's id")
            ids.append("webhook:" + document["id"])
        except Exception as exc:  # noqa: BLE001 - counted, reported
            bad.append(f"{path}: {exc!r}")
    return ids, bad


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2])
