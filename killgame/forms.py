"""The Kill Game new-match settings that need more than the config schema: the map, chosen
from the admin's map table, and the deadlines (scheduled windows or CHECK mode) as one
choice. The admin's match form and the lobby's new-match form both build these two fields
here, so the two forms offer the same settings the same way."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from killgame.models import GameMap

BUILTIN_MAP_NAMES = {"classic": _("Classic"), "inferno": _("Inferno")}
SCHEDULED, CHECK = "scheduled", "check"
DEADLINE_CHOICES = [
    (SCHEDULED, _("Scheduled: Tactical from the first time below, Action from the second")),
    (CHECK, _("CHECK mode: a phase closes when every living player pressed CHECK (at most "
              "24 h)")),
]
DEADLINES_HELP = _("Default: scheduled, 13:00 / 21:30 in the match time zone. In CHECK mode "
                   "the two times are not used.")


def map_choices() -> list[tuple[str, str]]:
    """Active maps that pass the map checks; a rules map missing from the table is still
    offered (``services.config_build`` always knows it)."""
    rows = GameMap.objects.filter(is_active=True, check_error="").order_by("name")
    choices = [(m.slug, m.name) for m in rows]
    known = set(GameMap.objects.values_list("slug", flat=True))
    choices += [(slug, name) for slug, name in BUILTIN_MAP_NAMES.items() if slug not in known]
    return choices


def map_field(initial: str = "classic") -> forms.ChoiceField:
    return forms.ChoiceField(choices=map_choices(), initial=initial, label=_("Map"),
                             help_text=_("Maps that pass the map checks. Default: Classic."))


def deadlines_field(check_enabled: bool = False) -> forms.TypedChoiceField:
    """``check_enabled`` as a choice between the two deadline modes (cleaned to a bool)."""
    return forms.TypedChoiceField(choices=DEADLINE_CHOICES, coerce=lambda v: v == CHECK,
                                  empty_value=False, initial=CHECK if check_enabled else SCHEDULED,
                                  label=_("Deadlines"), help_text=DEADLINES_HELP)


def adapt_match_form(form: Any) -> None:
    """The lobby's ``MatchCreateForm`` hook: the two fields above in place of the schema's."""
    form.fields["cfg_map"] = map_field()
    form.fields["cfg_check_enabled"] = deadlines_field()
