"""The bench's URLconf: the site's own URLs plus one trivial view, the floor every page
bench divides by (``bench_pages``: the same middleware stack, the same session, no work in
the view). Only ``bench_pages`` uses it (``ROOT_URLCONF`` set in its own process): the
deployed site has no such address."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler500, urlpatterns as site

FLOOR_PATH = "/bench/floor/"


def floor(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"floor\n", content_type="text/plain")


urlpatterns = [path(FLOOR_PATH.strip("/") + "/", floor, name="bench-floor"), *site]

__all__ = ["FLOOR_PATH", "handler500", "urlpatterns"]
