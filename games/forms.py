"""Forms of the generic pages: the lobby filter, match creation (with the game's config
fields generated from ``engine.config_schema()``) and the generic JSON order form.
"""

from __future__ import annotations

import json
import zoneinfo
from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext_lazy as _

from accounts.forms import timezone_choices
from games import registry
from games.lib import safejson
from games.lib.text import say
from games.rules import ConfigField, RulesError

CONFIG_PREFIX = "cfg_"
ORDER_NOT_JSON = _("The order is not valid JSON: {error}.")
ORDER_NOT_OBJECT = _("An order must be a JSON object, like {\"key\": value}.")
JSON_REFUSED = _("Enter valid JSON: {error}.")
MAX_PLAYERS_BELOW_MIN = _("The maximum cannot be below the minimum.")
STARTS_IN_THE_PAST = _("Choose a start time in the future (or leave it empty).")
STARTS_TOO_LATE = _("Choose a start time within the next %(years)d years.")
MAX_START_YEARS = 100  # far from any date arithmetic's edge (9999-12-31 overflowed)
#: config keys a game may share with the match's own fields (asked once, as match fields)
MATCH_FIELD_KEYS = ("min_players", "max_players", "timezone")


class LobbyFilterForm(forms.Form):
    """``?game=&status=`` on the lobby; unknown values are ignored, never an error page."""

    STATUS_CHOICES = [("open", _("Forming or running")), ("forming", _("Forming")),
                      ("running", _("Running")), ("finished", _("Finished")), ("all", _("All"))]

    BOTS_CHOICES = [("any", _("Shown")), ("hide", _("Hidden")), ("only", _("Only those"))]

    game = forms.ChoiceField(required=False, label=_("Game"))
    status = forms.ChoiceField(required=False, choices=STATUS_CHOICES, label=_("Status"))
    bots = forms.ChoiceField(required=False, choices=BOTS_CHOICES,
                             label=_("Tables with a bot account"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("All games")), *registry.choices()]

    def filters(self) -> tuple[str | None, str]:
        """(game slug or None, status) — defaults when the query string is bad."""
        if not self.is_valid():
            return None, "open"
        return self.cleaned_data.get("game") or None, self.cleaned_data.get("status") or "open"

    def bots_filter(self) -> str:
        """``any`` (default), ``hide`` or ``only``: tables where a bot account sits."""
        if not self.is_valid():
            return "any"
        return self.cleaned_data.get("bots") or "any"


class BoundedJSONField(forms.JSONField):
    """``forms.JSONField`` that checks size and depth before parsing (``games.lib.safejson``):
    a deeply nested value is a form error, not a RecursionError."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and not self.disabled:
            try:
                safejson.loads(value)
            except safejson.JsonRefused as exc:
                raise forms.ValidationError(JSON_REFUSED.format(error=exc),
                                            code="invalid") from None
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        if isinstance(data, str) and not self.disabled:
            try:
                safejson.loads(data)
            except safejson.JsonRefused:
                return forms.fields.InvalidJSONInput(data)
        return super().bound_data(data, initial)


def config_field(spec: ConfigField, default: Any = None) -> forms.Field:
    """One form field for one config setting, with its default shown and enforced ranges.

    ``default`` overrides the schema's default (a game's ``config_prepare`` may fill a
    setting from its own tables)."""
    default = spec.default if default is None else default
    # an engine's label, help and choice names are ``games.rules.Msg``: said in the reader's
    # language here (games/lib/text.py); plain strings pass as they are
    label = say(spec.label) or spec.key.replace("_", " ").capitalize()
    default_text: Any = default
    if spec.type == "json":
        default_text = _("as shown") if len(json.dumps(default)) > 60 else json.dumps(default)
    if spec.type == "choice":
        default_text = say(dict(spec.choices).get(default, default))
    if spec.type == "bool":
        default_text = _("yes") if default else _("no")
    help_text = " ".join(str(p) for p in (say(spec.help),
                                          str(_("Default: %(value)s.") % {"value": default_text}))
                         if p)
    common: dict[str, Any] = {"label": label, "help_text": help_text, "initial": default}
    if spec.type == "int":
        return forms.IntegerField(min_value=spec.min, max_value=spec.max, **common)
    if spec.type == "bool":
        return forms.BooleanField(required=False, **common)
    if spec.type == "choice":
        return forms.ChoiceField(choices=[(k, say(v)) for k, v in spec.choices], **common)
    if spec.type == "json":
        return BoundedJSONField(required=False, **common)
    return forms.CharField(required=False, max_length=500, **common)


class MatchCreateForm(forms.Form):
    """A new match of one game: name, players, time zone, deadlines, privacy, config."""

    name = forms.CharField(max_length=100, label=_("Name"))
    min_players = forms.IntegerField(label=_("Minimum players"))
    max_players = forms.IntegerField(label=_("Maximum players"))
    timezone = forms.ChoiceField(choices=timezone_choices, label=_("Match time zone"),
                                 help_text=_("Scheduled deadlines follow this zone's wall clock."),
                                 # site.js picks the browser's own zone on a fresh form
                                 widget=forms.Select(attrs={"data-browser-tz": ""}))
    phase_hours = forms.IntegerField(
        required=False, min_value=1, max_value=24 * 14, label=_("Hours per phase"),
        help_text=_("Leave empty for the game's default schedule. In CHECK mode: the longest "
                    "a phase stays open."))
    starts_at = forms.DateTimeField(
        required=False, label=_("Start automatically at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("In your time zone. Leave empty to start by hand."))
    is_private = forms.BooleanField(required=False, label=_("Private (invite link only)"))
    early_close = forms.BooleanField(
        required=False, initial=True, label=_("Close a phase early once everyone has checked in"),
        help_text=_("Off: scheduled phases wait for their deadline."))
    bots_enabled = forms.BooleanField(required=False, label=_("Bots play for absent players"))
    join = forms.BooleanField(required=False, initial=True, label=_("I play in this match"))
    press = forms.ChoiceField(required=False, label=_("Messages between players"), choices=[
        ("", _("The game's default")), ("full", _("Full: public board, private and team")),
        ("public", _("Public board only")), ("none", _("None"))])

    def __init__(self, *args: Any, game: registry.GameEntry, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        if game.hooks.schedule_from_settings:
            # the game's own settings set its deadlines (Kill Game: 13:00 / 21:30 windows or
            # CHECK mode); an "hours per phase" field would contradict them
            del self.fields["phase_hours"]
        if not hasattr(game.engine, "bot_orders"):
            del self.fields["bots_enabled"]
        for name in ("min_players", "max_players"):
            f = self.fields[name]
            f.widget.attrs.update({"min": game.min_seats, "max": game.max_seats})
            f.validators += [MinValueValidator(game.min_seats), MaxValueValidator(game.max_seats)]
        self.fields["min_players"].initial = game.min_seats
        self.fields["max_players"].initial = game.max_seats
        self.fields["timezone"].initial = settings.DEFAULT_MATCH_TIMEZONE
        if self.is_bound:  # what the person chose stays chosen
            self.fields["timezone"].widget.attrs.pop("data-browser-tz", None)
        full_schema = list(game.engine.config_schema())
        # a setting that is also a match field (players, time zone) is asked once, as the
        # match field, and copied into the config
        self.shared_keys = [s.key for s in full_schema if s.key in MATCH_FIELD_KEYS]
        self.schema = [s for s in full_schema if s.key not in MATCH_FIELD_KEYS]
        self.defaults = self.effective_defaults()
        for spec in self.schema:
            self.fields[CONFIG_PREFIX + spec.key] = config_field(spec, self.defaults[spec.key])
        adapt = game.hooks.match_form_adapt
        if adapt is not None:  # a game's own choices (Kill Game: maps from its map table)
            adapt(self)

    def effective_defaults(self) -> dict[str, Any]:
        """The schema's defaults, overlaid with what the game's ``config_prepare`` fills
        in from its own tables (so the form shows what a match would really get)."""
        out = {s.key: s.default for s in self.schema}
        prepare = self.game.hooks.config_prepare
        if prepare is not None:
            try:
                prepared = dict(prepare({}))
            except RulesError:
                return out
            out.update({k: v for k, v in prepared.items() if k in out})
        return out

    def config_fields(self) -> list[forms.BoundField]:
        """The match's real choices (map, mode, budget…)."""
        return [self[CONFIG_PREFIX + s.key] for s in self.schema if not s.house_rule]

    def house_rule_fields(self) -> list[forms.BoundField]:
        """Constants the rules fix (``ConfigField.house_rule``): offered apart, collapsed."""
        return [self[CONFIG_PREFIX + s.key] for s in self.schema if s.house_rule]

    def house_rules_have_errors(self) -> bool:
        return any(f.errors for f in self.house_rule_fields())

    def match_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.fields if not n.startswith(CONFIG_PREFIX)]

    def clean_timezone(self) -> str:
        tz = self.cleaned_data["timezone"]
        try:
            zoneinfo.ZoneInfo(tz)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError("Unknown time zone.") from None
        return tz

    def clean_starts_at(self) -> Any:
        value = self.cleaned_data.get("starts_at")
        if value is not None and value <= timezone_now():
            raise forms.ValidationError(STARTS_IN_THE_PAST)
        # checked before anything converts it: 9999-12-31 23:59 west of UTC overflows
        if value is not None and value > timezone_now() + timedelta(days=365 * MAX_START_YEARS):
            raise forms.ValidationError(STARTS_TOO_LATE % {"years": MAX_START_YEARS})
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        lo, hi = data.get("min_players"), data.get("max_players")
        if lo is not None and hi is not None and hi < lo:
            self.add_error("max_players", MAX_PLAYERS_BELOW_MIN)
        if not any(CONFIG_PREFIX + s.key in self.errors for s in self.schema):
            changed = self.changed_config()
            for key in self.shared_keys:
                if data.get(key) not in (None, ""):
                    changed[key] = data[key]
            try:
                # validated as match_create will: the game's config_prepare hook (Kill
                # Game snapshots its admin-edited map and prices), then validate_config
                prepare = self.game.hooks.config_prepare
                prepared = dict(prepare(changed)) if prepare is not None else changed
                self.game.engine.validate_config(prepared)
            except RulesError as exc:
                key = CONFIG_PREFIX + exc.field if exc.field and CONFIG_PREFIX + exc.field in self.fields else None
                self.add_error(key, str(say(exc.reason)))
            else:
                # only what the creator changed: the defaults (and the game's own tables,
                # through config_prepare) fill the rest when the match is created
                data["config"] = changed
        return data

    def changed_config(self) -> dict[str, Any]:
        """The settings whose submitted value differs from the schema's default."""
        return {k: v for k, v in self.raw_config().items() if v != self.defaults[k]}

    def raw_config(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for spec in self.schema:
            value = self.cleaned_data.get(CONFIG_PREFIX + spec.key)
            if value is None and spec.type in ("json", "int"):
                value = self.defaults[spec.key]
            if spec.type == "str" and value == "" and self.defaults[spec.key] is not None:
                value = self.defaults[spec.key]
            out[spec.key] = value
        return out

    def create(self, *, user: Any) -> Any:
        """Create the match this valid form describes (and seat ``user`` when ``join``,
        set its press rules when chosen): the one path of the page and of the API
        (``games.api_lobby``). Services raise ``ApplicationError``; nothing is kept then."""
        from django.db import transaction

        from games.services.matches import match_create, match_join

        data = self.cleaned_data
        with transaction.atomic():
            match = match_create(
                game=self.game.slug, name=data["name"], created_by=user,
                config=data["config"], min_players=data["min_players"],
                max_players=data["max_players"], timezone=data["timezone"],
                schedule=self.schedule(), is_private=data["is_private"],
                starts_at=data.get("starts_at"), bots_enabled=data.get("bots_enabled", False),
                early_close=bool(data.get("early_close")))
            if data.get("join"):
                match_join(match=match, user=user, invite_code=match.invite_code)
            for app in registry.all_apps():  # other apps plug in (press: its rules)
                if app.match_created is not None:
                    app.match_created(match, data)
        return match

    def schedule(self) -> dict[str, Any] | None:
        """``None``: the game's default schedule (from its settings, or 24 h phases)."""
        hours = self.cleaned_data.get("phase_hours")
        # the same hours cap a CHECK-mode phase (timing "check"), so the field is never ignored
        return {"mode": "duration", "hours": hours, "check_max_hours": hours} if hours else None


class OrderForm(forms.Form):
    """The generic order form: the order as JSON text (the page adds the hidden
    ``phase_id`` and ``version`` it showed; the view reads them)."""

    order = forms.CharField(widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false",
                                                         "class": "mono"}),
                            label=_("Your order (JSON)"), max_length=20000)

    def clean_order(self) -> dict[str, Any]:
        raw = self.cleaned_data["order"]
        try:
            value = safejson.loads(raw)
        except safejson.JsonRefused as exc:
            raise forms.ValidationError(ORDER_NOT_JSON.format(error=exc)) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(ORDER_NOT_OBJECT)
        return value


def parse_int(value: Any) -> int | None:
    """``int(value)`` or None for junk (query strings, hidden fields)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None

