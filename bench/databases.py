"""The benches' own PostgreSQL databases on the configured server: made at the start of a
run, dropped at its end. Only a database whose name ends in ``bench`` is ever dropped, so
a mistyped URL never reaches the project's own data."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


class NotABenchDatabase(ValueError):
    pass


def admin_url(url: str) -> tuple[str, str]:
    """(the server's ``postgres`` database URL, the bench database's name) of ``url``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/postgres", query="")), parts.path.lstrip("/")


def url_for(base: str, name: str) -> str:
    """``base`` with the database ``name`` in its path."""
    return urlunsplit(urlsplit(base)._replace(path=f"/{name}", query=""))


def create(url: str, *, keep: bool = False) -> None:
    """Drop and create the bench database of ``url`` (every run starts from the
    migrations, data migrations included); ``keep``: leave one that exists as it is."""
    import psycopg

    admin, name = admin_url(url)
    if not name.endswith("bench"):
        raise NotABenchDatabase("The bench database's name must end in 'bench' (it is dropped).")
    with psycopg.connect(admin, autocommit=True) as conn:
        if keep and conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                 [name]).fetchone():
            return
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop(url: str) -> None:
    import psycopg

    admin, name = admin_url(url)
    if not name.endswith("bench"):
        raise NotABenchDatabase("The bench database's name must end in 'bench' (it is dropped).")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
