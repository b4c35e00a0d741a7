"""``/healthz``: the web process answers and reaches its database (docker-compose probe)."""

from __future__ import annotations

from django.db import connection
from django.http import HttpResponse, JsonResponse


def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return JsonResponse({"ok": False, "error": type(exc).__name__}, status=503)
    return HttpResponse("ok", content_type="text/plain")
