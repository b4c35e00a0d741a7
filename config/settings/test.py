"""Test overlay: only what tests need (docs/style.md §13). Real PostgreSQL by default
(TEST_DATABASE_URL overrides; CI has it on localhost), eager Celery, fast hasher,
locmem email and cache. Redis-backed tests read REDIS_URL themselves.
"""

from __future__ import annotations

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import database

DATABASES = {"default": database(
    os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pbw"))}
DATABASES["default"]["CONN_MAX_AGE"] = 0
# One test database per test run (several runs may share this machine's PostgreSQL at
# once); subprocesses inherit the name through the environment.
os.environ.setdefault("PBW_TEST_DB", f"test_pbw_{os.getpid()}")
DATABASES["default"]["TEST"] = {"NAME": os.environ["PBW_TEST_DB"]}
SECRET_KEY = "test-only-secret-key-not-used-anywhere-else-" + "t" * 20
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "html": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
             "LOCATION": "html", "OPTIONS": {"MAX_ENTRIES": 2000}}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = "memory://"
STORAGES = {**STORAGES, "staticfiles": {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
SITE_URL = "http://testserver"
# Only the ends this process made: no periodic re-read inside a counted request (the
# query-count tests); tests/security/test_sessions.py sets 0 to check the re-read.
SESSION_END_CHECK_SECONDS = None
ALLOWED_HOSTS = ["*"]
DEBUG = False
# Push and webhooks to the tests' own receivers on loopback; a key made for this run.
NOTIFY_ALLOW_LOOPBACK = True
VAPID_PRIVATE_KEY = os.environ.setdefault("PBW_TEST_VAPID_KEY", __import__(
    "reach.vapid", fromlist=["new_private_pem"]).new_private_pem())
