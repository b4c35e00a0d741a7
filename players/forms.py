from __future__ import annotations

from django import forms

from players.models import MatchRules


class AwayForm(forms.Form):
    first = forms.DateField(label="First day away", widget=forms.DateInput(attrs={"type": "date"}))
    last = forms.DateField(label="Last day away", widget=forms.DateInput(attrs={"type": "date"}))


class MatchRulesForm(forms.ModelForm):
    class Meta:
        model = MatchRules
        fields = ["rated", "away_rule", "stretch_cap_hours", "absent_after", "open_after_hours"]
        labels = {"rated": "Rated match", "away_rule": "While a player is away",
                  "stretch_cap_hours": "Most hours a deadline stretches",
                  "absent_after": "Missed phases in a row before a seat is absent",
                  "open_after_hours": "Hours absent before the seat opens to the lobby"}
