"""Posting to addresses that players typed (webhooks, push endpoints) without letting them
aim the server at itself: the SSRF guard and the one HTTP client of this app.

1. The URL is checked: ``https`` only, no user/password part; the host is resolved and
   *every* address must be public (no loopback, private, link-local — which holds the
   cloud metadata address 169.254.169.254 —, shared, multicast, reserved or unspecified
   address, IPv4-mapped ones included). ``NOTIFY_ALLOW_LOOPBACK`` (the embedded server and
   the tests) also lets ``http``/``https`` reach loopback addresses, nothing else.
2. The connection goes to the address that was checked (the host name is kept for TLS
   and the ``Host`` header), so a second DNS answer cannot swap it ("DNS rebinding").
3. Redirects are never followed (a 3xx is an answer like any other), the timeout is short
   (``NOTIFY_TIMEOUT_SECONDS``) and at most a few KB of the answer are read.

Connections are kept per (host, address) in the process (urllib3 pools, keep-alive), so a
batch to one push service or receiver pays one handshake. A host's DNS answer is kept for
``NOTIFY_DNS_CACHE_SECONDS`` (30 s) per process, so a batch resolves each host once; the
addresses are checked again at every use (a cached answer never lets a private address
through) and the connection still goes to the checked address.
"""

from __future__ import annotations

import ipaddress
import queue
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping
from urllib.parse import urlsplit

import urllib3
from django.conf import settings
from django.utils.translation import gettext_noop

URL_NOT_HTTPS = gettext_noop("The address must start with https://.")
URL_BAD = gettext_noop("This is not a web address we can post to.")
URL_PRIVATE = gettext_noop("This address points to a private, loopback or link-local "
                           "network; we only post to public addresses.")
URL_UNRESOLVED = gettext_noop("This host name does not resolve.")

MAX_ANSWER_BYTES = 4096
_pools: dict[tuple[str, str, int, str], urllib3.connectionpool.HTTPConnectionPool] = {}
_lock = threading.Lock()
#: (host, port) -> (valid until, the addresses it resolved to)
_resolved: dict[tuple[str, int], tuple[float, tuple[ipaddress.IPv4Address
                                                    | ipaddress.IPv6Address, ...]]] = {}


class Refused(ValueError):
    """The URL may not be posted to (the message says why; translatable)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes


def _allowed(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, loopback_ok: bool) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return loopback_ok
    return ip.is_global and not ip.is_multicast and not ip.is_reserved


def resolve(host: str, port: int) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, ...]:
    """Every address ``host`` resolves to (raises :class:`Refused`), from the short cache
    when it is fresh. Failures are not kept."""
    key = (host, port)
    now = time.monotonic()
    cached = _resolved.get(key)
    if cached is not None and cached[0] > now:
        return cached[1]
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise Refused(URL_UNRESOLVED) from None
    addresses = []
    for info in infos:
        try:
            addresses.append(ipaddress.ip_address(info[4][0].split("%")[0]))
        except ValueError:
            raise Refused(URL_BAD) from None
    found = tuple(addresses)
    seconds = settings.NOTIFY_DNS_CACHE_SECONDS
    if found and seconds > 0:
        if len(_resolved) > 10_000:
            _resolved.clear()
        _resolved[key] = (now + seconds, found)
    return found


def forget_resolved() -> None:
    """Empty the DNS cache (tests that change what a host resolves to)."""
    _resolved.clear()


def check(url: str, *, loopback_ok: bool | None = None) -> Target:
    """The checked target of ``url`` (raises :class:`Refused`)."""
    if loopback_ok is None:
        loopback_ok = settings.NOTIFY_ALLOW_LOOPBACK
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(URL_BAD) from None
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.username \
            or parts.password or len(url) > 1000:
        raise Refused(URL_BAD)
    host = parts.hostname
    port = port or (443 if parts.scheme == "https" else 80)
    addresses = resolve(host, port)
    if not addresses:
        raise Refused(URL_UNRESOLVED)
    if not all(_allowed(ip, loopback_ok) for ip in addresses):
        raise Refused(URL_PRIVATE)
    if parts.scheme != "https" and not all(ip.is_loopback for ip in addresses):
        raise Refused(URL_NOT_HTTPS)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme=parts.scheme, host=host, port=port, path=path,
                  address=str(addresses[0]))


def _pool(target: Target) -> urllib3.connectionpool.HTTPConnectionPool:
    key = (target.scheme, target.host, target.port, target.address)
    pool = _pools.get(key)
    if pool is None:
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                seconds = settings.NOTIFY_TIMEOUT_SECONDS
                timeout = urllib3.Timeout(total=2 * seconds, connect=seconds, read=seconds)
                if target.scheme == "https":
                    pool = urllib3.HTTPSConnectionPool(
                        target.address, target.port, timeout=timeout, maxsize=max(4, settings.NOTIFY_CONCURRENCY), block=False,
                        retries=False, server_hostname=target.host,
                        assert_hostname=target.host)
                else:
                    pool = urllib3.HTTPConnectionPool(target.address, target.port,
                                                      timeout=timeout, maxsize=max(4, settings.NOTIFY_CONCURRENCY), block=False,
                                                      retries=False)
                _pools[key] = pool
    return pool


def post(url: str, body: bytes, headers: dict[str, str], *,
         target: Target | None = None) -> Answer:
    """POST ``body`` to ``url`` (checked, unless ``target`` is the checked one); the answer,
    whatever its status. Raises :class:`Refused` (the URL) or ``urllib3`` errors
    (connection, timeout: temporary)."""
    target = target or check(url)
    host_header = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
    if ":" in target.host and not target.host.startswith("["):
        host_header = f"[{target.host}]" + ("" if target.port in (80, 443)
                                            else f":{target.port}")
    response = _pool(target).urlopen(
        "POST", target.path, body=body, headers={"Host": host_header, **headers},
        redirect=False, retries=False, preload_content=False, assert_same_host=False)
    try:
        # read even an empty body: it closes http.client's response, so the connection's
        # next request may read its own answer (else it is sent, then refused locally)
        data = response.read(MAX_ANSWER_BYTES)
        length = response.headers.get("content-length", "")
        if length.isdigit() and int(length) <= 16 * MAX_ANSWER_BYTES:
            response.drain_conn()  # small: keep the connection for the next post
            response.release_conn()
        else:
            response.close()  # never read an endless answer
    except Exception:
        response.close()
        raise
    return Answer(status=response.status, headers=response.headers, body=data)


_executor: ThreadPoolExecutor | None = None


def concurrently(jobs: Iterable[tuple[Any, Callable[[], Any]]]
                 ) -> Iterator[tuple[Any, Any, BaseException | None]]:
    """Run each ``(key, fn)`` on a small pool of threads (``NOTIFY_CONCURRENCY``) and yield
    ``(key, result, error)`` as each finishes, in the caller's thread — so the caller
    records each delivery the moment it is known, on its own database connection, while
    other posts wait on the network. The threads do network I/O and encryption only.

    Each thread takes the next job from a shared queue when it is free (a slow receiver
    holds one thread, not a share of the batch); the caller takes every answer that is in
    when it wakes, so a burst of answers costs one wake-up."""
    global _executor
    jobs = list(jobs)
    workers = min(settings.NOTIFY_CONCURRENCY, len(jobs))
    if workers <= 1:
        for key, fn in jobs:
            try:
                yield key, fn(), None
            except Exception as exc:  # noqa: BLE001 - handed to the caller
                yield key, None, exc
        return
    if _executor is None:
        with _lock:
            if _executor is None:
                _executor = ThreadPoolExecutor(max_workers=settings.NOTIFY_CONCURRENCY,
                                               thread_name_prefix="reach-post")
    todo: queue.SimpleQueue[tuple[Any, Callable[[], Any]]] = queue.SimpleQueue()
    for job in jobs:
        todo.put(job)
    done: queue.SimpleQueue[tuple[Any, Any, BaseException | None]] = queue.SimpleQueue()

    def work() -> None:
        while True:
            try:
                key, fn = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done.put((key, fn(), None))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                done.put((key, None, exc))

    for _ in range(workers):
        _executor.submit(work)
    left = len(jobs)
    while left:
        answers = [done.get()]
        while True:
            try:
                answers.append(done.get_nowait())
            except queue.Empty:
                break
        left -= len(answers)
        yield from answers
