"""The client's address, trusting ``X-Forwarded-*`` only from our own reverse proxy.

A header is only as trustworthy as whoever wrote it. ``TRUSTED_PROXIES`` (addresses or
networks, empty by default) names the proxies in front of the web processes; a request
whose socket peer (``REMOTE_ADDR``) is not one of them is the client itself, and whatever
``X-Forwarded-For`` / ``-Proto`` / ``-Host`` it sent is dropped before anything reads it
(:class:`ForwardedHeadersMiddleware`). From a trusted proxy, the client is the right-most
``X-Forwarded-For`` entry that is not itself a trusted proxy: entries further left are
whatever the client claimed.

Every per-address throttle counts :func:`client_ip`: django-axes
(``AXES_CLIENT_IP_CALLABLE``), django-ratelimit (``RATELIMIT_IP_META_KEY``) and the
project's own (``accounts.throttle``). docs/security.md "The client's address".
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Callable

from django.conf import settings
from django.core import checks
from django.http import HttpRequest, HttpResponse

FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
                     "HTTP_X_FORWARDED_PORT", "HTTP_X_REAL_IP", "HTTP_FORWARDED")
UNKNOWN = "0.0.0.0"
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in spec)


def trusted_networks() -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` parsed (a bad entry fails loudly at the first request and in
    ``manage.py check``)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[::1]:443"
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # "203.0.113.9:5123"
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_trusted(addr: str | None) -> bool:
    """Is ``addr`` one of ``TRUSTED_PROXIES``?"""
    networks = trusted_networks()
    ip = _address(addr or "") if networks else None
    return ip is not None and any(ip in net for net in networks)


def client_ip(request: HttpRequest) -> str:
    """The address to count against: the socket peer, or behind a trusted proxy the
    right-most forwarded address that is not a trusted proxy (an unparsable entry stops
    the walk: it is the proxy's neighbour's word, not an address)."""
    peer = request.META.get("REMOTE_ADDR") or UNKNOWN
    if not is_trusted(peer):
        return peer
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    for hop in reversed(hops):
        ip = _address(hop)
        if ip is None:
            return peer
        if not is_trusted(str(ip)):
            return str(ip)
    return peer


class ForwardedHeadersMiddleware:
    """First in the stack: a request that did not come through a trusted proxy loses its
    ``X-Forwarded-*`` headers, so ``request.is_secure()`` (``SECURE_PROXY_SSL_HEADER``),
    ``get_host()`` and the throttles see only what the socket says."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_trusted(request.META.get("REMOTE_ADDR")):
            for name in FORWARDED_HEADERS:
                request.META.pop(name, None)
        return self.get_response(request)


@checks.register(checks.Tags.security, deploy=True)
def check_proxies(app_configs: object = None, **kwargs: object) -> list[checks.CheckMessage]:
    """``TRUSTED_PROXIES`` parses; behind a proxy without it every client would share the
    proxy's address (one login lockout for everybody)."""
    try:
        networks = trusted_networks()
    except ValueError as exc:
        return [checks.Error(f"TRUSTED_PROXIES: {exc}", id="pbw.E010")]
    if getattr(settings, "BEHIND_PROXY", False) and not networks:
        return [checks.Warning(
            "BEHIND_PROXY is on but TRUSTED_PROXIES is empty: X-Forwarded-* headers are "
            "ignored and every client counts as the proxy's address.",
            hint="Set TRUSTED_PROXIES to the reverse proxy's address (docker-compose.yml "
                 "does).", id="pbw.W010")]
    return []
