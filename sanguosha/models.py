"""The Sanguosha catalogues a person browses and an admin edits (docs/design.md "Game apps"):
card types with their rules text, the 108 physical cards, the 25 characters and their
skills. They are seeded from the engine's data tables (``sanguosha.services.catalogue_sync``)
and only *describe* the game: the engine never reads them, so editing a rules text here
changes what the catalogue shows, never how a match plays.
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class CardType(models.Model):
    """One of the 32 card names of rules §1.2 (Kill, Dodge, ...), with its rules text."""

    class Kind(models.TextChoices):
        BASIC = "basic", _("Basic")
        TRICK = "trick", _("Trick")
        DELAYED = "delayed", _("Delayed trick")
        WEAPON = "weapon", _("Weapon")
        ARMOR = "armor", _("Armor")
        PLUS_HORSE = "plus_horse", _("+1 horse")
        MINUS_HORSE = "minus_horse", _("−1 horse")

    slug = models.SlugField(max_length=40, unique=True, help_text="The engine's card id.")
    name_en = models.CharField("English name", max_length=60)
    name_zh = models.CharField("Chinese name", max_length=20)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    attack_range = models.PositiveSmallIntegerField(default=0, help_text="Weapons only.")
    copies = models.PositiveSmallIntegerField(default=0)
    rules = models.TextField(blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "slug"]

    @property
    def shown_name(self) -> str:
        """The card's name in the reader's language (the engine's names, translated)."""
        from games.lib.text import say
        from sanguosha.engine.data import CARD_TYPES

        return str(say(CARD_TYPES[self.slug][0])) if self.slug in CARD_TYPES else self.name_en

    def __str__(self) -> str:
        return f"{self.name_en} {self.name_zh}"

    def get_absolute_url(self) -> str:
        return reverse("sanguosha:card", args=[self.slug])


class Card(models.Model):
    """A physical card of the deck (rules §1.3): number 1–108, suit, rank, edition."""

    number = models.PositiveSmallIntegerField(unique=True)
    card_type = models.ForeignKey(CardType, on_delete=models.CASCADE, related_name="cards")
    suit = models.CharField(max_length=8)
    rank = models.PositiveSmallIntegerField()
    edition = models.CharField(max_length=4, default="base", help_text="base or EX.")

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"#{self.number} {self.card_type.name_en}"


class Character(models.Model):
    """One of the 25 standard characters (rules §11)."""

    class Kingdom(models.TextChoices):
        WEI = "wei", _("Wei 魏")
        SHU = "shu", _("Shu 蜀")
        WU = "wu", _("Wu 吴")
        QUN = "qun", _("Qun 群")

    slug = models.SlugField(max_length=40, unique=True, help_text="The engine's character id.")
    name_en = models.CharField("English name", max_length=60)
    name_zh = models.CharField("Chinese name", max_length=20)
    kingdom = models.CharField(max_length=4, choices=Kingdom.choices)
    gender = models.CharField(max_length=1, choices=[("M", "Male"), ("F", "Female")])
    max_hp = models.PositiveSmallIntegerField()
    is_lord_choice = models.BooleanField(default=False,
                                         help_text="Always offered to the lord (§2.3).")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "slug"]

    @property
    def shown_name(self) -> str:
        """The character's name in the reader's language (Japanese: the kanji)."""
        from games.lib.text import say
        from sanguosha.engine.data import CHARACTERS

        ch = CHARACTERS.get(self.slug)
        return str(say(ch.name)) if ch else self.name_en

    def __str__(self) -> str:
        return f"{self.name_en} {self.name_zh}"

    def get_absolute_url(self) -> str:
        return reverse("sanguosha:character", args=[self.slug])


class Skill(models.Model):
    """A character skill (or a weapon ability that opens asks, with no character)."""

    slug = models.SlugField(max_length=40, unique=True, help_text="The engine's skill id.")
    name_en = models.CharField("English name", max_length=60)
    name_zh = models.CharField("Chinese name", max_length=20)
    character = models.ForeignKey(Character, null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="skills")
    is_lord_skill = models.BooleanField(default=False)
    is_compulsory = models.BooleanField(default=False)
    rules = models.TextField(blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "slug"]

    @property
    def shown_name(self) -> str:
        """The skill's name in the reader's language."""
        from games.lib.text import say
        from sanguosha.engine.data import SKILL_NAMES

        return str(say(SKILL_NAMES[self.slug][0])) if self.slug in SKILL_NAMES else self.name_en

    def __str__(self) -> str:
        return f"{self.name_en} {self.name_zh}"
