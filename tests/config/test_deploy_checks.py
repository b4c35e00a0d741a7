"""`check --deploy` is clean with the production settings, and every model change has
its migration (issue #2, "How we will know")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_with_production_settings():
    # (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; a deployment never does)
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {**env, "DJANGO_SETTINGS_MODULE": "config.settings.production",
           "SECRET_KEY": "x" * 20 + "-a-long-random-production-secret-for-the-check-" + "y" * 20,
           "ALLOWED_HOSTS": "play.example.org", "DATABASE_URL": "sqlite:///:memory:",
           "EMAIL_URL": "smtp://mail:1025", "TRUSTED_PROXIES": "172.30.0.10"}
    proc = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level",
                           "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_settings_refuse_the_dev_secret():
    env = {k: v for k, v in os.environ.items() if not k.startswith("SECRET_KEY")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.production"
    proc = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "Set SECRET_KEY" in proc.stderr


@pytest.mark.django_db
def test_no_missing_migrations():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_healthz_answers_plain_http_under_production_settings():
    """The docker-compose probe: plain HTTP to 127.0.0.1 with an allowed Host header."""
    code = (
        "import django, os; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/healthz', HTTP_HOST='play.example.org');"
        "print(r.status_code)"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings.production",
                "SECRET_KEY": "z" * 60, "ALLOWED_HOSTS": "play.example.org",
                "DATABASE_URL": "sqlite:///:memory:", "EMAIL_URL": "smtp://mail:1025"})
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip().splitlines()[-1] == "200", proc.stdout + proc.stderr
