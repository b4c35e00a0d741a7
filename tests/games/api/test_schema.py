"""The OpenAPI document (games.api_schema): valid OpenAPI 3.1, every ``/api/`` URL of the
URLconf documented with the methods its view answers, nothing documented that does not
exist; the docs page renders it within the CSP (no script, nothing from elsewhere)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.api_schema import document

pytestmark = pytest.mark.django_db
CONVERTER = re.compile(r"<(?:\w+:)?(\w+)>")
PAGES = {"/api/docs/"}  # the page for people (HTML), not an operation


def _api_routes(patterns=None, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for p in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            out.update(_api_routes(p.url_patterns, route))
        elif isinstance(p, URLPattern) and route.startswith("api/"):
            path = "/" + CONVERTER.sub(r"{\1}", route)
            if path not in PAGES:
                out[path] = p.callback
    return out


def test_schema_is_valid_openapi_3_1():
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation import OpenAPIV31SpecValidator

    validate(document(), cls=OpenAPIV31SpecValidator)


def test_every_api_url_is_documented_and_nothing_else():
    documented = set(document()["paths"])
    routes = _api_routes()
    assert set(routes) - documented == set(), "API URLs missing from games/api_schema"
    assert documented - set(routes) == set(), "documented paths with no URL"


def test_documented_methods_are_the_views_methods():
    """A view answers exactly the methods documented (others: 405 in the error shape)."""
    doc = document()["paths"]
    for path, view in _api_routes().items():
        url = re.sub(r"\{\w+\}", "1", path)
        documented = {m.upper() for m in doc[path] if m in ("get", "post", "put", "delete")}
        for method in ("GET", "POST", "PUT", "DELETE"):
            if method in documented:
                continue
            resp = getattr(Client(), method.lower())(url)
            assert resp.status_code in (401, 405), (path, method, resp.status_code)


def test_schema_and_docs_pages(client):
    resp = client.get("/api/schema/")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("application/json")
    assert resp.json()["openapi"] == "3.1.0"
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "POST /api/matches/" in html and "/api/matches/{match_id}/checkin/" in html
    csp = page["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert not re.search(r"<script[^>]+src=\"https?://", html)
    assert "killgame" in html  # each game's own refusal codes are listed
