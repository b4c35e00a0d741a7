"""Issue 29's library half, as far as a test can check it: no module sends SMTP or builds
MIME by hand (Django's email backend does both), beat is celery-redbeat, settings come
through django-environ, and the benches print their ratio fields."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["accounts", "config", "games", "players", "press", "killgame", "diceslayer",
            "sanguosha", "bench"]


def _modules():
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def test_no_module_speaks_smtp_or_builds_mime_by_hand():
    offenders = []
    for path in _modules():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                if name == "smtplib" and path.name != "outbox.py":
                    offenders.append(f"{path}: imports smtplib")
                if name.startswith(("email.mime", "email.generator", "email.quoprimime",
                                    "email.header")):
                    offenders.append(f"{path}: imports {name}")
            if isinstance(node, ast.Attribute) and node.attr in {"_rset", "sendmail", "putcmd",
                                                                 "getreply"}:
                offenders.append(f"{path}: calls smtplib's {node.attr}")
    assert offenders == []
    assert not (ROOT / "games/lib/smtpsend.py").exists()
    assert not (ROOT / "games/lib/mime.py").exists()


def test_the_outbox_uses_smtplib_only_for_its_exception_types():
    source = (ROOT / "games/services/outbox.py").read_text()
    uses = {node.attr for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "smtplib"}
    assert uses and all(name.startswith("SMTP") and name[4:5].isupper() or name.endswith(
        ("Refused", "Error", "Disconnected", "Exception")) for name in uses), uses


def test_beat_env_and_caches_come_from_libraries():
    from django.conf import settings

    assert settings.CELERY_BEAT_SCHEDULER == "config.beat:Scheduler"
    from config.beat import Scheduler
    from redbeat.schedulers import RedBeatScheduler

    assert issubclass(Scheduler, RedBeatScheduler)
    assert not (ROOT / "config/env.py").exists()
    assert not (ROOT / "games/lib/memo.py").exists()
    assert not (ROOT / "games/lib/fragment_cache.py").exists()
    base = (ROOT / "config/settings/base.py").read_text()
    assert "import environ" in base


def test_the_benches_report_their_ratios():
    """The fields the issue's checks read are in the benches' output."""
    deadlines = _bench_source("bench_deadlines")
    for field in ('"ratio"', '"engine_floor_seconds"', '"emails_drain_seconds_after_last_close"',
                  '"closed_twice"', '"progress"', '"ratio_cpu"'):
        assert field in deadlines, field
    email = _bench_source("bench_email")
    for field in ('"cpu_ms_per_email_workers"', '"cpu_ms_per_email_smtp_server"', '"ratio"'):
        assert field in email, field
    assert '"floor_ms"' in _bench_source("bench_pages")


def _bench_source(name: str) -> str:
    found = [p for p in ROOT.rglob(f"{name}.py") if ".venv" not in p.parts]
    assert found, name
    return found[0].read_text()
