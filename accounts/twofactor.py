"""Second factor for directors: TOTP (django-otp), with the QR code drawn by segno.

With ``OTP_REQUIRED_FOR_STAFF`` on (production) a staff account that logged in with its
password can do nothing but this page until it proves a code: ``StaffOtpMiddleware`` sends
every other request here. The first visit enrols an authenticator app (QR code + secret),
later visits ask for the current code. In the embedded demo it is optional, so admin/admin
works on loopback. Wrong codes slow down (django-otp's throttling: 1, 2, 4… s).
"""

from __future__ import annotations

import segno
from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

BAD_CODE = _("That code is not right (or too old). Enter the current one.")
OPEN_PATHS = ("/accounts/otp/", "/accounts/logout/", "/static/", "/healthz")


class CodeForm(forms.Form):
    code = forms.RegexField(regex=r"^\s*\d{6}\s*$", label=_("6-digit code"),
                            widget=forms.TextInput(attrs={"inputmode": "numeric",
                                                          "autocomplete": "one-time-code"}))


def _next(request: HttpRequest) -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
        return nxt
    return "/admin/" if request.user.is_staff else "/"


@login_required
@require_http_methods(["GET", "POST"])
def otp_verify(request: HttpRequest) -> HttpResponse:
    """Enrol (first time: QR code and secret) or enter the current code."""
    device = TOTPDevice.objects.filter(user=request.user, confirmed=True).first()
    enrolling = device is None
    if enrolling:
        device = TOTPDevice.objects.filter(user=request.user, confirmed=False).first() or \
            TOTPDevice.objects.create(user=request.user, name="authenticator", confirmed=False)
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if device.verify_token(form.cleaned_data["code"].strip()):
            if enrolling:
                device.confirmed = True
                device.save(update_fields=["confirmed"])
            otp_login(request, device)
            return redirect(_next(request))
        form.add_error("code", BAD_CODE)
    context = {"form": form, "enrolling": enrolling, "next": _next(request)}
    if enrolling:
        context["qr_svg"] = segno.make(device.config_url).svg_inline(scale=4, border=2)
        context["secret"] = device.config_url.split("secret=")[1].split("&")[0]
    status = 400 if request.method == "POST" else 200
    response = render(request, "accounts/otp.html", context, status=status)
    response["Cache-Control"] = "no-store"
    return response


class StaffOtpMiddleware:
    """With ``OTP_REQUIRED_FOR_STAFF``: staff without a proven code reach only the code page
    (and log out); everything else, the admin included, redirects there."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        user = getattr(request, "user", None)
        if (settings.OTP_REQUIRED_FOR_STAFF and user is not None and user.is_authenticated
                and user.is_staff and not user.is_verified()
                and not request.path.startswith(OPEN_PATHS)):
            if request.path.startswith("/api/"):
                return JsonResponse({"ok": False, "error": {
                    "code": "OTP_REQUIRED", "message": "Staff must enter their one-time code "
                    "at /accounts/otp/ first.", "field": None, "details": {}}}, status=403)
            from urllib.parse import urlencode

            return redirect(f"/accounts/otp/?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)
