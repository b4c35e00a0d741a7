"""A per-process memo of rendered HTML, keyed by everything the HTML shows.

Nothing is ever invalidated: a key holds every input of the HTML (the data shown, the
language, the reader's yes/no that change it), so a change gives a new key and old keys
age out of the LRU. What must never be shared — the reader's CSRF token — is rendered as
:data:`CSRF_MARK` and put in per request by :func:`with_csrf`.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from threading import Lock
from typing import Any

#: rendered in place of the CSRF token (random, so no user text can contain it)
CSRF_MARK = f"csrf-{secrets.token_hex(16)}"
SIZE = 4000  # entries kept per process (most are a fraction of a KB)


class Memo:
    """A small thread-safe LRU."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = Lock()

    def get(self, key: tuple[Any, ...]) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


memo = Memo(SIZE)


def with_csrf(html: str, token: Any) -> str:
    """``html`` with the reader's own token where :data:`CSRF_MARK` was rendered."""
    return html.replace(CSRF_MARK, str(token)) if CSRF_MARK in html else html
