"""Production: base settings with the secure flags on unless the environment says otherwise.
Used by docker-compose, by wsgi/asgi/celery by default, and by ``check --deploy``.

Fails closed: without a SECRET_KEY from the environment (or SECRET_KEY_FILE), or with a
key that is public (an example value, the embedded server's file), or with an email
backend that delivers nothing (the console: reset links in the log), it refuses to start.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("SECURE_COOKIES", "true")
os.environ.setdefault("SECURE_SSL_REDIRECT", "true")
os.environ.setdefault("SECURE_HSTS_SECONDS", "31536000")
os.environ.setdefault("SECURE_HSTS_INCLUDE_SUBDOMAINS", "true")
os.environ.setdefault("SECURE_HSTS_PRELOAD", "true")
os.environ.setdefault("BEHIND_PROXY", "true")
os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "true")
os.environ.setdefault("OTP_REQUIRED_FOR_STAFF", "true")

from config.settings.base import *  # noqa: E402,F403
from config.settings.base import env  # noqa: E402

# Keys published in this repository or its history: never accepted in production.
PUBLIC_KEYS = frozenset({"dev-only-insecure-key-change-me-" + "x" * 32,
                         "change-me-to-a-long-random-string"})
MIN_SECRET_KEY_LENGTH = 32

SECRET_KEY = env.str("SECRET_KEY", "")  # SECRET_KEY or SECRET_KEY_FILE; never the embedded server's var/ file
if not SECRET_KEY or SECRET_KEY in PUBLIC_KEYS or SECRET_KEY.startswith("dev-only"):
    raise ImproperlyConfigured("Set SECRET_KEY (or SECRET_KEY_FILE) for production: a long "
                               "random string, e.g. python -c 'import secrets; "
                               "print(secrets.token_urlsafe(50))'.")
if len(SECRET_KEY) < MIN_SECRET_KEY_LENGTH:
    raise ImproperlyConfigured(f"Set SECRET_KEY for production: at least "
                               f"{MIN_SECRET_KEY_LENGTH} characters.")

# Email must really leave: the console backend would print password-reset and
# confirmation links into the log for anyone who reads it (EMAIL_URL=smtp://… or smtps://…).
NOT_DELIVERING_BACKENDS = frozenset({"django.core.mail.backends.console.EmailBackend",
                                     "django.core.mail.backends.locmem.EmailBackend",
                                     "django.core.mail.backends.filebased.EmailBackend",
                                     "django.core.mail.backends.dummy.EmailBackend"})
if globals()["EMAIL_BACKEND"] in NOT_DELIVERING_BACKENDS:  # set by base from EMAIL_URL
    raise ImproperlyConfigured("Set EMAIL_URL for production (smtp://host:port or "
                               "smtps://user:password@host:465): the console backend would "
                               "print password-reset links to the log.")

# Push and webhooks (reach/): never to this machine or a private network, whatever the
# environment says; the VAPID key only from the environment (never made here: a new key
# would orphan every browser's subscription), and a key given must be valid.
NOTIFY_ALLOW_LOOPBACK = False
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", "")
if VAPID_PRIVATE_KEY:
    from reach.vapid import load as _vapid_load

    try:
        _vapid_load(VAPID_PRIVATE_KEY)
    except ValueError as _exc:
        raise ImproperlyConfigured(str(_exc)) from None
