"""In a real browser: the manifest is linked, the service worker registers for the whole
site, and a page that cannot load while offline shows the offline page (issue 25)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_service_worker_registers_and_manifest_is_linked(browser, live_server):
    base = live_server.url
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["start_url"].startswith("/") and manifest["icons"]
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{base}/"
    # controlled after a reload; offline, a page that cannot load shows the offline page
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10000)
    context.set_offline(True)
    page.goto(f"{base}/my/?offline-check")
    assert page.locator("#offline").count() == 1
    context.set_offline(False)
    context.close()
