"""The pages and the API answer of ``players.account``: ``GET /api/me/export/`` (my data as
JSON; the session or an API token) and ``/accounts/delete/`` (the profile's delete page:
GET explains, POST with the password deletes and logs out)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import throttle
from games.api import api_view, ok
from games.exceptions import ApplicationError
from players.account import account_delete, account_export


@api_view(("GET",))
def export(request: HttpRequest) -> JsonResponse:
    """Everything we hold about the reader, as a JSON download."""
    data = account_export(request.user, lang=get_language() or "en")
    response = ok(**data)
    name = "".join(c for c in request.user.get_username() if c.isalnum() or c in "-_.")
    response["Content-Disposition"] = f'attachment; filename="pbw-data-{name or "me"}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest) -> HttpResponse:
    """Delete my account: the password confirms it; afterwards I am logged out."""
    error = ""
    if request.method == "POST":
        key = f"user:{request.user.pk}"
        wait = throttle.retry_after(request, "password_confirm", key, increment=False)
        if wait is not None:  # too many wrong passwords: a stolen session guessing
            return throttle.too_many(request, wait)
        try:
            account_delete(user=request.user, password=request.POST.get("password", ""))
        except ApplicationError as exc:
            error = exc.message
            if exc.code == "WRONG_PASSWORD":
                wait = throttle.retry_after(request, "password_confirm", key)
                if wait is not None:
                    return throttle.too_many(request, wait)
        else:
            logout(request)
            messages.success(request, _("Your account is deleted. Thank you for playing."))
            return redirect("games:lobby")
    return render(request, "players/account_delete.html", {"error": error},
                  status=400 if error else 200)
