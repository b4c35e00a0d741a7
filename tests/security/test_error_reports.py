"""Issue 28, problem 4: every 500 mailed the operators, unthrottled and inside the request
(304 mails in a 31-second outage). Reports are now grouped by distinct error, one per
interval, sent off the request path; or handed to Sentry when a DSN is set."""

from __future__ import annotations

import logging
import threading

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import path

from config import errorreports

pytestmark = pytest.mark.django_db


def _boom(request, anything=""):
    raise RuntimeError("boom")


def _other(request):
    raise KeyError("other")


urlpatterns = [path("boom/<str:anything>/", _boom), path("other/", _other)]


@pytest.fixture
def failing_site(settings):
    settings.ROOT_URLCONF = __name__
    settings.ADMINS = [("Ops", "ops@example.com")]
    settings.ERROR_REPORT_INTERVAL_SECONDS = 600
    errorreports.throttle.reset()
    yield Client(raise_request_exception=False)
    errorreports.flush()
    errorreports.throttle.reset()


def test_many_failing_requests_send_one_report_per_distinct_error(failing_site):
    threads_before = threading.get_ident()
    for i in range(30):  # thirty anonymous requests, each a 500, each with another address
        assert failing_site.get(f"/boom/{i}/").status_code == 500
    assert failing_site.get("/other/").status_code == 500
    errorreports.flush()
    subjects = sorted(m.subject for m in mail.outbox)
    assert len(subjects) == 2, subjects
    assert any("RuntimeError" in s for s in subjects) and any("KeyError" in s for s in subjects)
    report = next(m for m in mail.outbox if "RuntimeError" in m.subject)
    assert "test_error_reports.py" in report.body and "GET '/boom/0/'" in report.body
    assert threads_before == threading.get_ident()


def test_the_report_is_sent_off_the_request_path(failing_site, monkeypatch):
    """The request only queues the report: a mail server that hangs does not hold it."""
    release = threading.Event()
    sent = []

    def slow_mail_admins(subject, message, fail_silently=False):
        release.wait(5)
        sent.append(subject)

    monkeypatch.setattr("django.core.mail.mail_admins", slow_mail_admins)
    assert failing_site.get("/boom/x/").status_code == 500  # answered while the mail waits
    assert sent == []
    release.set()
    errorreports.flush()
    assert len(sent) == 1


def test_after_the_interval_the_next_report_counts_what_was_held_back(failing_site):
    throttle = errorreports.Throttle()
    assert throttle.admit("k", 600, now=0.0) == 0
    assert throttle.admit("k", 600, now=10.0) is None
    assert throttle.admit("k", 600, now=20.0) is None
    assert throttle.admit("k", 600, now=700.0) == 2
    assert throttle.admit("other", 600, now=700.0) == 0


def test_the_shared_key_keeps_several_processes_to_one_report(failing_site):
    """Another process (its own throttle) sees the cache's key and stays quiet."""
    failing_site.get("/boom/1/")
    errorreports.throttle.reset()  # as a second process would be
    failing_site.get("/boom/2/")
    errorreports.flush()
    assert len(mail.outbox) == 1


def test_bad_host_headers_do_not_flood_the_operators(failing_site, settings):
    settings.ROOT_URLCONF = "config.urls"
    settings.ALLOWED_HOSTS = ["good.example"]
    for i in range(20):
        assert failing_site.get("/", HTTP_HOST=f"evil{i}.example").status_code == 400
    errorreports.flush()
    assert len(mail.outbox) <= 1


def test_no_mail_without_admins(failing_site, settings):
    settings.ADMINS = []
    failing_site.get("/boom/1/")
    errorreports.flush()
    assert mail.outbox == []


def test_djangos_per_request_mail_handler_is_off():
    handlers = logging.getLogger("django").handlers
    assert not any(type(h).__name__ == "AdminEmailHandler" for h in handlers)
    root = logging.getLogger().handlers
    assert any(isinstance(h, errorreports.ThrottledAdminEmailHandler) for h in root)


def test_with_a_sentry_dsn_errors_go_to_sentry_and_no_mail(failing_site, settings):
    import sentry_sdk

    events = []

    class Capture(sentry_sdk.transport.Transport):
        def capture_envelope(self, envelope):
            events.extend(item.payload.json for item in envelope.items
                          if item.payload.json is not None)

    settings.SENTRY_DSN = "https://public@sentry.invalid/1"
    try:
        assert errorreports.sentry_init(settings.SENTRY_DSN, transport=Capture)
        assert failing_site.get("/boom/1/").status_code == 500
        sentry_sdk.flush()
    finally:
        sentry_sdk.init()  # no DSN: the SDK is off again
    errorreports.flush()
    assert mail.outbox == []
    assert any(e.get("exception", {}).get("values", [{}])[-1].get("type") == "RuntimeError"
               for e in events), events
    assert all("cookies" not in (e.get("request") or {}) for e in events)
