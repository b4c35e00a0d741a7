"""A mail catcher for the fault bench: an SMTP server on loopback (aiosmtpd) that appends
one JSON line per accepted message (Message-ID, recipients, subject) to a file. A file
``smtp-slow`` beside it (seconds) delays each "250 OK" after the message is recorded.

Run as a script (no Django): ``python catcher.py --port 2525 --out received.jsonl``. The
bench makes it hang with SIGSTOP (the kernel still accepts connections; nothing answers)
and resumes it with SIGCONT.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path


class Recorder:
    def __init__(self, path: str) -> None:
        self.out = open(path, "a", buffering=1, encoding="utf-8")
        self.slow = Path(path).with_name("smtp-slow")

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd hook
        message = message_from_bytes(envelope.content, policy=default_policy)
        self.out.write(json.dumps({"message_id": message.get("Message-ID", ""),
                                   "to": list(envelope.rcpt_tos),
                                   "subject": str(message.get("Subject", ""))}) + "\n")
        try:  # the bench slows acceptance down: a file "smtp-slow" holds the seconds
            delay = float(self.slow.read_text())
        except (OSError, ValueError):
            delay = 0.0
        if delay:
            await asyncio.sleep(delay)  # recorded, not yet acknowledged: "in flight"
        return "250 OK"


async def serve(port: int, path: str) -> None:
    from aiosmtpd.smtp import SMTP

    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(Recorder(path)), "127.0.0.1", port)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.out))


if __name__ == "__main__":
    main()
