"""Forms of the Sanguosha pages: the table-creation form (the sanguosha.md settings and a
deadline per ask duration class) and :func:`order_from_post`, which turns a posted ask
form into the order payload the engine validates.

The ask form works without JavaScript: every option the engine offers is a submit button
``pick`` whose value is the option's base order as JSON; the seats' ``targets`` boxes and
the hand's ``cards`` boxes add what the player selected. Meta keys in ``pick`` (leading
underscore) say which selections the option takes, so a ticked target never leaks into an
``end``. The engine validates everything: a hand-made ``pick`` gains nothing.
"""

from __future__ import annotations

from typing import Any, Mapping

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.lib import safejson
from games.lib.text import say
from games.rules import InvalidConfig
from sanguosha import engine
from sanguosha.engine.setup import DEFAULT_DURATIONS

NO_CHOICE = gettext_lazy("Choose one of the offered answers (a button).")
BAD_CHOICE = gettext_lazy("This answer is damaged; reload the page and try again.")
BAD_NUMBER = gettext_lazy("{what} must be whole numbers; reload the page and try again.")
DURATION_CLASSES = (("setup", gettext_lazy("Character choice")),
                    ("play", gettext_lazy("Play (your turn)")),
                    ("response", gettext_lazy("Responses (Dodge, discard, skills)")),
                    ("window", gettext_lazy("Windows (Negate, rescue)")))


def _ints(post: QueryDict, name: str, what: str) -> list[int]:
    out = []
    for raw in post.getlist(name):
        raw = raw.strip()
        if not raw:
            continue
        try:
            out.append(int(raw))
        except ValueError:
            raise forms.ValidationError(str(BAD_NUMBER).format(what=what)) from None
    return out


def order_from_post(post: QueryDict) -> dict[str, Any]:
    """The order payload from a posted ask form (raises ``ValidationError`` with a message).

    ``pick`` (JSON object) is the base order. Meta keys: ``_t`` take the ticked
    ``targets`` (``_auto``: the one legal target when none is ticked); ``_c`` take the
    ticked ``cards`` as ``cards``; ``_p`` as ``peaches``; ``_u`` as ``use`` (two cards as one Kill); ``_s`` take ``sub_target``;
    ``_tt`` take one ticked target as ``target``; ``_o`` put ``first_target`` first among two ticked targets (Sow Discord); ``_arr`` build ``top``/``bottom`` from
    ``place_<card>``; ``_give`` build ``give`` from ``give_<card>``. ``ask`` (hidden) is
    the ask number the page showed (a later ask refuses it as stale).
    """
    raw = (post.get("pick") or "").strip()
    if not raw:
        raise forms.ValidationError(NO_CHOICE)
    try:
        base = safejson.loads(raw)
    except safejson.JsonRefused:
        raise forms.ValidationError(BAD_CHOICE) from None
    if not isinstance(base, dict):
        raise forms.ValidationError(BAD_CHOICE)
    meta = {k: base.pop(k) for k in list(base) if k.startswith("_")}
    order: dict[str, Any] = dict(base)
    targets = _ints(post, "targets", _("Targets"))
    cards = _ints(post, "cards", _("Cards"))
    if meta.get("_t"):
        if not targets and isinstance(meta.get("_auto"), list):
            targets = [t for t in meta["_auto"] if isinstance(t, int)]
        order["targets"] = targets
    if meta.get("_o") and len(order.get("targets") or []) == 2:
        first = _ints(post, "first_target", _("The first target"))
        if first and first[0] in order["targets"]:
            order["targets"] = [first[0]] + [t for t in order["targets"] if t != first[0]]
    if meta.get("_tt"):
        if len(targets) > 1:
            raise forms.ValidationError(_("Choose exactly one player."))
        if not targets and isinstance(meta.get("_auto"), list) and len(meta["_auto"]) == 1:
            targets = list(meta["_auto"])
        order["target"] = targets[0] if targets else None
    if meta.get("_c"):
        order["cards"] = cards
    if meta.get("_u"):
        order["use"] = cards
    if meta.get("_p"):
        order["peaches"] = cards
    if meta.get("_s"):
        sub = _ints(post, "sub_target", _("The second target"))
        order["sub_target"] = sub[0] if sub else None
    if isinstance(meta.get("_arr"), list):
        top: list[tuple[int, int]] = []
        bottom: list[tuple[int, int]] = []
        for i, c in enumerate(meta["_arr"]):
            place = post.get(f"place_{c}", "top")
            pos = _ints(post, f"pos_{c}", _("Positions"))
            key = (pos[0] if pos else i + 1, c)
            (bottom if place == "bottom" else top).append(key)
        order["top"] = [c for _, c in sorted(top)]
        order["bottom"] = [c for _, c in sorted(bottom)]
    if isinstance(meta.get("_give"), list):
        give = {}
        for c in meta["_give"]:
            to = _ints(post, f"give_{c}", _("Receivers"))
            if not to:
                raise forms.ValidationError(_("Say who gets each card."))
            give[str(c)] = to[0]
        order["give"] = give
    ask = _ints(post, "ask", _("The ask number"))
    if ask:
        order["ask"] = ask[0]
    return order


class TableCreateForm(forms.Form):
    """A new Three Kingdoms Kill table: players, the rules settings, deadlines per class."""

    name = forms.CharField(max_length=100, initial=gettext_lazy("Three Kingdoms Kill"))
    min_players = forms.IntegerField(min_value=4, max_value=10, initial=4,
                                     label=gettext_lazy("Minimum players"))
    max_players = forms.IntegerField(min_value=4, max_value=10, initial=8,
                                     label=gettext_lazy("Maximum players"))
    identity_variant = forms.ChoiceField(label=gettext_lazy("Identities per player count"))
    deck = forms.ChoiceField(label=gettext_lazy("Deck"))
    weapon_abilities = forms.ChoiceField(label=gettext_lazy("Weapon abilities"))
    rescue_mode = forms.ChoiceField(label=gettext_lazy("Rescue"))
    negate_privacy = forms.ChoiceField(label=gettext_lazy("Negate windows await"))
    lord_extra_choices = forms.IntegerField(min_value=0, max_value=5, initial=2,
                                            label=gettext_lazy("Extra characters offered to the lord"))
    hours_setup = forms.FloatField(min_value=0.01, max_value=336, label=gettext_lazy("Character choice (hours)"))
    hours_play = forms.FloatField(min_value=0.01, max_value=336, label=gettext_lazy("Play (hours)"))
    hours_response = forms.FloatField(min_value=0.01, max_value=336, label=gettext_lazy("Responses (hours)"))
    hours_window = forms.FloatField(min_value=0.01, max_value=336,
                                    label=gettext_lazy("Negate and rescue windows (hours)"))
    bots_enabled = forms.BooleanField(required=False, label=gettext_lazy("Absent players are played by the bot"),
                                      help_text=gettext_lazy(
                                          "Otherwise an absent player gets the stated default."))
    is_private = forms.BooleanField(required=False, label=gettext_lazy("Private (invite link only)"))
    join = forms.BooleanField(required=False, initial=True, label=gettext_lazy("I sit at this table"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for spec in engine.config_schema():
            if spec.key in self.fields and spec.type == "choice":
                self.fields[spec.key].choices = [(k, say(v)) for k, v in spec.choices]
                self.fields[spec.key].initial = spec.default
                self.fields[spec.key].help_text = _("Default: %(choice)s.") % {
                    "choice": say(dict(spec.choices)[spec.default])}
        for key, hours in DEFAULT_DURATIONS.items():
            self.fields[f"hours_{key}"].initial = hours

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        lo, hi = data.get("min_players"), data.get("max_players")
        if lo is not None and hi is not None and hi < lo:
            self.add_error("max_players", _("The maximum cannot be below the minimum."))
        if not self.errors:
            try:
                data["config"] = engine.validate_config(self.config())
            except InvalidConfig as exc:
                self.add_error(exc.field if exc.field in self.fields else None, str(say(exc.reason)))
        return data

    def durations(self) -> dict[str, float]:
        return {key: float(self.cleaned_data[f"hours_{key}"]) for key in DEFAULT_DURATIONS}

    def config(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {"identity_variant": d["identity_variant"], "deck": d["deck"],
                "weapon_abilities": d["weapon_abilities"], "rescue_mode": d["rescue_mode"],
                "negate_privacy": d["negate_privacy"],
                "lord_extra_choices": d["lord_extra_choices"], "durations": self.durations()}


def schedule_for(config: Mapping[str, Any]) -> dict[str, Any]:
    """The match schedule for a config: each ask's duration class (setup, play, response,
    window; hours in the config) becomes a framework ``durations`` entry in seconds."""
    hours = dict(DEFAULT_DURATIONS)
    hours.update((config or {}).get("durations") or {})
    return {"mode": "duration", "hours": hours["play"],
            "durations": {k: int(round(float(v) * 3600)) for k, v in hours.items()}}
