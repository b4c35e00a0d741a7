from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from players.models import MatchRules


class AwayForm(forms.Form):
    first = forms.DateField(label=_("First day away"), widget=forms.DateInput(attrs={"type": "date"}))
    last = forms.DateField(label=_("Last day away"), widget=forms.DateInput(attrs={"type": "date"}))


class MatchRulesForm(forms.ModelForm):
    class Meta:
        model = MatchRules
        fields = ["rated", "away_rule", "stretch_cap_hours", "absent_after", "open_after_hours"]
        labels = {"rated": _("Rated match"), "away_rule": _("While a player is away"),
                  "stretch_cap_hours": _("Most hours a deadline stretches"),
                  "absent_after": _("Missed phases in a row before a seat is absent"),
                  "open_after_hours": _("Hours absent before the seat opens to the lobby")}
