"""Kill Game admin: maps (zones with closure order, central and start zone, positions;
links) checked on save with the engine's map checks, the item catalogue with prices, and a
Kill Game match form with every §3 setting (defaults shown, validated by the engine's
``validate_config``), the map, the schedule (13:00 / 21:30 or CHECK mode), monsters and
bots. Matches are created through ``games.services.matches.match_create``, which snapshots
the map and prices into the config (``killgame.services.config_build``)."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_noop

from games.exceptions import ApplicationError
from games.forms import MatchCreateForm, config_field
from games.lib.text import say
from games.models import DirectorAction, Match
from games.rules import InvalidConfig
from games.services.matches import match_create
from killgame import engine, services
from killgame import forms as kg_forms
from killgame.models import Edge, GameMap, Item, KillGameMatch, Zone

MAP_SAVED_VALID = gettext_noop("The map %(name)s passes the map checks.")
MAP_SAVED_INVALID = gettext_noop("The map %(name)s is saved but fails the map checks, so new "
                                 "matches cannot use it until it is fixed: %(error)s")
ONLY_FORMING = gettext_noop("Only a forming match can change its settings.")
#: schema keys the match form shows as its own fields (not as cfg_ settings)
OWN_FIELDS = {"map_data", "min_players", "max_players", "timezone"}
PREFIX = "cfg_"


class ZoneInline(admin.TabularInline):
    model = Zone
    extra = 0
    fields = ["slug", "name", "gloss", "closes_at", "is_central", "is_default_start", "x", "y"]


class EdgeInline(admin.TabularInline):
    model = Edge
    extra = 1
    fields = ["a", "b"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in ("a", "b"):
            map_id = request.resolver_match.kwargs.get("object_id") if request.resolver_match else None
            kwargs["queryset"] = (Zone.objects.filter(game_map_id=map_id) if map_id
                                  else Zone.objects.none())
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(GameMap)
class GameMapAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_active", "zone_count", "valid"]
    readonly_fields = ["check_error"]
    inlines = [ZoneInline, EdgeInline]
    prepopulated_fields = {"slug": ["name"]}

    @admin.display(description="zones")
    def zone_count(self, obj: GameMap) -> int:
        return obj.zones.count()

    @admin.display(boolean=True, description="passes the map checks")
    def valid(self, obj: GameMap) -> bool:
        return obj.is_valid

    def save_related(self, request, form, formsets, change) -> None:
        """After the zones and links are saved, run the engine's map checks (connected,
        2–5 neighbours, closure never cuts the open region, three never-closing zones,
        central never closes, default start is lit) and say the result."""
        super().save_related(request, form, formsets, change)
        game_map = form.instance
        error = services.map_check(game_map)
        if error:
            messages.error(request, gettext(MAP_SAVED_INVALID) % {"name": repr(game_map.name),
                                                             "error": error})
        else:
            messages.success(request, gettext(MAP_SAVED_VALID) % {"name": repr(game_map.name)})


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "category", "price", "position"]
    list_editable = ["price"]
    list_filter = ["category"]
    readonly_fields = ["slug", "category"]

    def has_add_permission(self, request) -> bool:
        # ids and categories are rules: the engine knows what each item does
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _schema() -> list[Any]:
    return [f for f in engine.config_schema() if f.key not in OWN_FIELDS]


class _KillGameMatchFormBase(forms.ModelForm):
    """Every §3 setting as its own field (default shown in the help text), the map from the
    admin's map table, the schedule mode, monsters and bots."""

    class Meta:
        model = KillGameMatch
        fields = ["name", "min_players", "max_players", "timezone", "is_private", "starts_at",
                  "bots_enabled", "early_close"]
        labels = {"bots_enabled": "Bots play for absent players",
                  "early_close": "Close a phase early once everyone has checked in"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        prices = services.prices()
        current = dict(self.instance.config or {}) if self.instance.pk else {}
        for spec in _schema():
            field = self.fields[PREFIX + spec.key]
            if spec.key == "prices" and prices:
                field.initial = prices
                field.help_text = "Default: the item catalogue's prices."
            if spec.key in current:
                field.initial = current[spec.key]
        self.fields["min_players"].initial = engine.config.DEFAULTS["min_players"]
        self.fields["max_players"].initial = engine.config.DEFAULTS["max_players"]
        self.fields["timezone"].initial = engine.config.DEFAULTS["timezone"]
        # the same map and deadline fields as the lobby's new-match form
        self.fields[PREFIX + "map"] = kg_forms.map_field(current.get("map", "classic"))
        self.fields[PREFIX + "check_enabled"] = kg_forms.deadlines_field(
            bool(current.get("check_enabled")))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.instance.pk and self.instance.status != Match.Status.FORMING:
            raise forms.ValidationError(gettext(ONLY_FORMING))
        if self.errors:
            return data
        raw: dict[str, Any] = {}
        for spec in _schema():
            value = data.get(PREFIX + spec.key)
            if value is None and spec.type in ("json", "int"):
                value = spec.default
            if spec.type == "str" and value == "":
                value = spec.default
            raw[spec.key] = value
        raw["min_players"] = data.get("min_players")
        raw["max_players"] = data.get("max_players")
        raw["timezone"] = data.get("timezone") or engine.config.DEFAULTS["timezone"]
        try:
            config = engine.validate_config(services.config_build(raw))
        except InvalidConfig as exc:
            key = exc.field or ""
            target = (PREFIX + "map" if key in ("map", "map_data") else
                      key if key in ("min_players", "max_players", "timezone") else
                      PREFIX + key if PREFIX + key in self.fields else None)
            self.add_error(target, str(say(exc.reason)))
            return data
        data["config"] = config
        data["schedule"] = services.default_schedule(config)
        return data


#: the form class with one declared field per §3 setting (the admin needs them declared)
KillGameMatchForm = type(_KillGameMatchFormBase)(
    "KillGameMatchForm", (_KillGameMatchFormBase,),
    {"__module__": __name__, **{PREFIX + spec.key: config_field(spec) for spec in _schema()},
     # the lobby's "Messages between players", the same field (issue #10: one form)
     "press": copy.deepcopy(MatchCreateForm.base_fields["press"])})


@admin.register(KillGameMatch)
class KillGameMatchAdmin(admin.ModelAdmin):
    form = KillGameMatchForm
    list_display = ["name", "status", "map_name", "players", "created_at", "director_link"]
    list_filter = ["status"]
    readonly_fields = ["status", "director_link"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(game="killgame")

    def get_fieldsets(self, request, obj=None):
        schema = _schema()
        groups = {
            "Players and map": ["name", "min_players", "max_players", "cfg_map", "cfg_mode",
                                "cfg_team_count", "is_private", "starts_at", "bots_enabled",
                                "press"],
            "Schedule": ["cfg_check_enabled", "early_close", "timezone", "cfg_tactical_opens_at",
                         "cfg_action_opens_at"],
        }
        shown = {f for fields in groups.values() for f in fields}
        rest = [PREFIX + s.key for s in schema
                if PREFIX + s.key not in shown and not s.house_rule]
        house = [PREFIX + s.key for s in schema if PREFIX + s.key not in shown and s.house_rule]
        out = [(title, {"fields": fields}) for title, fields in groups.items()]
        out.append(("Match settings (each with its default)", {"fields": rest}))
        # the constants the rules fix: collapsed, changed only as a house rule
        out.append(("House rules (the rules fix these; change only by agreement)",
                    {"fields": house, "classes": ["collapse"]}))
        if obj is not None:
            out.insert(0, ("Status", {"fields": ["status", "director_link"]}))
        return out

    @admin.display(description="map")
    def map_name(self, obj: Match) -> str:
        return str((obj.config or {}).get("map", ""))

    @admin.display(description="players")
    def players(self, obj: Match) -> str:
        return f"{obj.seats.count()}/{obj.max_players}"

    @admin.display(description="director")
    def director_link(self, obj: Match) -> str:
        if not obj or not obj.pk:
            return ""
        return format_html('<a href="{}">Director\'s page (start, pause, close, state)</a>',
                           reverse("admin:games_match_change", args=[obj.pk]))

    def save_model(self, request, obj, form, change) -> None:
        data = form.cleaned_data
        if change:
            obj.config = data["config"]
            obj.schedule = data["schedule"]
            super().save_model(request, obj, form, change)
            DirectorAction.objects.create(match=obj, actor=request.user, action="edit",
                                          details={"fields": form.changed_data})
            return
        try:
            created = match_create(
                game="killgame", name=data["name"], created_by=request.user,
                config=data["config"], min_players=data.get("min_players"),
                max_players=data.get("max_players"), timezone=data.get("timezone") or None,
                schedule=data["schedule"], is_private=data.get("is_private", False),
                starts_at=data.get("starts_at"), bots_enabled=data.get("bots_enabled", False),
                early_close=data.get("early_close", True))
        except ApplicationError as exc:
            messages.error(request, exc.message)
            raise
        if data.get("press"):
            from press.services import press_settings_set

            press_settings_set(match=created, rules=data["press"])
        obj.pk = created.pk
        obj.refresh_from_db()
        DirectorAction.objects.create(match=created, actor=request.user, action="create",
                                      details={"config": created.config})
