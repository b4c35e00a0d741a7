"""A service's fixed refusal reaches the player in the player's language; unknown text and
the machine code stay as they are."""

from __future__ import annotations

from django.utils import translation

from games.exceptions import ApplicationError
from games.services.seats import MATCH_PAUSED, STALE_PHASE


def test_a_refusal_is_in_the_active_language():
    with translation.override("ja"):
        assert ApplicationError(MATCH_PAUSED, code="MATCH_PAUSED").message == "対戦は一時停止中です。"
    with translation.override("es"):
        err = ApplicationError(STALE_PHASE, code="STALE_PHASE")
        assert err.message.startswith("La fase ha cambiado")
        assert err.as_dict()["code"] == "STALE_PHASE"
    with translation.override("it"):
        assert ApplicationError(MATCH_PAUSED).message == "La partita è in pausa."
    with translation.override("en"):
        assert ApplicationError(MATCH_PAUSED).message == MATCH_PAUSED


def test_text_outside_the_catalogue_passes_unchanged():
    with translation.override("ja"):
        assert ApplicationError("alice already has a seat here.").message == (
            "alice already has a seat here.")
