"""``manage.py vapid_key``: print a new VAPID private key (PEM) and its public key, for
``VAPID_PRIVATE_KEY`` / ``VAPID_PRIVATE_KEY_FILE`` in production. Make it once and keep
it: a new key orphans every browser's push subscription."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from reach import vapid


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push (set VAPID_PRIVATE_KEY_FILE to the PEM)."

    def add_arguments(self, parser):
        parser.add_argument("--out", help="write the private key (PEM, mode 0600) to this file")

    def handle(self, *args, **opts):
        pem = vapid.new_private_pem()
        public = vapid.public_key_b64(vapid.load(pem))
        if opts["out"]:
            import os

            fd = os.open(opts["out"], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(pem)
            self.stdout.write(f"private key written to {opts['out']}")
        else:
            self.stdout.write(pem.rstrip())
        self.stdout.write(f"public key (applicationServerKey): {public}")
