"""Sanguosha's own services: syncing the catalogue models from the engine's data tables,
and loading a prepared engine position into a running match (tests, demos, the director).

The game flow itself stays in ``games.services``; nothing here touches hidden information
except :func:`match_load_state`, which the director or a test calls on purpose.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.timezone import now as timezone_now

from sanguosha.engine.data import CARD_TYPES, CARDS, CHARACTERS, LORD_CHARACTERS, SKILL_NAMES
from sanguosha.rules_text import CARD_RULES, SKILL_FLAGS, SKILL_RULES


def catalogue_sync(*, models: Any = None) -> dict[str, int]:
    """Create or update every card type, card, character and skill from the engine data.

    ``models`` is a ``(CardType, Card, Character, Skill)`` tuple (a data migration passes
    its historical models); by default the live ones. Idempotent; returns the counts.
    """
    if models is None:
        from sanguosha.models import Card, CardType, Character, Skill
    else:
        CardType, Card, Character, Skill = models
    copies: dict[str, int] = {}
    for c in CARDS.values():
        copies[c.id] = copies.get(c.id, 0) + 1
    types = {}
    for order, (slug, (en, zh, kind, extra)) in enumerate(CARD_TYPES.items()):
        types[slug], _ = CardType.objects.update_or_create(slug=slug, defaults={
            "name_en": en, "name_zh": zh, "kind": kind,
            "attack_range": extra if kind == "weapon" else 0, "copies": copies.get(slug, 0),
            "rules": CARD_RULES.get(slug, ""), "order": order})
    for c in CARDS.values():
        Card.objects.update_or_create(number=c.num, defaults={
            "card_type": types[c.id], "suit": c.suit, "rank": c.rank, "edition": c.set})
    owner: dict[str, Any] = {}
    for order, ch in enumerate(CHARACTERS.values()):
        row, _ = Character.objects.update_or_create(slug=ch.id, defaults={
            "name_en": ch.name, "name_zh": ch.zh, "kingdom": ch.kingdom, "gender": ch.gender,
            "max_hp": ch.max_hp, "is_lord_choice": ch.id in LORD_CHARACTERS, "order": order})
        for sk in ch.skills:
            owner[sk] = row
    for order, (slug, (en, zh)) in enumerate(SKILL_NAMES.items()):
        lord, compulsory = SKILL_FLAGS.get(slug, (False, False))
        rules = SKILL_RULES.get(slug) or CARD_RULES.get(slug, "")
        Skill.objects.update_or_create(slug=slug, defaults={
            "name_en": en, "name_zh": zh, "character": owner.get(slug), "is_lord_skill": lord,
            "is_compulsory": compulsory, "rules": rules, "order": order})
    return {"card_types": len(CARD_TYPES), "cards": len(CARDS), "characters": len(CHARACTERS),
            "skills": len(SKILL_NAMES)}


def match_load_state(*, match: Any, state: Any, now: datetime | None = None) -> Any:
    """Replace a running match's engine state with ``state`` (an engine ``State``) and open
    the phase it waits in; the open phase (if any) is closed without resolving.

    For prepared positions (the browser test, demos). Returns the new phase.
    """
    from games.models import Match, Phase
    from games.registry import get_rules
    from games.services.phases import phase_open

    now = now or timezone_now()
    engine = get_rules(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        Phase.objects.filter(match=locked, closed_at__isnull=True).update(closed_at=now)
        locked.state = engine.dump(state)
        locked.version += 1
        locked.save(update_fields=["state", "version"])
        phase = phase_open(match=locked, now=now)
    match.refresh_from_db()
    return phase
