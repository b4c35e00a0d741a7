"""Browser tests: Playwright's sync API driving Debian's Chromium (never
``playwright install``) against pytest-django's ``live_server``.

Playwright's sync API runs an event loop in the test thread, which makes Django refuse
synchronous ORM calls unless DJANGO_ALLOW_ASYNC_UNSAFE is set; the test process sets it.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.games.views.conftest import guess_registered  # noqa: F401  (autouse)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        if os.environ.get("CI"):  # .ci/run installs it: a missing browser is a CI failure
            pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed")
    return path


@pytest.fixture
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, headless=True,
                               args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            yield b
        finally:
            b.close()
