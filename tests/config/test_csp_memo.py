"""config.csp.CachedCSPMiddleware: the settings' policy built once gives the same header
django-csp builds per answer; a view's own policy and a changed setting are still obeyed."""

from __future__ import annotations

from csp.constants import NONCE
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config.csp import CachedCSPMiddleware

HEADER = "Content-Security-Policy"


def _answer(middleware_class, response=None, path="/m/1/poll/"):
    request = RequestFactory().get(path)
    middleware = middleware_class(lambda r: response or HttpResponse(status=204))
    return middleware(request)


def test_the_settings_policy_is_the_header_django_csp_builds():
    ours, theirs = _answer(CachedCSPMiddleware), _answer(CSPMiddleware)
    assert ours[HEADER] == theirs[HEADER] == build_policy()
    assert "script-src 'self'" in ours[HEADER]
    assert _answer(CachedCSPMiddleware)[HEADER] == ours[HEADER]  # from the memo


def test_a_changed_setting_is_obeyed_not_the_memo():
    _answer(CachedCSPMiddleware)  # memo filled
    with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": ["'none'"]}}):
        assert _answer(CachedCSPMiddleware)[HEADER] == "default-src 'none'"
    assert "script-src 'self'" in _answer(CachedCSPMiddleware)[HEADER]


def test_a_views_own_policy_and_an_exempt_answer_go_django_csps_way():
    updated = HttpResponse()
    updated._csp_update = {"img-src": ["https://example.org"]}
    assert "https://example.org" in _answer(CachedCSPMiddleware, updated)[HEADER]
    exempt = HttpResponse()
    exempt._csp_exempt = True
    assert HEADER not in _answer(CachedCSPMiddleware, exempt)
    preset = HttpResponse()
    preset[HEADER] = "default-src 'self'"
    assert _answer(CachedCSPMiddleware, preset)[HEADER] == "default-src 'self'"


def test_a_nonce_drawn_by_the_page_reaches_the_header():
    def view(request):
        return HttpResponse(str(request.csp_nonce))
    policy = {"DIRECTIVES": {"default-src": ["'self'"], "script-src": ["'self'", NONCE]}}
    _answer(CachedCSPMiddleware)  # memo filled with the settings' policy
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        response = CachedCSPMiddleware(view)(RequestFactory().get("/"))
        assert f"'nonce-{response.content.decode()}'" in response[HEADER]
