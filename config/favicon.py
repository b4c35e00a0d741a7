"""``/favicon.ico``: the site's icon (``static/favicon.ico``), answered at the address browsers
ask for without reading the page, so the logs carry no 404 per visit. Read once, cached a day."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

ICON = Path(settings.BASE_DIR) / "static" / "favicon.ico"


@lru_cache(maxsize=1)
def _icon() -> bytes:
    return ICON.read_bytes()


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_icon(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response
