"""Pages and API of the reach app: the web app manifest and the service worker (served
from the site root so it may control every page), the offline page, the calendar feed,
the profile page's forms, and the JSON API (``/api/push/…``, ``/api/webhooks/``,
``/api/calendar/``; docs/api.md) with ``games.api``'s authentication and answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from games.api import api_view, error, ok
from games.exceptions import ApplicationError
from games.lib import safejson
from reach import calendar, services, vapid
from reach.models import ChannelPrefs, PushSubscription, Webhook

SW_PATH = Path(__file__).resolve().parent / "static" / "reach" / "sw.js"
THEME_LIGHT = "#2b5d8a"
THEME_DARK = "#10243a"
BACKGROUND = "#ffffff"


# --- the installable site --------------------------------------------------------------

@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: name, icons, start URL, colours."""
    data = {
        "id": "/", "name": settings.SITE_NAME, "short_name": settings.SITE_NAME[:12],
        "description": _("Play long matches in timed phases."),
        "start_url": reverse("games:my-games") + "?source=app", "scope": "/",
        "display": "standalone", "background_color": BACKGROUND, "theme_color": THEME_LIGHT,
        "lang": getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE),
        "icons": [
            {"src": static("reach/icon-192.png"), "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": static("reach/icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": static("reach/icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
            {"src": static("reach/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = JsonResponse(data)
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: from the root, so its scope is the whole site; never cached long (a
    browser checks it for updates)."""
    body = SW_PATH.read_text().replace("__OFFLINE_URL__", reverse("reach:offline")).replace(
        "__ICON__", static("reach/icon-192.png")).replace(
        "__BADGE_URL__", reverse("reach:api-push-badge"))
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows when the network is gone."""
    return render(request, "reach/offline.html")


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The private iCalendar feed (no login: the token is the key)."""
    prefs = (ChannelPrefs.objects.select_related("user").filter(calendar_token=token)
             .exclude(calendar_token="").first()) if len(token) <= 64 else None
    if prefs is None or not prefs.user.is_active:
        raise Http404("No such calendar.")
    response = HttpResponse(calendar.feed(prefs.user), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    response["Content-Disposition"] = 'inline; filename="deadlines.ics"'
    return response


def calendar_url(request: HttpRequest, user: Any) -> str:
    return settings.SITE_URL + reverse("reach:calendar-feed", args=[services.calendar_token(user)])


# --- the JSON API ----------------------------------------------------------------------

def _json(request: HttpRequest) -> dict[str, Any]:
    raw = request.body
    if not raw.strip():
        return {}
    try:
        data = safejson.loads(raw)
    except safejson.JsonRefused as exc:
        raise ApplicationError(gettext("The body is not valid JSON: %(error)s.") % {"error": exc},
                               code="BAD_JSON") from None
    if not isinstance(data, dict):
        raise ApplicationError(gettext_noop("The body must be a JSON object."), code="BAD_JSON")
    return data


def _webhook_json(hook: Webhook) -> dict[str, Any]:
    return {"id": hook.pk, "url": hook.url, "kind": hook.kind, "match": hook.match_id,
            "secret": hook.secret, "created_at": hook.created_at.isoformat(),
            "disabled": hook.disabled_at is not None, "note": hook.note,
            "failures": hook.failures}


@api_view(("GET",))
def api_push_key(request: HttpRequest) -> JsonResponse:
    """``GET /api/push/key``: the VAPID public key to subscribe with."""
    key = vapid.server_key()
    if key is None:
        return error(503, "PUSH_OFF", _("Push notifications are not configured on this server."))
    return ok(key=vapid.public_key_b64(key))


@api_view(("GET", "POST", "DELETE"))
def api_push_subscriptions(request: HttpRequest) -> JsonResponse:
    """``POST`` stores ``PushSubscription.toJSON()``; ``DELETE`` with ``{"endpoint"}``
    removes it; ``GET`` lists this user's subscriptions."""
    if request.method == "GET":
        subs = PushSubscription.objects.filter(user=request.user)
        return ok(subscriptions=[{"id": s.pk, "endpoint": s.endpoint,
                                  "created_at": s.created_at.isoformat()} for s in subs])
    data = _json(request)
    if request.method == "DELETE":
        removed = services.subscription_delete(user=request.user, endpoint=data.get("endpoint"))
        return ok(removed=removed)
    sub = services.subscription_save(user=request.user, data=data,
                                     user_agent=request.headers.get("User-Agent", ""))
    response = ok(subscription={"id": sub.pk, "endpoint": sub.endpoint})
    response.status_code = 201
    return response


@api_view(("GET",))
def api_push_badge(request: HttpRequest) -> JsonResponse:
    """``GET /api/push/badge``: how many matches wait for my move (the app badge)."""
    from games.context_processors import your_move

    counter = your_move(request).get("your_move_count")
    return ok(count=counter() if counter else 0)


@api_view(("GET", "POST", "DELETE"))
def api_webhooks(request: HttpRequest) -> JsonResponse:
    """``POST {"url", "kind", "match"}`` adds one; ``GET`` lists mine; ``DELETE {"id"}``."""
    if request.method == "GET":
        return ok(webhooks=[_webhook_json(h) for h in Webhook.objects.filter(user=request.user)])
    data = _json(request)
    if request.method == "DELETE":
        services.webhook_delete(user=request.user, webhook_id=data.get("id"))
        return ok()
    unknown = sorted(set(data) - {"url", "kind", "match"})
    if unknown:
        raise ApplicationError(gettext("Unknown field %(field)s; this URL takes %(fields)s.") % {
            "field": repr(unknown[0]), "fields": "kind, match, url"},
                               field=unknown[0])
    hook = services.webhook_create(user=request.user, url=data.get("url"),
                                   kind=data.get("kind", "json"), match_id=data.get("match"))
    response = ok(webhook=_webhook_json(hook))
    response.status_code = 201
    return response


@api_view(("DELETE",))
def api_webhook(request: HttpRequest, webhook_id: str) -> JsonResponse:
    """``DELETE /api/webhooks/<id>/``."""
    services.webhook_delete(user=request.user, webhook_id=webhook_id)
    return ok()


@api_view(("POST",))
def api_webhook_test(request: HttpRequest, webhook_id: str) -> JsonResponse:
    """``POST /api/webhooks/<id>/test/``: fire a test delivery now."""
    verdict, reason = services.webhook_test(user=request.user, webhook_id=webhook_id)
    return ok(delivered=verdict == "sent", detail=reason)


@api_view(("GET", "DELETE"))
def api_calendar(request: HttpRequest) -> JsonResponse:
    """``GET``: my private calendar URL; ``DELETE``: revoke it (a new one on next GET)."""
    if request.method == "DELETE":
        services.calendar_revoke(request.user)
        return ok()
    return ok(url=calendar_url(request, request.user))


# --- the profile page's forms ----------------------------------------------------------

def _back() -> HttpResponse:
    return redirect(reverse("accounts:profile") + "#reach")


def _refused(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
    flash.error(request, exc.message)
    return _back()


@login_required
@require_POST
def prefs_save(request: HttpRequest) -> HttpResponse:
    try:
        services.prefs_set(user=request.user, push_mode=request.POST.get("push_mode"),
                           webhook_mode=request.POST.get("webhook_mode"))
    except ApplicationError as exc:
        return _refused(request, exc)
    flash.success(request, _("Your preferences are saved."))
    return _back()


@login_required
@require_POST
def webhook_add(request: HttpRequest) -> HttpResponse:
    try:
        services.webhook_create(user=request.user, url=request.POST.get("url"),
                                kind=request.POST.get("kind") or "json",
                                match_id=request.POST.get("match") or None)
    except ApplicationError as exc:
        return _refused(request, exc)
    flash.success(request, _("Webhook added."))
    return _back()


@login_required
@require_POST
def webhook_remove(request: HttpRequest, webhook_id: int) -> HttpResponse:
    try:
        services.webhook_delete(user=request.user, webhook_id=webhook_id)
    except ApplicationError as exc:
        return _refused(request, exc)
    flash.success(request, _("Webhook removed."))
    return _back()


@login_required
@require_POST
def webhook_test(request: HttpRequest, webhook_id: int) -> HttpResponse:
    try:
        verdict, reason = services.webhook_test(user=request.user, webhook_id=webhook_id)
    except ApplicationError as exc:
        return _refused(request, exc)
    if verdict == "sent":
        flash.success(request, _("The test delivery went through."))
    else:
        flash.error(request, _("The test delivery failed: %(reason)s") % {"reason": reason})
    return _back()


@login_required
@require_POST
def calendar_reset(request: HttpRequest) -> HttpResponse:
    services.calendar_revoke(request.user)
    services.calendar_token(request.user)
    flash.success(request, _("Your calendar link is new; the old one no longer works."))
    return _back()
