"""Typed readers for settings from the environment (docs/style.md §13).

``env_secret`` also reads ``NAME_FILE`` (Docker secrets). ``database_from_url`` and
``email_from_url`` turn ``DATABASE_URL`` / ``EMAIL_URL`` into Django settings without a
dependency.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return default if raw in (None, "") else int(raw)


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_secret(name: str, default: str = "") -> str:
    """``NAME`` or the contents of the file named by ``NAME_FILE``."""
    path = os.environ.get(f"{name}_FILE")
    if path:
        return Path(path).read_text().strip()
    return os.environ.get(name, default)


def dev_secret_key(path: Path, *, create: bool) -> str:
    """The embedded server's own random key, kept in ``path`` (mode 0600) so sessions and
    links survive a restart; made on first use only when ``create``. ``""`` otherwise."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        if not create:
            return ""
    import secrets

    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text().strip()
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key


def database_from_url(url: str, *, base_dir: Path) -> dict:
    """``postgres://user:pass@host:port/name`` or ``sqlite:///relative/or//absolute/path``."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path.lstrip("/")) if not parts.path.startswith("//") else parts.path[1:]
        if path in ("", ":memory:"):
            name = ":memory:"
        else:
            name = path if path.startswith("/") else str(base_dir / path)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name,
                "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"}}
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        options = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        # a database that does not answer fails a request in seconds (503), not minutes
        options.setdefault("connect_timeout", "5")
        return {"ENGINE": "django.db.backends.postgresql",
                "NAME": unquote(parts.path.lstrip("/")) or "postgres",
                "USER": unquote(parts.username or ""), "PASSWORD": unquote(parts.password or ""),
                "HOST": parts.hostname or "", "PORT": str(parts.port or ""),
                "CONN_MAX_AGE": int(options.pop("conn_max_age", 60)),
                "CONN_HEALTH_CHECKS": True, "OPTIONS": options}
    raise ValueError(f"Unsupported DATABASE_URL scheme: {parts.scheme!r}")


def email_from_url(url: str) -> dict:
    """``console://``, ``locmem://``, ``smtp://user:pass@host:port?tls=1``, ``smtps://…``."""
    parts = urlsplit(url)
    if parts.scheme in {"", "console"}:
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme == "locmem":
        return {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    if parts.scheme in {"smtp", "smtps"}:
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        return {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": parts.hostname or "localhost", "EMAIL_PORT": parts.port or 25,
                "EMAIL_HOST_USER": unquote(parts.username or ""),
                "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
                "EMAIL_USE_TLS": query.get("tls") in {"1", "true"},
                "EMAIL_USE_SSL": parts.scheme == "smtps", "EMAIL_TIMEOUT": 10}
    raise ValueError(f"Unsupported EMAIL_URL scheme: {parts.scheme!r}")
