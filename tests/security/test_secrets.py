"""Secrets fail closed (issue 14): only the embedded server runs without SECRET_KEY, with a
random key of its own in var/; production settings (the wsgi/asgi default) refuse to start
without a key or with a public one; the embedded server binds loopback by default."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from config.devkey import dev_secret_key

ROOT = Path(__file__).resolve().parents[2]
PRINT_KEY = "import django; django.setup(); from django.conf import settings; print(repr(settings.SECRET_KEY))"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SECRET_KEY") and k not in {"DJANGO_ALLOW_ASYNC_UNSAFE",
                                                             "PBW_EMBEDDED", "VAR_DIR"}}
    env.update({"DATABASE_URL": "sqlite:///:memory:", "ALLOWED_HOSTS": "play.example.org",
                "EMAIL_URL": "smtp://mail.example.org:25"})
    env.update(extra)
    return env


def _run(code: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(**extra),
                          capture_output=True, text=True, timeout=120)


def test_dev_secret_key_is_random_private_and_kept(tmp_path):
    path = tmp_path / "var" / "secret_key"
    assert dev_secret_key(path, create=False) == "" and not path.exists()
    key = dev_secret_key(path, create=True)
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert dev_secret_key(path, create=True) == key == dev_secret_key(path, create=False)
    assert dev_secret_key(tmp_path / "other", create=True) != key


@pytest.mark.parametrize("settings_module", ["config.settings.production"])
def test_production_refuses_to_start_without_a_secret_key(settings_module, tmp_path):
    proc = _run(PRINT_KEY, DJANGO_SETTINGS_MODULE=settings_module, VAR_DIR=str(tmp_path))
    assert proc.returncode != 0
    assert "ImproperlyConfigured" in proc.stderr and "Set SECRET_KEY" in proc.stderr


@pytest.mark.parametrize("key", ["dev-only-insecure-key-change-me-" + "x" * 32,
                                 "change-me-to-a-long-random-string", "short-key"])
def test_production_refuses_public_or_short_keys(key, tmp_path):
    proc = _run(PRINT_KEY, DJANGO_SETTINGS_MODULE="config.settings.production", SECRET_KEY=key,
                VAR_DIR=str(tmp_path))
    assert proc.returncode != 0 and "Set SECRET_KEY" in proc.stderr


def test_production_ignores_the_embedded_servers_key_file(tmp_path):
    dev_secret_key(tmp_path / "secret_key", create=True)
    proc = _run(PRINT_KEY, DJANGO_SETTINGS_MODULE="config.settings.production",
                VAR_DIR=str(tmp_path))
    assert proc.returncode != 0 and "Set SECRET_KEY" in proc.stderr


def test_wsgi_and_asgi_default_to_production_settings(tmp_path):
    for module in ("config.wsgi", "config.asgi"):
        env = _env(VAR_DIR=str(tmp_path))
        env.pop("DJANGO_SETTINGS_MODULE", None)
        proc = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode != 0 and "Set SECRET_KEY" in proc.stderr, module


def test_base_settings_without_a_key_cannot_sign(tmp_path):
    """A management command other than `run`, with no key anywhere, fails closed."""
    code = ("import django; django.setup(); from django.core import signing; "
            "signing.dumps({'u': 1})")
    proc = _run(code, DJANGO_SETTINGS_MODULE="config.settings.base", VAR_DIR=str(tmp_path))
    assert proc.returncode != 0 and "SECRET_KEY" in proc.stderr
    assert not (tmp_path / "secret_key").exists()


def test_embedded_server_makes_its_own_key_in_var(tmp_path):
    proc = _run(PRINT_KEY, DJANGO_SETTINGS_MODULE="config.settings.base", PBW_EMBEDDED="1",
                VAR_DIR=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    stored = (tmp_path / "secret_key").read_text().strip()
    assert proc.stdout.strip() == repr(stored) and len(stored) >= 50
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600


def test_manage_py_run_marks_itself_embedded_and_binds_loopback():
    source = (ROOT / "manage.py").read_text()
    assert 'sys.argv[1:2] == ["run"]' in source and 'PBW_EMBEDDED' in source
    from games.management.commands.run import DEFAULT_ADDR, Command

    assert DEFAULT_ADDR == "127.0.0.1:8000"
    parser = Command().create_parser("manage.py", "run")
    assert parser.parse_args([]).addr == "127.0.0.1:8000"


def test_secret_key_from_a_file(tmp_path):
    key_file = tmp_path / "key"
    key_file.write_text("k" * 40 + "-from-a-docker-secret\n")
    proc = _run(PRINT_KEY, DJANGO_SETTINGS_MODULE="config.settings.production",
                SECRET_KEY_FILE=str(key_file), VAR_DIR=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "from-a-docker-secret" in proc.stdout


@pytest.mark.parametrize("email_url", ["console://", "", "locmem://"])
def test_production_refuses_an_email_backend_that_delivers_nothing(email_url, tmp_path):
    """Issue 28: the console backend printed password-reset links into the log."""
    proc = _run(PRINT_KEY, DJANGO_SETTINGS_MODULE="config.settings.production",
                SECRET_KEY="k" * 40 + "-long-enough-and-not-public", EMAIL_URL=email_url,
                VAR_DIR=str(tmp_path))
    assert proc.returncode != 0 and "Set EMAIL_URL" in proc.stderr
