"""Kill Game data an admin edits (docs/design.md "Game apps"): maps with their zones, adjacency,
closure order, never-closing zones, central zone and default start zone; the item catalogue
with base prices; and a proxy of ``games.Match`` so the admin has a Kill Game match form.

A match never reads these tables while it runs: at creation
:func:`killgame.services.config_build` snapshots the map (§20.3 JSON form) and the prices
into the match config, so later edits only affect new matches.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from games.models import Match


class GameMap(models.Model):
    """A map (§20). Its zones, links and closure order live in :class:`Zone` and
    :class:`Edge`; ``check_error`` is empty when the last save passed the §20 checks."""

    slug = models.SlugField(max_length=40, unique=True,
                            help_text="Map id (snake_case), stored in every match config.")
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    is_active = models.BooleanField(default=True, help_text="Offered for new matches.")
    check_error = models.TextField(blank=True, editable=False,
                                   help_text="Why the map fails the §20 checks (empty = valid).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_valid(self) -> bool:
        return not self.check_error


class Zone(models.Model):
    """One zone. ``closes_at`` is its place in the closure order (1 closes first); empty
    for the three zones that never close. Exactly one zone is central and one is the
    default start zone (a lit zone). ``x``/``y`` (0–100) place it on the drawn map; leave
    them empty to let the page lay the map out from its links."""

    game_map = models.ForeignKey(GameMap, on_delete=models.CASCADE, related_name="zones")
    slug = models.SlugField(max_length=40)
    name = models.CharField(max_length=80)
    gloss = models.CharField(max_length=120, blank=True, help_text="English gloss.")
    closes_at = models.PositiveSmallIntegerField(null=True, blank=True,
                                                 help_text="1 = closes first; empty = never.")
    is_central = models.BooleanField(default=False)
    is_default_start = models.BooleanField(default=False)
    x = models.FloatField(null=True, blank=True)
    y = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game_map", "closes_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game_map", "slug"], name="kg_zone_unique_slug"),
            models.UniqueConstraint(fields=["game_map", "closes_at"],
                                    condition=Q(closes_at__isnull=False),
                                    name="kg_zone_unique_closure"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game_map.slug})"


class Edge(models.Model):
    """An undirected link between two zones of the same map."""

    game_map = models.ForeignKey(GameMap, on_delete=models.CASCADE, related_name="edges")
    a = models.ForeignKey(Zone, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Zone, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["game_map", "id"]
        constraints = [models.UniqueConstraint(fields=["a", "b"], name="kg_edge_unique")]

    def __str__(self) -> str:
        return f"{self.a.slug} – {self.b.slug}"


class Item(models.Model):
    """A catalogue entry (§7) with its base price (§7.5). Ids and categories are rules
    (the engine knows what each item does); the price and the shown name are data."""

    class Category(models.TextChoices):
        FIREARM = "firearm", "Firearm"
        KNIFE = "knife", "Knife"
        EXPLOSIVE = "explosive", "Explosive"
        ITEM = "item", "Item"
        OPTION = "option", "Option"

    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=80)
    name_it = models.CharField(max_length=80, blank=True)
    category = models.CharField(max_length=10, choices=Category.choices)
    price = models.PositiveIntegerField(help_text="Base price in coins (multiples of 10 keep "
                                                  "market percentages whole).")
    description = models.CharField(max_length=300, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.price})"


class KillGameMatch(Match):
    """``games.Match`` restricted to Kill Game, for the admin's Kill Game match form."""

    class Meta:
        proxy = True
        verbose_name = "Kill Game match"
        verbose_name_plural = "Kill Game matches"
