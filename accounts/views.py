"""Account pages: sign up, the profile (preferences and API tokens).

Log in/out and password reset are Django's own views (accounts/urls.py); this module
holds only what Django does not ship. The email unsubscribe page belongs to the framework
that sends the email (``games.unsubscribe``): ``accounts`` imports nothing of ``games``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import emailchange, throttle, verification
from accounts.forms import ApiTokenForm, EmailChangeForm, ProfileForm, SignupForm
from accounts.models import ApiToken, Profile

PROFILE_SAVED = _("Your preferences are saved.")
TOKEN_REVOKED = _("The token {name!r} is revoked: it no longer works.")
TOO_MANY_TOKENS = _("You have 10 tokens already; revoke one first.")
MAX_TOKENS = 10


def _safe_next(request: HttpRequest) -> str | None:
    nxt = request.POST.get("next") or request.GET.get("next")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
        return nxt
    return None


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset view, throttled: at most ``THROTTLE_RATES["password_reset_email"]``
    emails to one address (further requests still answer "check your email", so nothing
    tells whether the address has an account or was throttled) and a 429 for an address
    that asks too often. The email's link and subject come from ``SITE_URL``."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        wait = throttle.retry_after(request, "password_reset_ip")
        if wait is not None:
            return throttle.too_many(request, wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form) -> HttpResponse:
        email = form.cleaned_data["email"]
        if throttle.retry_after(self.request, "password_reset_email",
                                throttle.email_key(email)) is not None:
            return redirect(self.get_success_url())  # the same answer, no email
        # the link and the subject name the site's own address (SITE_URL), never the
        # request's Host: a forged Host must not put its own link in a real reset email
        site = urlsplit(settings.SITE_URL)
        self.extra_email_context = {"site_url": settings.SITE_URL, "site_name": settings.SITE_NAME,
                                    "domain": site.netloc, "protocol": site.scheme}
        return super().form_valid(form)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Sign up; always answers "check your email" (``accounts.verification``): the email
    holds the confirmation link, or says the address or the name is taken."""
    if request.user.is_authenticated:
        return redirect("games:lobby")
    if request.method == "POST":
        wait = throttle.retry_after(request, "signup_ip")
        if wait is not None:
            return throttle.too_many(request, wait)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        verification.signup_submit(username=form.cleaned_data["username"],
                                   email=form.cleaned_data["email"],
                                   password=form.cleaned_data["password1"], form=form,
                                   next_url=_safe_next(request))
        return redirect("accounts:signup-done")
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html",
                  {"form": form, "next": _safe_next(request) or ""}, status=status)


@require_GET
def signup_done(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/signup_done.html",
                  {"verification_required": settings.ACCOUNT_EMAIL_VERIFICATION})


class LoginView(auth_views.LoginView):
    """Django's login; with ``ACCOUNT_EMAIL_VERIFICATION`` on, an account whose address is
    not confirmed yet logs in (to resend the link, or change the address) and is told
    at once what it can and cannot do until then."""

    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        if not verification.is_verified(form.get_user()):
            messages.warning(self.request, _(
                "Your address is not confirmed yet: you cannot join or play matches until "
                "you follow the link we emailed you. Your profile page sends it again."))
        return response


@require_GET
def verify_email(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The emailed link: confirm the address, log in, go on to ``next`` or the lobby."""
    try:
        user_id = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError, OverflowError):
        user_id = None
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is None or not user.is_active or \
            not verification.email_verification_token.check_token(user, token):
        return render(request, "registration/verify_failed.html", status=400)
    verification.mark_verified(user)
    if not request.user.is_authenticated:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Welcome, %(name)s! Your address is confirmed.")
                     % {"name": user.get_username()})
    return redirect(_safe_next(request) or "games:lobby")


@login_required
@require_POST
def verify_email_resend(request: HttpRequest) -> HttpResponse:
    """Send the confirmation link again (as often as password-reset emails)."""
    wait = throttle.retry_after(request, "password_reset_email",
                                throttle.email_key(request.user.email))
    if wait is not None:
        return throttle.too_many(request, wait)
    verification.send_verification(request.user)
    messages.success(request, _("We sent the link again to %(email)s.")
                     % {"email": request.user.email})
    return redirect("accounts:profile")


def _profile_page(request: HttpRequest, *, form: ProfileForm | None = None,
                  token_form: ApiTokenForm | None = None, new_token: ApiToken | None = None,
                  email_form: EmailChangeForm | None = None,
                  status: int = 200) -> HttpResponse:
    prof, _ = Profile.objects.get_or_create(user=request.user)
    tokens = ApiToken.objects.filter(user=request.user, revoked_at__isnull=True)
    response = render(request, "accounts/profile.html", {
        "form": form or ProfileForm(instance=prof), "token_form": token_form or ApiTokenForm(),
        "tokens": tokens, "new_token": new_token, "now": timezone_now(),
        "email_form": email_form or EmailChangeForm(user=request.user),
        "email_verified": prof.email_verified_at is not None,
        "verification_required": settings.ACCOUNT_EMAIL_VERIFICATION}, status=status)
    if new_token is not None:  # the raw key is on this page only: keep it out of caches
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """Time zone, language, email preferences; the API tokens for scripts."""
    prof, _ = Profile.objects.get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, instance=prof)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, PROFILE_SAVED)
        return redirect("accounts:profile")
    return _profile_page(request, form=form, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    """Make a named, scoped, expiring token; its key is shown on this answer only."""
    token_form = ApiTokenForm(request.POST)
    if not token_form.is_valid():
        return _profile_page(request, token_form=token_form, status=400)
    if ApiToken.objects.filter(user=request.user, revoked_at__isnull=True).count() >= MAX_TOKENS:
        token_form.add_error(None, TOO_MANY_TOKENS)
        return _profile_page(request, token_form=token_form, status=400)
    token = token_form.save(user=request.user)
    return _profile_page(request, new_token=token)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of my tokens: it stops working at once."""
    token = ApiToken.objects.filter(pk=token_id, user=request.user,
                                    revoked_at__isnull=True).first()
    if token is None:
        raise Http404("No such token.")
    token.revoked_at = timezone_now()
    token.save(update_fields=["revoked_at"])
    messages.success(request, TOKEN_REVOKED.format(name=token.name))
    return redirect("accounts:profile")


SESSION_ENDED = _("That session is ended: it is logged out.")
SESSIONS_ENDED = _("Every other session is logged out.")


@login_required
@require_http_methods(["GET", "POST"])
def sessions_page(request: HttpRequest) -> HttpResponse:
    """My logged-in sessions (device, address, since when); end one, or every other one.
    POST ``end=<id>``, ``end=others`` or ``end=all``; ending this session logs me out here."""
    from accounts.sessions import live_sessions, session_end, sessions_end_all

    current = request.session.session_key
    if request.method == "POST":
        target = request.POST.get("end", "")
        if target in ("others", "all"):
            sessions_end_all(request.user, except_key=current)
            if target == "all":
                logout(request)
                return redirect("accounts:login")
            messages.success(request, SESSIONS_ENDED)
            return redirect("accounts:sessions")
        row = None
        pk = _int_or_none(target)
        if pk is not None:
            row = next((r for r in live_sessions(request.user) if r.pk == pk), None)
        if row is None:
            raise Http404("No such session.")
        if row.session_key == current:
            logout(request)
            return redirect("accounts:login")
        session_end(row.session_key)
        messages.success(request, SESSION_ENDED)
        return redirect("accounts:sessions")
    rows = live_sessions(request.user)
    return render(request, "accounts/sessions.html", {
        "rows": rows, "current": current,
        "others": sum(1 for r in rows if r.session_key != current)})


def _int_or_none(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 18 else None


@login_required
@require_POST
def email_change(request: HttpRequest) -> HttpResponse:
    """The profile's "change email" form: with the password, a link goes to the new
    address (as often as password-reset emails); nothing changes until it is opened."""
    key = f"user:{request.user.pk}"
    wait = throttle.retry_after(request, "password_confirm", key, increment=False)
    if wait is not None:  # too many wrong passwords: a stolen session guessing
        return throttle.too_many(request, wait)
    form = EmailChangeForm(request.POST, user=request.user)
    if not form.is_valid():
        if "password" in form.errors:
            wait = throttle.retry_after(request, "password_confirm", key)
            if wait is not None:
                return throttle.too_many(request, wait)
        return _profile_page(request, email_form=form, status=400)
    new_email = form.cleaned_data["new_email"]
    wait = throttle.retry_after(request, "password_reset_email", throttle.email_key(new_email))
    if wait is not None:
        return throttle.too_many(request, wait)
    try:
        emailchange.email_change_request(user=request.user, new_email=new_email)
    except emailchange.EmailChangeError as exc:
        form.add_error("new_email", str(exc))
        return _profile_page(request, email_form=form, status=400)
    messages.success(request, _("We sent a link to %(email)s: open it to use that address.")
                     % {"email": new_email})
    return redirect("accounts:profile")


@require_http_methods(["GET", "POST"])
def email_change_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: GET asks, POST applies (a scanner that fetches links changes
    nothing)."""
    try:
        user, new_email = emailchange.email_change_read(token)
        if request.method == "POST":
            emailchange.email_change_confirm(token)
            messages.success(request, _("Your email address is now %(email)s.")
                             % {"email": new_email})
            return redirect("accounts:profile" if request.user.is_authenticated
                            else "accounts:login")
    except emailchange.EmailChangeError as exc:
        return render(request, "accounts/email_change_confirm.html", {"error": str(exc)},
                      status=400)
    return render(request, "accounts/email_change_confirm.html", {"new_email": new_email})
