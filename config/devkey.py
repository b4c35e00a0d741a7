"""The embedded server's own secret key (``manage.py run``, which sets ``PBW_EMBEDDED``):
random, kept in a private file so sessions and links survive a restart. Production reads
``SECRET_KEY`` (or ``SECRET_KEY_FILE``) and never this file (config/settings/production.py).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def dev_secret_key(path: Path, *, create: bool) -> str:
    """The key kept in ``path`` (mode 0600), made on first use only when ``create``;
    ``""`` otherwise."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        if not create:
            return ""
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text().strip()
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key
