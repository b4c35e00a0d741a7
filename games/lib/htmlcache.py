"""Rendered HTML, kept and served again: one cache in two places, one CSRF scheme.

Most requests show what an earlier one already rendered. So HTML is kept under a key that
holds everything it shows, and nothing is ever invalidated: a change gives a new key, and
old entries age out.

- **In this process** (:data:`local`, a small LRU): pieces every reader shares and that
  cost less to keep than to fetch — the page shell (``{% memo %}``), the lobby's rows and
  filters (``games.lib.lobby``). Their keys are tuples of what they show (the data, the
  language, the reader's yes/no that change them).
- **In the shared cache** (Django's cache, Redis in production): the match page's costly
  fragments (``{% fragment_cache %}``), rendered once for every web process, read in one
  round trip per page (:func:`prefetch`).

Why a fragment is safe to share, in three rules (issue 15):

- **What a fragment shows is a function of its key.** Every key holds the match (id and
  creation time, so a recreated database never meets old entries), its public version
  (``Match.version``: what every seat may see), the roster (a digest of seat numbers and
  names: a rename bumps no version), the language, the time zone and the code version
  (a digest of the templates, catalogues and Python sources: a deploy never serves what
  the old code rendered). Fragments every reader sees alike use the ``public`` scope;
  the rest use the ``reader`` scope, which adds who reads (:func:`reader_scope`): the
  visitor view, one seat with its own ``Seat.version``, or the director with every seat's
  version. So a fragment rendered for one seat is only ever read back for that seat.
- **No per-request secret inside.** In both places the CSRF token is rendered as one
  placeholder (:func:`csrf_placeholder`) and the request's own token put in when the HTML
  is served (:func:`fill_csrf`); refused forms (with the player's input and errors) are
  never cached (``no_fragment_cache``).
- **No clock inside.** Times are absolute (``<time>`` plus the countdown script); a
  fragment that depends on the clock says so with a time bucket in its key.

The cache is an accelerator: with the shared cache down every fragment is rendered as
before (logged, never a 500). docs/pages.md "Fragment cache".
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import time
from collections import OrderedDict
from pathlib import Path
from threading import Lock
from typing import Any, Iterable

from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.core.cache import caches
from django.utils import timezone, translation
from django.utils.connection import ConnectionProxy
from django.utils.crypto import salted_hmac

log = logging.getLogger(__name__)
#: the evictable cache of rendered HTML (settings: "html"; docs/operations.md "Redis")
cache = ConnectionProxy(caches, "html")

#: rendered fragments live this long at most (their keys change with the versions anyway)
FRAGMENT_TTL = 600
#: the context flag that turns the cache off for a response (a refused form: it shows the
#: player's input and the error, which belong to that one answer)
NO_CACHE_FLAG = "no_fragment_cache"
#: the context entry :func:`page_keys` fills
KEYS_NAME = "fragment_keys"
#: the context entry listing the fragments a page will ask for, as (name, scope, parts):
#: read in one round trip when the first of them renders (:func:`prefetch`)
PREFETCH_NAME = "fragment_prefetch"
#: the context entry ``{% fragment_writes %}`` sets: the fragments rendered anew inside it,
#: {key: html}, written in one round trip at its end (:func:`cache_set_many`)
WRITES_NAME = "_fragment_writes"
SCOPES = ("public", "reader")
_SOURCE_SUFFIXES = (".py", ".html", ".txt", ".mo")
_SKIP_DIRS = {"__pycache__", "migrations", "node_modules", ".git", "static", "staticfiles"}


@functools.cache
def code_version() -> str:
    """A digest of what renders a fragment (templates, compiled catalogues, Python code of
    the project's apps): a new deploy starts with new keys, never the old code's HTML."""
    base = Path(settings.BASE_DIR)
    roots = [base / "templates", base / "locale"]
    roots += [base / app.split(".")[0] for app in settings.INSTALLED_APPS
              if (base / app.split(".")[0]).is_dir()]
    digest = hashlib.sha1()
    for root in sorted(set(roots)):
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
            for name in sorted(files):
                if name.endswith(_SOURCE_SUFFIXES):
                    path = Path(folder) / name
                    digest.update(str(path.relative_to(base)).encode())
                    try:
                        digest.update(path.read_bytes())
                    except OSError:
                        continue
    return digest.hexdigest()[:12]


@functools.cache
def csrf_placeholder() -> str:
    """What ``{% csrf_token %}`` renders inside kept HTML, in both places: derived from the
    secret key, so no text a player writes can contain it."""
    return "csrf-" + salted_hmac("games.htmlcache.csrf", "placeholder").hexdigest()[:32]


def fill_csrf(html: str, token: Any) -> str:
    """The HTML with the request's own CSRF token in place of the placeholder (the token
    is asked for only when the HTML holds a form, as ``{% csrf_token %}`` does)."""
    mark = csrf_placeholder()
    if mark not in html:
        return html
    return html.replace(mark, str(token))


class LocalHTML:
    """The in-process place: a small thread-safe LRU of HTML by key (tuples)."""

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


#: entries kept per process (most are a fraction of a KB to ~2 KB). A reader's page keeps
#: about three of its own (the nav with their name, the phase status of their seat, the
#: header with their seat number), so 4,000 players need ~12,000: a smaller LRU churned
#: at that size and rendered those blocks again on every load (bench_capacity's steps)
LOCAL_SIZE = 16000
local = LocalHTML(LOCAL_SIZE)
#: the director's match page keeps its large parts (the whole diary, the full state: tens
#: of KB to a few MB each) in the shared cache and, read once, here too: fetching and
#: unpickling them from Redis on every load was a fifth of that page. Few entries (a
#: director looks at a handful of matches at a time), so a few MB at most per process.
BIG_LOCAL_SIZE = 8
big_local = LocalHTML(BIG_LOCAL_SIZE)


def roster_digest(seats: Iterable[Any]) -> str:
    """Seat ids, numbers, names and bot flags of every seat (``games.lib.pages.SeatRow``):
    a rename, a takeover or a seat removed changes the keys where it bumps no version."""
    digest = hashlib.sha1()
    for s in seats:
        name = s.username if s.user_id else ""
        digest.update(f"{s.pk}.{s.number}.{name}.{int(s.is_bot)}.{int(s.removed_at is None)};"
                      .encode())
    return digest.hexdigest()[:12]


def reader_scope(seat: Any, director: bool, seats: Iterable[Any]) -> str:
    """Who reads, as far as what they may see goes: a seat (with its version), the
    director (staff without a seat: every seat's private state, so every seat's version)
    or the visitor view (anybody else: the public view only)."""
    if seat is not None:
        return f"s{seat.pk}.{seat.version}"
    if director:
        digest = hashlib.sha1(";".join(f"{s.pk}.{s.version}" for s in seats).encode())
        return "d" + digest.hexdigest()[:12]
    return "v"


def page_keys(match: Any, seat: Any, director: bool, seats: list[Any]) -> dict[str, str]:
    """The two key prefixes of one match page (``fragment_keys`` in its context)."""
    public = ":".join([code_version(), str(match.pk),
                       f"{match.created_at.timestamp():.6f}" if match.created_at else "-",
                       str(match.version), roster_digest(seats)])
    return {"public": public, "reader": f"{public}:{reader_scope(seat, director, seats)}"}


def fragment_key(prefix: str, name: str, parts: Iterable[Any]) -> str:
    """The cache key of one fragment: the page prefix, the fragment's name and its own
    parts, the active language and time zone."""
    raw = "|".join([prefix, name, *(str(p) for p in parts), translation.get_language() or "",
                    timezone.get_current_timezone_name()])
    match_id = prefix.split(":", 2)[1] if prefix.count(":") >= 2 else "-"
    return f"frag:{match_id}:{name}:{hashlib.sha1(raw.encode()).hexdigest()}"


def page_address(request: Any) -> str:
    """The page's own address for a fragment key: the resolved view's URL rebuilt from its
    arguments, without the query (``/m/05/?x=1`` is ``/m/5/``). A key holds only what
    the fragment reads, normalised: a client who makes up addresses or parameters gets
    the one entry everybody gets, never a new one (issue 28)."""
    found = getattr(request, "resolver_match", None)
    if found is not None and found.view_name:
        try:
            return reverse(found.view_name, args=found.args, kwargs=found.kwargs)
        except NoReverseMatch:
            pass
    return str(getattr(request, "path", ""))


def time_bucket(seconds: int = 60) -> int:
    """For a fragment that shows what the clock changes (an away period that ends): in
    its key, it is rendered again at least every ``seconds``."""
    return int(time.time() // seconds)


def prefetch(keys: dict[str, str], expected: list[tuple[str, str, list[Any]]]
             ) -> dict[str, str | None]:
    """The fragments a page announced, in one cache round trip: every announced key, with
    its HTML or None when the cache does not hold it (a miss is rendered, not asked for a
    second time; a key not in the answer was not announced and is asked by itself)."""
    wanted = [fragment_key(keys[scope], name, parts) for name, scope, parts in expected]
    if not wanted:
        return {}
    try:
        found = cache.get_many(wanted)
    except Exception:  # noqa: BLE001
        log.warning("fragment cache unavailable (get_many)", exc_info=True)
        return {}
    return {k: (found[k] if isinstance(found.get(k), str) else None) for k in wanted}


def cache_get(key: str) -> str | None:
    try:
        hit = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is an accelerator, never a dependency
        log.warning("fragment cache unavailable (get)", exc_info=True)
        return None
    return hit if isinstance(hit, str) else None


def cache_set(key: str, html: str) -> None:
    try:
        cache.set(key, html, FRAGMENT_TTL)
    except Exception:  # noqa: BLE001
        log.warning("fragment cache unavailable (set)", exc_info=True)


def cache_set_many(items: dict[str, str]) -> None:
    """Several rendered fragments written in one round trip (``{% fragment_writes %}``)."""
    if not items:
        return
    try:
        cache.set_many(items, FRAGMENT_TTL)
    except Exception:  # noqa: BLE001
        log.warning("fragment cache unavailable (set_many)", exc_info=True)


def _split_mark() -> str:
    # derived from the secret key, as the CSRF placeholder: no text a player writes has it
    return f"<!--{csrf_placeholder()}-split-->"


def kept_html(request: Any, key: str | None, templates: list[str],
              make_context: Any) -> list[Any]:
    """The given templates rendered with ``make_context()``'s context, kept in the shared
    cache under ``key`` (a :func:`fragment_key`: it must hold everything they show, and the
    reader when they show what only that reader may see): a hit costs no context at all.
    Rendered with the CSRF placeholder, served with the request's own token. ``key``
    None (a refused form, an error) renders them as they are, uncached. Returns the
    rendered strings, safe, in the templates' order."""
    from django.template.context_processors import csrf
    from django.template.loader import render_to_string
    from django.utils.safestring import mark_safe

    token = csrf(request)["csrf_token"]  # lazy: asked for only when a form is in the HTML
    joined = cache_get(key) if key is not None else None
    if joined is None:
        ctx = dict(make_context())
        if key is not None:
            ctx["csrf_token"] = csrf_placeholder()  # above the context processors' token
        joined = _split_mark().join(render_to_string(name, ctx, request=request)
                                    for name in templates)
        if key is not None:
            cache_set(key, joined)
    parts = joined.split(_split_mark())
    if len(parts) != len(templates):  # never expected: a damaged entry is rendered anew
        return kept_html(request, None, templates, make_context)
    return [mark_safe(fill_csrf(part, token)) for part in parts]  # noqa: S308 - rendered
