"""Changing the email address, with confirmation (docs/accounts.md).

The profile's form (the new address and the password) sends a link to the **new** address;
nothing changes until it is opened. The link is signed (``django.core.signing``, its own
salt) with the user, the new address and the address it replaces, and works for
``PASSWORD_RESET_TIMEOUT`` (3 days): it stops working once the address changed (used, or
changed another way). Opening it shows a confirm button (a mail scanner fetching links
changes nothing); confirming sets the address, marks it verified and tells the old address
that it changed. An address another account uses is refused at confirmation too.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile

SALT = "accounts.emailchange"
EMAIL_TAKEN = _("Another account uses this address.")
LINK_INVALID = _("This link is not valid any more: ask for a new one on your profile.")
SAME_EMAIL = _("That is already your address.")


class EmailChangeError(Exception):
    pass


def address_taken(email: str, *, user) -> bool:
    return get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk).exists()


def _send(kind: str, to: str, context: dict) -> None:
    context = {"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL, **context}
    subject = render_to_string(f"registration/{kind}_subject.txt", context).strip()
    body = render_to_string(f"registration/{kind}_email.txt", context)
    send_mail(subject, body, None, [to])


def email_change_request(*, user, new_email: str) -> None:
    """Send the confirmation link to ``new_email`` (checked: not mine, not taken)."""
    new_email = new_email.strip()
    if new_email.lower() == (user.email or "").lower():
        raise EmailChangeError(SAME_EMAIL)
    if address_taken(new_email, user=user):
        raise EmailChangeError(EMAIL_TAKEN)
    token = signing.dumps({"u": user.pk, "e": new_email, "o": user.email}, salt=SALT)
    url = settings.SITE_URL + reverse("accounts:email-change-confirm", args=[token])
    _send("email_change", new_email, {"user": user, "url": url, "new_email": new_email})


def email_change_read(token: str):
    """(user, new address) the link stands for; :class:`EmailChangeError` if it is not
    valid (wrong, expired, already used, the account gone)."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        raise EmailChangeError(LINK_INVALID) from None
    user = get_user_model().objects.filter(pk=data.get("u"), is_active=True).first()
    if user is None or (user.email or "") != (data.get("o") or ""):
        raise EmailChangeError(LINK_INVALID)
    return user, data["e"]


def email_change_confirm(token: str):
    """Apply the link: the new address, verified; the old one is told. Returns the user."""
    user, new_email = email_change_read(token)
    if address_taken(new_email, user=user):
        raise EmailChangeError(EMAIL_TAKEN)
    old = user.email
    user.email = new_email
    user.save(update_fields=["email"])
    Profile.objects.update_or_create(user=user, defaults={"email_verified_at": timezone_now()})
    if old:
        _send("email_changed", old, {"user": user, "new_email": new_email})
    return user
