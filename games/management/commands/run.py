"""``manage.py run``: the embedded one-command server (docs/design.md "Running it").

1. ``migrate`` (SQLite under ``var/`` by default) and ``collectstatic``;
2. a demo director ``admin``/``admin`` (printed) if no such user exists;
3. demo matches when there are none: one started match of every registered game with a
   few demo players (a game whose engine fails to set up is skipped, with the reason);
4. ``runserver`` on ``127.0.0.1:8000`` (``--addr``, or ``make run HOST=… PORT=…``;
   loopback only by default, since the demo logins are public: pass ``--addr
   0.0.0.0:8000`` to open it to the network on purpose; ``SITE_URL``, the address emails
   link to, follows the served address unless set), with a background thread doing what
   Celery beat does in production: every registered periodic job on its clock (the
   deadline sweep every few seconds, the auto start, the reminders, the outbox retry,
   the digests...: ``games.registry.periodic_jobs``). Without ``REDIS_URL``
   Celery runs tasks inline, so nothing else needs to run.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from datetime import timezone as dt_timezone
from importlib import import_module
from pathlib import Path

from celery.schedules import crontab

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils.module_loading import import_string

from games import registry
from games.models import Match

DEMO_PASSWORD = "demo"
DEFAULT_ADDR = "127.0.0.1:8000"
DEV_GAME = "tests.games.guessgame"


def sweep_forever(interval: float, stop: threading.Event, log) -> None:
    """The embedded beat: every registered :class:`games.registry.PeriodicJob` (the list
    Celery beat's schedule is built from) on its clock — a job without one every
    ``interval`` s, a ``seconds`` job when that much time passed, a ``cron`` job in each
    minute its crontab matches. Every job runs at the first tick."""
    last: dict[str, float] = {}
    minutes: dict[str, tuple[int, ...]] = {}
    while not stop.wait(interval):
        for job in registry.periodic_jobs():
            if not _due(job, interval, last, minutes):
                continue
            close_old_connections()
            try:
                result = import_string(job.function)()
                if job.name == "phases-close-due" and result:
                    log(f"sweep: closed {result} phase(s)")
            except Exception as exc:  # noqa: BLE001 - the loop must survive anything
                log(f"sweep error ({job.name}): {exc!r}")
            finally:
                close_old_connections()


def _due(job: registry.PeriodicJob, interval: float, last: dict[str, float],
         minutes: dict[str, tuple[int, ...]]) -> bool:
    now = time.monotonic()
    if job.cron is not None:
        wall = datetime.now(dt_timezone.utc)
        minute = wall.timetuple()[:5]
        if minutes.get(job.name) == minute:
            return False
        first = job.name not in minutes
        minutes[job.name] = minute
        return first or _cron_matches(crontab(**job.cron), wall)
    period = job.seconds if job.seconds is not None else interval
    if job.name in last and now - last[job.name] < period:
        return False
    last[job.name] = now
    return True


def _cron_matches(cron: crontab, when: datetime) -> bool:
    """Whether ``when`` (UTC, as the beat's ``CELERY_TIMEZONE``) falls in a minute of ``cron``."""
    return (when.minute in cron.minute and when.hour in cron.hour
            and when.day in cron.day_of_month and when.month in cron.month_of_year
            and when.isoweekday() % 7 in cron.day_of_week)


class Command(BaseCommand):
    help = "Migrate, seed a demo, and serve with an embedded deadline sweeper (one command)."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default=DEFAULT_ADDR,
                            help="host:port to serve on (default: loopback only)")
        parser.add_argument("--sweep-seconds", type=float,
                            default=float(settings.CELERY_BEAT_SWEEP_SECONDS))
        parser.add_argument("--no-seed", action="store_true", help="do not create demo data")
        parser.add_argument("--guess", action="store_true",
                            help="also register the tests' guess-a-number game (automatic "
                                 "when no game is installed)")
        parser.add_argument("--no-serve", action="store_true",
                            help="migrate and seed, then exit (for scripts and tests)")

    def handle(self, *args, **opts):
        site_url_follow(opts["addr"])
        db = settings.DATABASES["default"]
        if db["ENGINE"].endswith("sqlite3") and db["NAME"] != ":memory:":
            Path(db["NAME"]).parent.mkdir(parents=True, exist_ok=True)
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("database migrated")
        # WhiteNoise serves the collected files (manifest storage needs them collected).
        call_command("collectstatic", interactive=False, verbosity=0)
        if opts["guess"] or not registry.all_games():
            self._register_dev_game()
        if not opts["no_seed"]:
            seed_demo(self.stdout.write)
        self.stdout.write(logins_box(opts["addr"]))  # last, after the seeding's email output
        if opts["no_serve"]:
            return
        stop = threading.Event()
        thread = threading.Thread(target=sweep_forever, name="deadline-sweeper", daemon=True,
                                  args=(opts["sweep_seconds"], stop,
                                        lambda m: self.stdout.write(m)))
        thread.start()
        self.stdout.write(f"deadline sweeper: every {opts['sweep_seconds']:g} s")
        try:
            call_command("runserver", opts["addr"], use_reloader=False)
        finally:
            stop.set()

    def _register_dev_game(self) -> None:
        try:
            registry.register(import_module(DEV_GAME))
            self.stdout.write("registered the dev game 'guess' (tests/games/guessgame.py)")
        except ImportError as exc:
            self.stdout.write(f"dev game not available: {exc}")

    def _seed_admin(self) -> None:
        """Kept for callers of the earlier API: :func:`seed_demo` seeds both."""
        seed_demo(self.stdout.write)

    def _seed_matches(self) -> None:
        seed_demo(self.stdout.write)


def site_url_follow(addr: str) -> str:
    """Emails link to the address the site is served on (``SITE_URL``), unless the
    environment set ``SITE_URL`` on purpose: ``0.0.0.0`` / ``::`` become this machine's
    name. Also allows that host."""
    import os
    import socket

    host, _, port = addr.rpartition(":")
    host = (host or "127.0.0.1").strip("[]")
    if host in ("0.0.0.0", "::"):
        host = socket.getfqdn() or "localhost"
    if ":" in host:
        host = f"[{host}]"
    if not os.environ.get("SITE_URL"):
        settings.SITE_URL = f"http://{host}:{port or 8000}"
    if "*" not in settings.ALLOWED_HOSTS and host not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, host.strip("[]"), host]
    return settings.SITE_URL


def logins_box(addr: str) -> str:
    """The demo logins in a short box, printed after everything else the seeding said."""
    players = sorted(get_user_model().objects.filter(username__startswith="demo")
                     .values_list("username", flat=True), key=lambda u: (len(u), u))
    lines = [f"Open {settings.SITE_URL}/",
             "Director: admin / admin" if get_user_model().objects.filter(
                 username="admin").exists() else "",
             (f"Players:  {players[0]} .. {players[-1]} / {DEMO_PASSWORD}" if players else "")]
    lines = [line for line in lines if line]
    width = max(len(line) for line in lines) + 2
    bar = "+" + "-" * width + "+"
    return "\n".join(["", bar, *[f"| {line.ljust(width - 1)}|" for line in lines], bar, ""])


def seed_demo(write=print) -> list[Match]:
    """The demo: a director ``admin``/``admin`` and, when there are no matches yet, one
    started match of every registered game seating ``demo1..demoN`` (password ``demo``):
    N is the game's ``GameHooks.demo_players`` (3; Three Kingdoms Kill: 4),
    never fewer than its minimum. Returns the matches it created."""
    User = get_user_model()
    if not User.objects.filter(username="admin").exists():
        User.objects.create_superuser("admin", "admin@localhost", "admin")
        write("demo director created: username 'admin', password 'admin' (change it!)")
    if Match.objects.exists():
        return []
    created = []
    for entry in registry.all_games():
        wanted = entry.hooks.demo_players
        preferred = max(entry.min_seats, min(wanted, entry.max_seats))
        errors = []
        for players in dict.fromkeys([preferred, entry.min_seats]):
            try:
                match = _seed_one(entry, players)
            except Exception as exc:  # noqa: BLE001 - an unfinished engine must not stop the demo
                Match.objects.filter(game=entry.slug, status=Match.Status.FORMING).delete()
                errors.append(repr(exc))
                continue
            created.append(match)
            write(f"demo match {match.name!r} started with {players} players "
                  f"(demo1..demo{players}, password {DEMO_PASSWORD!r}){_first_deadline(match)}")
            break
        else:
            write(f"demo {entry.slug}: skipped ({'; '.join(errors)})")
    return created


def _first_deadline(match: Match) -> str:
    """", first deadline Wed 2 Dec 21:30 Europe/Rome" for the seeding's log line. The
    schedule's minimum phase length (``games.services.schedule.min_phase_minutes``) keeps
    the demo's first deadline hours away, whatever time it is seeded at."""
    from games.lib.dates import safe_zone

    phase = match.phases.filter(closed_at__isnull=True).order_by("-number").first()
    if phase is None or phase.deadline_at is None:
        return ""
    local = phase.deadline_at.astimezone(safe_zone(match.timezone))
    return f", first deadline {local:%a %d %b %H:%M} {match.timezone}"


def _seed_one(entry, players: int) -> Match:
    from games.services.matches import match_create, match_join, match_start

    User = get_user_model()
    match = match_create(game=entry.slug, name=f"Demo {entry.name}",
                         min_players=max(entry.min_seats, min(players, entry.max_seats)))
    for n in range(1, players + 1):
        user = User.objects.filter(username=f"demo{n}").first()
        if user is None:
            user = User.objects.create_user(f"demo{n}", f"demo{n}@localhost", DEMO_PASSWORD)
        match_join(match=match, user=user)
    return match_start(match=match)
