"""``manage.py bench_faults --json``: inject faults into a production-shaped stack and check
that every phase closes exactly once and every email arrives exactly once.

Steps:

1. Start the bench's own services in a temporary directory (``bench.faultbench.stack``):
   a PostgreSQL cluster (``initdb``, spare port, as the ``postgres`` user when we are
   root), Redis with append-only persistence, an SMTP catcher — never the machine's
   shared services.
2. Re-run itself inside that environment (its settings then point at them): migrate,
   start gunicorn, a Celery worker on the ``clock`` queue, one on ``mail``, and beat.
3. Run each scenario (``bench.faultbench.scenarios``; ``--only`` picks some) and print
   ``{"scenarios": [{"name", "ok", "closed_twice", "lost_closes", "lost_emails",
   "duplicate_emails", ...}], "ok", "seconds"}``.
4. Stop everything and remove the directory (``--keep`` keeps it, with every log).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

CHILD_FLAG = "PBW_FAULTS_STACK"


def all_scenarios() -> dict:
    """The faults (bench.faultbench.scenarios) and the traffic scenarios
    (bench.faultbench.traffic), in the order a full run takes them."""
    from bench.faultbench import scenarios, traffic

    return {**scenarios.SCENARIOS, **traffic.SCENARIOS}


class Command(BaseCommand):
    help = "Fault bench: kill workers, stop the broker, the database, hang SMTP (JSON out)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print only the JSON result")
        parser.add_argument("--only", default="",
                            help="comma-separated scenario names (default: all)")
        parser.add_argument("--keep", action="store_true",
                            help="keep the bench directory (data and logs) afterwards")

    def handle(self, *args, **opts):
        SCENARIOS = all_scenarios()
        names = [n.strip() for n in opts["only"].split(",") if n.strip()] or list(SCENARIOS)
        unknown = [n for n in names if n not in SCENARIOS]
        if unknown:
            raise CommandError(f"Unknown scenario(s) {unknown}; known: {sorted(SCENARIOS)}")
        if os.environ.get(CHILD_FLAG):
            result = self._run(names)
            self.stdout.write(json.dumps(result, indent=None if opts["json"] else 2))
            return
        self._outer(names, opts)

    # --- 1. and 4.: the services, then this command again inside them --------------------

    def _outer(self, names: list[str], opts) -> None:
        from bench.faultbench.stack import Stack, new_root

        stack = Stack(root=new_root())
        started = time.monotonic()
        try:
            stack.pg_init()
            stack.pg_start()
            stack.pg_create_database()
            stack.redis_start()
            stack.smtp_start()
            argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "bench_faults",
                    "--only", ",".join(names), "--json"]
            done = subprocess.run(argv, env=stack.env(**{CHILD_FLAG: stack.dumps()}),
                                  cwd=settings.BASE_DIR, capture_output=True, text=True)
        finally:
            stack.stop_all()
            if not opts["keep"]:
                shutil.rmtree(stack.root, ignore_errors=True)
        if done.returncode != 0:
            self.stderr.write(done.stderr[-6000:])
            raise CommandError(f"bench_faults failed (exit {done.returncode}); "
                               f"--keep keeps the logs in {stack.root}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["seconds"] = round(time.monotonic() - started, 1)
        if opts["keep"]:
            result["directory"] = stack.root
        self.stdout.write(json.dumps(result, indent=None if opts["json"] else 2))

    # --- 2. and 3.: inside the bench's environment ---------------------------------------

    def _run(self, names: list[str]) -> dict:
        from bench.faultbench.scenarios import Processes
        from bench.faultbench.stack import Stack

        SCENARIOS = all_scenarios()
        if settings.CELERY_TASK_ALWAYS_EAGER or "faults" not in settings.DATABASES["default"]["NAME"]:
            raise CommandError("bench_faults runs its scenarios only inside its own stack")
        import bench.devgames  # noqa: F401 - registers the guess game here too

        stack = Stack.loads(os.environ[CHILD_FLAG])
        call_command("migrate", interactive=False, verbosity=0)
        procs = Processes(stack)
        results = []
        try:
            procs.start()
            for name in names:
                started = time.monotonic()
                try:
                    result = SCENARIOS[name](stack, procs)
                except Exception as exc:  # noqa: BLE001 - one broken scenario, not the bench
                    result = {"name": name, "ok": False, "error": repr(exc)[:500]}
                result["seconds"] = round(time.monotonic() - started, 1)
                results.append(result)
        finally:
            procs.stop_all()
        return {"scenarios": results, "ok": all(r["ok"] for r in results)}
