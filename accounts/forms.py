"""Forms of the accounts pages: sign up and the profile (time zone, language, email)."""

from __future__ import annotations

import zoneinfo
from functools import lru_cache
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import ApiToken, Profile
from config.textclean import clean_name

MAX_REMINDER_HOURS = 72


TIMEZONE_REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic",
                    "Australia", "Europe", "Indian", "Pacific")


@lru_cache(maxsize=1)
def timezone_choices() -> list[tuple[str, Any]]:
    """Every IANA zone of a region, grouped by region for a select (``<optgroup>``), each
    shown by its place ("Argentina / Buenos Aires" under America); UTC first. The old alias
    names (``US/Eastern``, ``Etc/GMT+3``) are left out: each has a regional name."""
    names = sorted(n for n in zoneinfo.available_timezones() if n.split("/")[0] in TIMEZONE_REGIONS)
    groups: dict[str, list[tuple[str, str]]] = {}
    for n in names:
        region, place = n.split("/", 1)
        groups.setdefault(region, []).append((n, place.replace("_", " ").replace("/", " / ")))
    return [("UTC", "UTC"), *((region, groups[region]) for region in TIMEZONE_REGIONS
                              if region in groups)]


class SignupForm(UserCreationForm):
    """Username, email and password (twice), checked by Django's password validators.

    It never says that a name or an address is taken (``accounts.verification``: the email
    does): no uniqueness errors here."""

    email = forms.EmailField(required=True, help_text=_("For phase emails and password resets."))

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # django-stubs declare no Meta
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, data=None, *args, **kwargs) -> None:
        if data is not None and isinstance(data.get("username"), str):
            data = data.copy()  # invisible characters out before the name is validated
            data["username"] = clean_name(data["username"])
        super().__init__(data, *args, **kwargs)

    def clean_username(self) -> str:
        return self.cleaned_data["username"]  # not "A user with that username already exists"

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip()

    def validate_unique(self) -> None:
        """Uniqueness is settled by ``signup_submit``, out of sight."""


EMAIL_MODE_LABELS = {
    Profile.EmailMode.MY_MOVE: _("When it's my move"),
    Profile.EmailMode.PER_PHASE: _("Every phase"),
    Profile.EmailMode.DIGEST: _("Daily digest"),
    Profile.EmailMode.OFF: _("Off"),
}


class ProfileForm(forms.ModelForm):
    """The preferences a player sets on the profile page."""

    timezone = forms.ChoiceField(choices=timezone_choices, label=_("Time zone"),
                                 help_text=_("Deadlines are shown in this time zone."))
    reminder_hours = forms.IntegerField(
        min_value=0, max_value=MAX_REMINDER_HOURS, label=_("Reminder lead time (hours)"),
        help_text=_("Remind me this many hours before a deadline I have not checked in for "
                    "(0 = never)."))

    class Meta:
        model = Profile
        fields = ("timezone", "language", "email_mode", "reminder_hours", "email_match_events",
                  "email_messages")
        labels = {"language": _("Language"), "email_mode": _("Phase emails"),
                  "email_match_events": _("Email me when my matches start and end"),
                  "email_messages": _("Email me messages other players send me")}
        widgets = {"email_mode": forms.RadioSelect}
        help_texts = {"email_match_events": "", "email_messages": "",
                      "email_mode": _("Each match page can override this for that match.")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email_mode"].choices = [
            (value, EMAIL_MODE_LABELS.get(value, label))
            for value, label in self.fields["email_mode"].choices]


class ApiTokenForm(forms.Form):
    """A new API token: a name to recognise it by, a scope and a lifetime."""

    EXPIRY_CHOICES = [(7, _("7 days")), (30, _("30 days")), (90, _("90 days")),
                      (365, _("1 year"))]

    name = forms.CharField(max_length=100, label=_("Name"),
                           help_text=_("What uses it, e.g. “my bot”."))
    SCOPE_CHOICES = [(ApiToken.Scope.READ, _("Read: my matches, views, diaries and messages")),
                     (ApiToken.Scope.PLAY, _("Play: also submit orders and check in")),
                     (ApiToken.Scope.PRESS, _("Press: also post messages")),
                     (ApiToken.Scope.LOBBY, _("Lobby: play, and also create, join, leave and "
                                              "start matches")),
                     (ApiToken.Scope.DIRECTOR, _("Director: the director's actions (staff only)")),
                     (ApiToken.Scope.ALL, _("Everything"))]

    scope = forms.ChoiceField(choices=SCOPE_CHOICES, initial=ApiToken.Scope.READ,
                              label=_("Scope"), widget=forms.RadioSelect)
    days = forms.TypedChoiceField(choices=EXPIRY_CHOICES, coerce=int, initial=90,
                                  label=_("Expires after"))

    def clean_name(self) -> str:
        name = clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the token a name."))
        return name

    def save(self, *, user) -> ApiToken:
        from datetime import timedelta

        from django.utils.timezone import now

        data = self.cleaned_data
        return ApiToken.objects.create(user=user, name=data["name"], scope=data["scope"],
                                       expires_at=now() + timedelta(days=data["days"]))


class EmailChangeForm(forms.Form):
    """A new address for my account: a link goes there first (``accounts.emailchange``)."""

    new_email = forms.EmailField(label=_("New email address"), max_length=254)
    password = forms.CharField(label=_("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, *args, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if self.user is None or not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password
