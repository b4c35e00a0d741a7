"""Headers (issue 14): every page carries a CSP with ``script-src 'self'`` and no inline
script (no ``<script>`` without ``src``, no ``on*=`` handler, no ``hx-on``), plus
Permissions-Policy and Referrer-Policy. Checked on the pages a crawl reaches for each role
(the embedded demo's matches of every game), and on every template file."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
SKIP = ("/accounts/logout/", "/static/", "/admin/logout/", "/accounts/unsubscribe/",
        "/sanguosha/cards/", "/sanguosha/characters/", "/players/leaderboard/")


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.inline: list[str] = []
        self._in_inline_script = False

    def handle_starttag(self, tag, attrs):
        names = {k.lower(): v for k, v in attrs}
        for name in names:
            if name.startswith("on") or name.startswith("hx-on"):
                self.inline.append(f"<{tag} {name}=…>")
        if tag == "script":
            kind = (names.get("type") or "").lower()
            if "src" not in names and kind not in ("application/json", "application/ld+json"):
                self._in_inline_script = True
                self.inline.append("<script> without src")
        if tag == "a" and names.get("href"):
            self.links.append(names["href"])
            if names["href"].strip().lower().startswith("javascript:"):
                self.inline.append("javascript: link")


def scan(html: str) -> _Scan:
    parser = _Scan()
    parser.feed(html)
    return parser


def test_every_template_is_free_of_inline_script():
    offenders = []
    for path in list(ROOT.glob("templates/**/*.html")) + list(ROOT.glob("*/templates/**/*.html")):
        if "emails" in path.parts:  # emails are not pages
            continue
        text = path.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text):
            offenders.append(f"{path}: inline <script>")
        if re.search(r"\s(on[a-z]+|hx-on[:\w-]*)\s*=", text):
            offenders.append(f"{path}: on*= / hx-on handler")
    assert offenders == []


@pytest.fixture
def demo(db):
    """The embedded demo: a director and a started match of every game."""
    from io import StringIO

    from games.management.commands.run import Command

    command = Command(stdout=StringIO())
    command._seed_admin()
    command._seed_matches()
    return get_user_model()


def crawl(client: Client, start: list[str], limit: int = 30) -> dict[str, object]:
    seen: dict[str, object] = {}
    queue = list(start)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        path = urlsplit(url).path
        if path in seen or (any(path.startswith(s) for s in SKIP) and url not in start) \
                or path.startswith("/accounts/login/") and "next=" in url:
            continue
        resp = client.get(url)
        seen[path] = resp
        if resp.status_code in (301, 302) and not urlsplit(resp["Location"]).netloc:
            queue.insert(0, resp["Location"])
        if resp.status_code == 200 and "html" in resp.get("Content-Type", ""):
            for href in scan(resp.content.decode()).links:
                parts = urlsplit(urljoin(url, href))
                if not parts.netloc or parts.netloc == "testserver":
                    queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return seen


@pytest.mark.parametrize("who", [None, "demo1", "admin"])
def test_pages_carry_csp_and_no_inline_script(who, demo):
    client = Client()
    if who:
        client.force_login(demo.objects.get(username=who))
    from games.models import Match

    start = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    start += [f"/m/{m.pk}/" for m in Match.objects.all()]
    if who:
        start += ["/accounts/profile/", "/m/new/", "/diceslayer/", "/sanguosha/cards/"]
    if who == "admin":
        start += ["/admin/", "/admin/games/match/"]
    pages = crawl(client, start)
    html_pages = {p: r for p, r in pages.items()
                  if r.status_code == 200 and "html" in r.get("Content-Type", "")}
    assert len(html_pages) >= 5, sorted(pages)
    games = {m.game for m in Match.objects.all()}
    assert {"killgame", "diceslayer", "sanguosha"} <= games
    for match in Match.objects.all():  # every game's match page, whatever it redirects to
        assert any(f"/m/{match.pk}/" in p for p in pages), (match.game, sorted(pages))
    for path, resp in html_pages.items():
        csp = resp.get("Content-Security-Policy", "")
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0], path
        assert "object-src 'none'" in csp and "frame-ancestors 'none'" in csp, path
        assert resp.get("Referrer-Policy") == "same-origin", path
        assert "camera=()" in resp.get("Permissions-Policy", ""), path
        inline = scan(resp.content.decode()).inline
        assert inline == [], (path, inline)


def test_error_pages_carry_csp_too(client, db):
    resp = client.get("/no/such/page/")
    assert resp.status_code == 404 and "script-src 'self'" in resp["Content-Security-Policy"]
