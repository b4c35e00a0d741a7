"""Forms of the Dice Slayer pages: the move a posted form means (also the registry's
``order_from_post`` for the generic match page), starting a solo game, and creating a
versus match (variant, opponent or open game, time per turn, target score, bots).
"""

from __future__ import annotations

from typing import Any, Mapping

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy, ngettext

from diceslayer.services import (
    DEFAULT_TURN_HOURS, SOLO_VARIANTS, TURN_HOURS_CHOICES, VERSUS_VARIANTS,
)

BAD_FACE = gettext_lazy("Choose a die: a face from 1 to 6.")
NO_MOVE = gettext_lazy("Choose a die to pick.")
# The submit buttons of the board (one per die) and the radio of the generic page.
MOVE_FIELDS = {"pick": "pick", "pick_opponent": "pick", "wild": "wild", "bomb": "bomb"}


def _face(raw: Any) -> int:
    text = str(raw).strip()
    if not text.isdecimal():
        raise forms.ValidationError(BAD_FACE)
    return int(text)


def order_from_post(post: Mapping[str, Any]) -> dict[str, Any]:
    """The order payload a posted board form means.

    The board posts one of ``pick`` / ``pick_opponent`` / ``wild`` / ``bomb`` = face
    (the button pressed); the generic match page posts ``move`` = ``"pick:4"``,
    ``"opponent:2"``, ``"wild:6"`` or ``"bomb:3"``. The face is range-checked by the engine
    (a 7 is refused with the rules' message); anything unreadable is a ValidationError.

    Versus 1 may add ``cancel`` (checkboxes: the grace dice this removal cancels).

    >>> order_from_post({"pick_opponent": "3"})
    {'pick': 3, 'from': 'opponent'}
    """
    move = post.get("move")
    if move:
        kind, _, face = str(move).partition(":")
        field = {"pick": "pick", "opponent": "pick_opponent", "wild": "wild",
                 "bomb": "bomb"}.get(kind)
        if field is None:
            raise forms.ValidationError(NO_MOVE)
        post = {field: face}
    given = [k for k in MOVE_FIELDS if post.get(k) not in (None, "")]
    if len(given) != 1:
        raise forms.ValidationError(NO_MOVE)
    key = given[0]
    face = _face(post.get(key))
    out: dict[str, Any] = {MOVE_FIELDS[key]: face}
    if key == "pick_opponent":
        out["from"] = "opponent"
    cancel = _cancel_list(post)
    if cancel and MOVE_FIELDS[key] == "pick":
        out["cancel"] = cancel
    return out


def _cancel_list(post: Mapping[str, Any]) -> list[int]:
    """Versus 1: the grace dice ticked to cancel (none ticked: the rules' default)."""
    getlist = getattr(post, "getlist", None)
    raw = getlist("cancel") if getlist else post.get("cancel") or []
    if isinstance(raw, str):
        raw = [raw]
    return [_face(v) for v in raw if str(v).strip()]



def _hours_text(h: int) -> str:
    return ngettext("%(count)s hour", "%(count)s hours", h) % {"count": h}


_hours = lazy(_hours_text, str)  # said when the form is shown, in the reader's language


class SoloStartForm(forms.Form):
    variant = forms.ChoiceField(choices=[(v, v) for v in SOLO_VARIANTS], initial="solo")


VERSUS_LABELS = {"versus2": gettext_lazy("Versus — prototype 2 (attacks, the bomb; the default)"),
                 "versus1": gettext_lazy("Prototype 1 — most games end 0–0 (grace zones, first to 100)")}


class VersusCreateForm(forms.Form):
    """Challenge a player by username (they accept or decline within 48 h), play the bot,
    or open a game anyone can join. Versus 2 is the default; versus 1 is offered as the
    prototype it is."""

    OPPONENT_USER, OPPONENT_OPEN, OPPONENT_BOT = "user", "open", "bot"

    variant = forms.ChoiceField(label=gettext_lazy("Rules"), initial="versus2",
                                choices=[(v, VERSUS_LABELS[v]) for v in VERSUS_VARIANTS])
    against = forms.ChoiceField(label=gettext_lazy("Opponent"), initial=OPPONENT_USER, widget=forms.RadioSelect,
                                choices=[(OPPONENT_USER, gettext_lazy("Challenge a player")),
                                         (OPPONENT_OPEN, gettext_lazy("Open game: anyone can join")),
                                         (OPPONENT_BOT, gettext_lazy("Play the bot"))])
    opponent = forms.CharField(label=gettext_lazy("Player's username"), required=False, max_length=150)
    turn_hours = forms.TypedChoiceField(
        label=gettext_lazy("Time per turn"), coerce=int, initial=DEFAULT_TURN_HOURS,
        choices=[(h, _hours(h)) for h in TURN_HOURS_CHOICES],
        help_text=gettext_lazy("When it runs out, the rules' default move is played for you."))
    target_score = forms.IntegerField(
        label=gettext_lazy("Target score"), min_value=0, max_value=100_000, initial=0, required=False,
        help_text=gettext_lazy("Prototype 2 only: first to reach it wins; 0 = the match ends only by overflow."))
    bots_enabled = forms.BooleanField(
        label=gettext_lazy("If I miss a deadline, let the bot play my turn"), required=False,
        help_text=gettext_lazy("Instead of the rules' default move."))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("against") == self.OPPONENT_USER and not (data.get("opponent") or "").strip():
            self.add_error("opponent", gettext_lazy("Give the username of the player to challenge."))
        if data.get("variant") != "versus2" and data.get("target_score"):
            self.add_error("target_score", gettext_lazy("A target score applies only to prototype 2."))
        data["target_score"] = data.get("target_score") or 0
        return data
