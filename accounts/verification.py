"""Sign up without telling anyone who has an account, and email verification.

Sign up always answers "check your email". What the email says depends on what exists:
a new account gets a confirmation link; an address that already has an account gets a
note saying so (with its name and the password-reset page); a taken name gets a note to
pick another. Nothing on the page, its status or its timing tells them apart (the
conflict paths hash the password too, as creating an account would).

The confirmation link (Django's token generator keyed by SECRET_KEY, salted for this use;
it stops working once used, after the email changes, or after PASSWORD_RESET_TIMEOUT)
marks the address verified and logs the person in. With
``ACCOUNT_EMAIL_VERIFICATION`` on (production) only verified players may join matches.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlencode, urlsafe_base64_encode
from django.utils.timezone import now as timezone_now

from accounts.models import Profile


class EmailVerificationTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "accounts.verification.EmailVerificationTokenGenerator"

    def _make_hash_value(self, user, timestamp) -> str:
        profile = Profile.objects.filter(user=user).first()
        verified = profile.email_verified_at if profile is not None else None
        return f"{user.pk}{user.email}{verified}{user.password}{timestamp}"


email_verification_token = EmailVerificationTokenGenerator()


def is_verified(user) -> bool:
    """May this user join matches? Always, unless ``ACCOUNT_EMAIL_VERIFICATION`` is on;
    then staff, or anyone who confirmed the address."""
    if not settings.ACCOUNT_EMAIL_VERIFICATION or user.is_staff:
        return True
    return Profile.objects.filter(user=user, email_verified_at__isnull=False).exists()


def mark_verified(user) -> None:
    Profile.objects.update_or_create(user=user, defaults={"email_verified_at": timezone_now()})


def verification_url(user, next_url: str | None = None) -> str:
    path = reverse("accounts:verify-email", args=[urlsafe_base64_encode(force_bytes(user.pk)),
                                                  email_verification_token.make_token(user)])
    query = f"?{urlencode({'next': next_url})}" if next_url else ""
    return f"{settings.SITE_URL}{path}{query}"


def _send(kind: str, to: str, context: dict) -> None:
    context = {"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL, **context}
    subject = render_to_string(f"registration/{kind}_subject.txt", context).strip()
    body = render_to_string(f"registration/{kind}_email.txt", context)
    send_mail(subject, body, None, [to])


def send_verification(user, next_url: str | None = None) -> None:
    _send("verify", user.email, {"user": user, "url": verification_url(user, next_url)})


def signup_submit(*, username: str, email: str, password: str, form,
                  next_url: str | None = None) -> None:
    """What a valid sign-up form does; the caller answers "check your email" whatever
    happened here."""
    User = get_user_model()
    by_email = User.objects.filter(email__iexact=email).first()
    by_name = User.objects.filter(username__iexact=username).first()
    if by_email is None and by_name is None:
        user = form.save()
        send_verification(user, next_url)
        return
    make_password(password)  # the same work as creating an account: no timing tell
    if by_email is not None:
        _send("signup_exists", email, {"user": by_email,
                                       "reset_url": settings.SITE_URL + reverse(
                                           "accounts:password_reset")})
    else:
        _send("signup_name_taken", email, {"username": username,
                                           "signup_url": settings.SITE_URL + reverse(
                                               "accounts:signup")})
