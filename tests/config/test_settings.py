"""Settings read from the environment, and the health probe."""

from __future__ import annotations

from pathlib import Path

import pytest

from config.env import database_from_url, email_from_url


def test_database_url_postgres_and_sqlite():
    pg = database_from_url("postgres://u:p%40ss@db:5433/pbw", base_dir=Path("/x"))
    assert (pg["ENGINE"], pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "django.db.backends.postgresql", "pbw", "u", "p@ss", "db", "5433")
    lite = database_from_url("sqlite:///var/db.sqlite3", base_dir=Path("/x"))
    assert lite["NAME"] == "/x/var/db.sqlite3"
    assert database_from_url("sqlite:////abs/db.sqlite3", base_dir=Path("/x"))["NAME"] == "/abs/db.sqlite3"
    assert database_from_url("sqlite:///:memory:", base_dir=Path("/x"))["NAME"] == ":memory:"
    with pytest.raises(ValueError):
        database_from_url("mysql://x/y", base_dir=Path("/x"))


def test_email_url():
    assert email_from_url("console://")["EMAIL_BACKEND"].endswith("console.EmailBackend")
    smtp = email_from_url("smtp://me:pw@mail:1025?tls=1")
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"], smtp["EMAIL_USE_TLS"]) == ("mail", 1025, True)


@pytest.mark.django_db
def test_healthz_answers_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["ok"] is True
