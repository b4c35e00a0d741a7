"""``manage.py mail_hold``: after restoring the database from a backup, hold the email that
was queued before the outage (it may have gone out already) for the director to release
or drop (games/services/mailhold.py; docs/operations.md "Backups").

    manage.py mail_hold --before 2026-12-01T09:30:00Z   # hold what was queued before then
    manage.py mail_hold --list                          # what is held
    manage.py mail_hold --release [--id 12 --id 13]     # send them (all without --id)
    manage.py mail_hold --drop [--id 14]                # close them unsent

The admin's outbox list does the same ("Release held emails", "Drop held emails").
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils.dateparse import parse_datetime
from django.utils.timezone import is_naive, make_aware
from datetime import timezone

from games.services.mailhold import mail_drop, mail_held, mail_hold, mail_release


class Command(BaseCommand):
    help = "Hold email queued before a time (after a restore); list, release or drop it."

    def add_arguments(self, parser):
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--before", help="ISO time: hold unsent email queued before it "
                                           "(UTC unless the time says otherwise)")
        what.add_argument("--list", action="store_true", help="list the held email")
        what.add_argument("--release", action="store_true", help="send held email")
        what.add_argument("--drop", action="store_true", help="close held email unsent")
        parser.add_argument("--id", type=int, action="append", dest="ids",
                            help="only this outbox row (repeat for several)")

    def handle(self, *args, **opts):
        if opts["before"]:
            before = parse_datetime(opts["before"])
            if before is None:
                raise CommandError(f"Not an ISO date and time: {opts['before']!r}")
            if is_naive(before):
                before = make_aware(before, timezone.utc)
            held = mail_hold(before=before)
            self.stdout.write(f"{held} email(s) queued before {before.isoformat()} held; "
                              "release or drop them with --release / --drop")
        elif opts["list"]:
            rows = mail_held()
            for row in rows:
                self.stdout.write(f"{row.pk}\t{row.created_at:%Y-%m-%d %H:%M:%S}\t{row.kind}\t"
                                  f"{row.recipient.email}\t{row.match.name if row.match else ''}")
            self.stdout.write(f"{len(rows)} held")
        elif opts["release"]:
            self.stdout.write(f"{mail_release(ids=opts['ids'])} email(s) released")
        else:
            self.stdout.write(f"{mail_drop(ids=opts['ids'])} email(s) dropped")
