"""A second factor: TOTP (django-otp), with the QR code drawn by segno, offered to every
player and required of directors.

Any player may turn it on from the profile (``/accounts/two-step/``): from then on a
login with the password reaches nothing but the code page until the current code is
entered, and turning it on logs out the account's other sessions (they were opened
without it). With ``OTP_REQUIRED_FOR_STAFF`` on (production) every staff account must
enrol. ``OtpRequiredMiddleware`` sends every other request of such a session to the code
page; whether the account has a device is read once at login (a session flag), not on
every request. The first visit enrols an authenticator app (QR code + secret), later
visits ask for the current code. In the embedded demo staff need none, so admin/admin
works on loopback. Wrong codes slow down (django-otp's throttling: 1, 2, 4… s).
"""

from __future__ import annotations

import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

BAD_CODE = _("That code is not right (or too old). Enter the current one.")
TURNED_ON = _("Two-step login is on. Your other sessions were logged out.")
TURNED_OFF = _("Two-step login is off.")
STAFF_KEEP = _("Directors must keep two-step login on.")
#: the session flag: this login must prove a code (the account has a confirmed device)
SESSION_FLAG = "pbw_otp"
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
            request.session[SESSION_FLAG] = True
            if enrolling:  # the other sessions logged in without it: out they go
                from accounts.sessions import sessions_end_all

                sessions_end_all(request.user, except_key=request.session.session_key)
                messages.success(request, TURNED_ON)
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


def has_device(user) -> bool:
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def mark_login(request: HttpRequest, user) -> None:
    """At login (``user_logged_in``): does this session have to prove a code?"""
    if hasattr(request, "session"):
        request.session[SESSION_FLAG] = has_device(user)


def _required(request: HttpRequest, user) -> bool:
    if user.is_staff and settings.OTP_REQUIRED_FOR_STAFF:
        return True
    return bool(getattr(request, "session", {}).get(SESSION_FLAG))


@login_required
@require_http_methods(["GET", "POST"])
def two_step(request: HttpRequest) -> HttpResponse:
    """The profile's two-step login page: on (turn it off with a current code) or off (set
    it up on the code page)."""
    device = TOTPDevice.objects.filter(user=request.user, confirmed=True).first()
    form = CodeForm(request.POST or None)
    status = 200
    if request.method == "POST" and device is not None:
        if request.user.is_staff and settings.OTP_REQUIRED_FOR_STAFF:
            form.add_error(None, STAFF_KEEP)
        elif form.is_valid() and device.verify_token(form.cleaned_data["code"].strip()):
            TOTPDevice.objects.filter(user=request.user).delete()
            request.session[SESSION_FLAG] = False
            messages.success(request, TURNED_OFF)
            return redirect("accounts:two-step")
        elif form.is_valid():
            form.add_error("code", BAD_CODE)
        status = 400
    response = render(request, "accounts/two_step.html", {
        "on": device is not None, "form": form,
        "must_keep": request.user.is_staff and settings.OTP_REQUIRED_FOR_STAFF},
        status=status)
    response["Cache-Control"] = "no-store"
    return response


class OtpRequiredMiddleware:
    """A session that must prove a code (staff with ``OTP_REQUIRED_FOR_STAFF``, or a player
    who turned two-step login on) reaches only the code page (and log out) until it
    does; everything else, the admin included, redirects there."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        user = getattr(request, "user", None)
        if (user is not None and user.is_authenticated and _required(request, user)
                and not user.is_verified() and not request.path.startswith(OPEN_PATHS)):
            if request.path.startswith("/api/"):
                return JsonResponse({"ok": False, "error": {
                    "code": "OTP_REQUIRED", "message": "Enter your one-time code at "
                    "/accounts/otp/ first.", "field": None, "details": {}}}, status=403)
            from urllib.parse import urlencode

            return redirect(f"/accounts/otp/?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)


StaffOtpMiddleware = OtpRequiredMiddleware  # the earlier name
