"""The bench's local receiver: a bare asyncio HTTP/1.1 server (keep-alive, Content-Length
bodies, answers 201) in a process of its own; several share one port (``SO_REUSEPORT``).
It reads each delivery's id — a webhook's ``X-Phases-Delivery`` header, a push's ``id``
inside the payload it decrypts (RFC 8291, the bench browser's key) — and writes them all
to a file when told to stop (SIGTERM), so the bench counts lost and doubled deliveries."""

from __future__ import annotations

import asyncio
import base64
import json
import signal
import socket
import sys

import http_ece
from cryptography.hazmat.primitives import serialization

RESPONSE = b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"


def serve(port: int, key_pem: str, auth_b64: str, out_path: str) -> None:
    private = serialization.load_pem_private_key(key_pem.encode(), password=None)
    auth = base64.urlsafe_b64decode(auth_b64 + "=" * (-len(auth_b64) % 4))
    ids: list[str] = []
    bad: list[str] = []

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
                try:
                    if path.startswith("/p/"):
                        plain = http_ece.decrypt(body, private_key=private, auth_secret=auth,
                                                 version="aes128gcm")
                        ids.append("push:" + json.loads(plain)["id"])
                    else:
                        ids.append("webhook:" + headers["x-phases-delivery"])
                except Exception as exc:  # noqa: BLE001 - counted, reported
                    bad.append(f"{path}: {exc!r}")
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
    with open(out_path, "w") as fh:
        json.dump({"ids": ids, "bad": bad}, fh)


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.stdin.read(), sys.argv[2], sys.argv[3])
