"""Production: base settings with the secure flags on unless the environment says otherwise.
Used by docker-compose and by ``check --deploy``.
"""

from __future__ import annotations

import os

os.environ.setdefault("SECURE_COOKIES", "true")
os.environ.setdefault("SECURE_SSL_REDIRECT", "true")
os.environ.setdefault("SECURE_HSTS_SECONDS", "31536000")
os.environ.setdefault("SECURE_HSTS_INCLUDE_SUBDOMAINS", "true")
os.environ.setdefault("SECURE_HSTS_PRELOAD", "true")
os.environ.setdefault("BEHIND_PROXY", "true")

from config.settings.base import *  # noqa: E402,F403
from config.settings.base import SECRET_KEY  # noqa: E402

if SECRET_KEY.startswith("dev-only-insecure-key"):
    raise RuntimeError("Set SECRET_KEY (or SECRET_KEY_FILE) for production.")
