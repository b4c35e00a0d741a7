"""The one-click unsubscribe page every email links to (``/accounts/unsubscribe/<token>/``).

It belongs to the framework that sends the emails and owns the tokens
(``games.lib.unsubscribe``): ``accounts`` imports nothing of ``games``. The URL stays under
``/accounts/`` so the links in emails already sent keep working.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.exceptions import ApplicationError
from games.services.notifications import notification_unsubscribe, notification_unsubscribe_read


@csrf_exempt  # RFC 8058 one-click: the mail client POSTs without a session or CSRF token.
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with a confirm button (link scanners must not unsubscribe anyone).
    POST: apply the signed token; works without a session (List-Unsubscribe-Post)."""
    apply = request.method == "POST"
    try:
        result = (notification_unsubscribe if apply else notification_unsubscribe_read)(token)
    except ApplicationError as exc:
        return render(request, "games/unsubscribe.html",
                      {"token": token, "done": False, "error": exc.message, "bad": True},
                      status=exc.client_status)
    return render(request, "games/unsubscribe.html", {
        "token": token, "done": apply, "description": result.description,
    })
