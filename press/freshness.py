"""The press version of a match (``MatchPress.version``): bumped by every change a press
panel shows — a message posted, hidden or shown again, a mute set or lifted, the settings
and the pinned announcement (``MatchPress.save``) — so the match page can keep a rendered
panel under that number (games/lib/htmlcache.py) and never show it stale. Signals,
so the admin's edits count as well as the services'."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_save

from games.models import Match, Seat
from press.models import MatchPress, Message, Mute


def press_changed(match_id: int | None) -> None:
    """Bump the match's press version (creating its settings row with the game's default,
    which is what a match without one already used)."""
    if match_id is None:
        return
    if MatchPress.objects.filter(match_id=match_id).update(version=F("version") + 1):
        return
    from press.access import default_rules

    match = Match.objects.filter(pk=match_id).only("game", "config").first()
    if match is None:
        return
    try:
        with transaction.atomic():
            MatchPress(match_id=match_id, rules=default_rules(match.game, match.config)).save()
    except IntegrityError:  # created meanwhile: bump that one
        MatchPress.objects.filter(match_id=match_id).update(version=F("version") + 1)


def _match_created(sender: Any, instance: Match, created: bool = False, raw: bool = False,
                   **kwargs: Any) -> None:
    """Every match gets its settings row (the game's default) when it is created, so a
    bump is one UPDATE (matches from before: migration 0003)."""
    if created and not raw:
        from press.access import default_rules

        MatchPress.objects.get_or_create(
            match_id=instance.pk, defaults={"rules": default_rules(instance.game,
                                                                   instance.config)})


def _message_changed(sender: Any, instance: Message, **kwargs: Any) -> None:
    press_changed(instance.match_id)


def _mute_changed(sender: Any, instance: Mute, **kwargs: Any) -> None:
    press_changed(Seat.objects.filter(pk=instance.seat_id).values_list("match_id", flat=True)
                  .first())


def page_version() -> Any:
    """The match page loads the press version with its match row (``press_version``,
    ``AppHooks.page_annotations``): no query of its own on a cached load."""
    from django.db.models import OuterRef, Subquery

    return Subquery(MatchPress.objects.filter(match_id=OuterRef("pk")).values("version")[:1])


def page_settings() -> Any:
    """The match's press settings row as one JSON array of ``access.PAGE_SETTINGS_FIELDS``
    (None without a row), loaded with the match page's match row
    (``AppHooks.page_annotations``): the panel reads it there (``access.settings_for``)
    instead of a query of its own when it is rendered anew. An array, not an object: its
    SQL has no parameter, so the page's query stays compiled once (games/lib/sqlonce.py)."""
    from django.db.models import OuterRef, Subquery
    from django.db.models.functions import JSONArray

    from press.access import PAGE_SETTINGS_FIELDS

    return Subquery(MatchPress.objects.filter(match_id=OuterRef("pk")).values(
        row=JSONArray(*PAGE_SETTINGS_FIELDS))[:1])


def panel_key(request: Any, match: Match) -> tuple[str, str, list[Any]]:
    """The press panel's fragment key parts, as templates/press/panel.html passes them
    (press version, user, the page's address without its query): read with the page's other fragments."""
    from games.lib.htmlcache import page_address

    version = getattr(match, "press_version", None)
    return ("press", "reader", [int(version) if version is not None else None,
                                request.user.pk, page_address(request)])


def register() -> None:
    post_save.connect(_match_created, sender=Match, dispatch_uid="press-v-match")
    for signal in (post_save, post_delete):
        signal.connect(_message_changed, sender=Message, dispatch_uid=f"press-v-msg-{signal}")
        signal.connect(_mute_changed, sender=Mute, dispatch_uid=f"press-v-mute-{signal}")
