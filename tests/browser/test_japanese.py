"""A page of each game rendered in Japanese in Chromium (a player whose profile language is
ja): the page speaks Japanese and, on a phone, nothing overflows sideways. Screenshots go
to docs/screenshots/ja-*.png (CJK glyphs need Debian's fonts-noto-cjk, which .ci/run
installs)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.games.views.conftest import PASSWORD, make_user

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(settings.BASE_DIR) / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}

PAGES = [  # (name, path, Japanese text the page must show)
    ("diceslayer", "/diceslayer/", "デイリーチャレンジ"),
    ("killgame", "/m/new/killgame/", "対戦を作る"),
    ("sanguosha", "/sanguosha/cards/", "カードと武将 · 三国殺"),
]


def test_a_page_of_each_game_in_japanese(browser, live_server):
    user = make_user("hanako")
    user.profile.language = "ja"
    user.profile.save()
    context = browser.new_context(viewport=PHONE, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill("hanako")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.locator("html").get_attribute("lang") == "ja"
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, path, text in PAGES:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        assert text in page.content(), (path, text)
        assert page.locator("html").get_attribute("lang") == "ja"
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, (path, overflow)
        shot = SHOTS / f"ja-{name}-phone.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 5000
    context.close()
