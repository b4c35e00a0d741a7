"""Admin for the Sanguosha catalogues: card types (rules text editable), physical cards,
characters with their skills inline."""

from __future__ import annotations

from django.contrib import admin

from sanguosha.models import Card, CardType, Character, Skill


class CardInline(admin.TabularInline):
    model = Card
    extra = 0
    fields = ("number", "suit", "rank", "edition")


@admin.register(CardType)
class CardTypeAdmin(admin.ModelAdmin):
    list_display = ("name_en", "name_zh", "slug", "kind", "attack_range", "copies")
    list_filter = ("kind",)
    search_fields = ("name_en", "name_zh", "slug")
    inlines = [CardInline]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("number", "card_type", "suit", "rank", "edition")
    list_filter = ("suit", "edition", "card_type__kind")
    list_select_related = ("card_type",)


class SkillInline(admin.StackedInline):
    model = Skill
    extra = 0
    fields = ("slug", "name_en", "name_zh", "is_lord_skill", "is_compulsory", "rules")


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name_en", "name_zh", "kingdom", "gender", "max_hp", "is_lord_choice")
    list_filter = ("kingdom", "gender", "is_lord_choice")
    search_fields = ("name_en", "name_zh", "slug")
    inlines = [SkillInline]


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    list_display = ("name_en", "name_zh", "slug", "character", "is_lord_skill", "is_compulsory")
    list_filter = ("is_lord_skill", "is_compulsory")
    search_fields = ("name_en", "name_zh", "slug")
