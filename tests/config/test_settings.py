"""Settings read from the environment, and the health probe."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.settings.base import database

ROOT = Path(__file__).resolve().parents[2]


def test_database_url_postgres_and_sqlite():
    """django-environ reads the URL; the project adds its connection defaults."""
    pg = database("postgres://u:p%40ss@db:5433/pbw")
    assert (pg["ENGINE"], pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "django.db.backends.postgresql", "pbw", "u", "p@ss", "db", 5433)
    assert (pg["CONN_MAX_AGE"], pg["CONN_HEALTH_CHECKS"], pg["OPTIONS"]["connect_timeout"]) == (
        60, True, 5)
    tuned = database("postgres://db/pbw?conn_max_age=0&connect_timeout=2")
    assert (tuned["CONN_MAX_AGE"], tuned["OPTIONS"]["connect_timeout"]) == (0, 2)
    lite = database("sqlite:////abs/db.sqlite3")
    assert lite["NAME"] == "/abs/db.sqlite3"
    assert lite["OPTIONS"] == {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    assert database("sqlite:///:memory:")["NAME"] == ":memory:"


def _email_settings(url: str) -> subprocess.CompletedProcess:
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, "
            "s.EMAIL_USE_SSL, s.EMAIL_HOST_USER, s.EMAIL_TIMEOUT)")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "EMAIL_URL": url,
           "SECRET_KEY": "x" * 50, "DATABASE_URL": "sqlite:///:memory:"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_email_url():
    out = _email_settings("console://").stdout.split()
    assert out[0] == "django.core.mail.backends.console.EmailBackend"
    assert _email_settings("locmem://").stdout.split()[0].endswith("locmem.EmailBackend")
    out = _email_settings("smtp+tls://me:pw@mail:587").stdout.split()
    assert out[1:] == ["mail", "587", "True", "False", "me", "10"]
    out = _email_settings("smtp+ssl://me:pw@mail:465").stdout.split()
    assert out[3:5] == ["False", "True"]
    refused = _email_settings("smtp://me:pw@mail:587?tls=1")  # the old form: not ignored
    assert refused.returncode != 0 and "EMAIL_URL takes no query" in refused.stderr


@pytest.mark.django_db
def test_healthz_answers_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["ok"] is True
