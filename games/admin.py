"""The director's admin: matches with their seats, phases, full state and every diary entry;
actions (start, pause, resume, extend the deadline, close the phase now, end, replace or
remove a player) each call the service and so write a DirectorAction. Staff see everything
(``omniscient_view``), the only place outside post-game review that does.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime
from html import escape

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, Subquery
from django.db.models import TextField
from django.db.models.functions import MD5, Cast, Coalesce, JSONArray
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils import timezone
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.timezone import now as timezone_now

from games import registry, selectors
from games.exceptions import ApplicationError
from games.lib import htmlcache
from games.lib.audit import AuditedAdminMixin
from games.lib.dates import format_local
from games.lib.sqlonce import CompiledOnce
from games.models import (DiaryEntry, DirectorAction, Match, Notification, Phase, Seat,
                          SweepHeartbeat)
from games.services import director
from games.services.matches import match_create
from games.services.schedule import ScheduleError, validate_schedule


#: what only a forming match can change (read-only on the page of a match that formed;
#: ``starts_at`` starts a forming match by itself and means nothing once it has formed)
FORMING_ONLY = ("config", "min_players", "max_players", "starts_at")


class MatchForm(forms.ModelForm):
    """Create/configure a match; the config goes through the game's ``validate_config``."""

    game = forms.ChoiceField(choices=())
    config = forms.JSONField(required=False, initial=dict,
                             help_text="Leave empty for the game's defaults; unknown keys are refused.")
    schedule = forms.JSONField(required=False, initial=dict, help_text=Match._meta.get_field(
        "schedule").help_text)

    class Meta:
        model = Match
        fields = ["game", "name", "config", "min_players", "max_players", "timezone", "schedule",
                  "is_private", "starts_at", "bots_enabled", "director_note"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "game" in self.fields:  # read-only on an existing match's page (get_readonly_fields)
            self.fields["game"].choices = registry.choices() or [("", "no game registered")]
            if self.instance.pk:
                self.fields["game"].disabled = True
        schema = []
        slug = self.instance.game or (registry.choices()[0][0] if registry.choices() else None)
        if slug:
            try:
                schema = registry.get_rules(slug).config_schema()
            except registry.UnknownGame:
                schema = []
        if schema and "config" in self.fields:  # read-only once the match has formed
            self.fields["config"].help_text = "Settings (default): " + ", ".join(
                f"{f.key} ({f.default!r})" for f in schema)

    def clean(self):
        data = super().clean()
        slug = data.get("game") or self.instance.game
        try:
            engine = registry.get_rules(slug)
        except registry.UnknownGame as exc:
            raise forms.ValidationError(str(exc)) from None
        if "config" in self.fields:
            try:
                data["config"] = engine.validate_config(dict(data.get("config") or {}))
            except Exception as exc:  # noqa: BLE001 - InvalidConfig carries the reason
                self.add_error("config", getattr(exc, "reason", str(exc)))
        if data.get("schedule"):
            try:
                data["schedule"] = validate_schedule(data["schedule"])
            except ScheduleError as exc:
                self.add_error("schedule", str(exc))
        if self.instance.pk and self.instance.status != Match.Status.FORMING:
            for key in FORMING_ONLY:
                if key in self.fields and key in self.changed_data:
                    self.add_error(key, "Only a forming match can change this.")
        return data


def _when(moment, zone: str | None) -> str:
    return format_local(moment, zone) if moment is not None else "—"


def html_table(headers: list[str], rows) -> str:
    """A plain HTML table, each cell escaped as ``format_html`` would (safe strings as
    they are), but by the standard library's escape: ``format_html_join`` over a whole
    diary spent two thirds of the director's diary in Django's lazy-string checks."""
    def cell(value) -> str:
        return str(value) if isinstance(value, SafeData) else escape(str(value))

    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>"
                   for row in rows)
    return mark_safe(f"<table><tr>{head}</tr>{body}</table>")  # noqa: S308 - escaped above


def _link(url: str, text) -> SafeString:
    # SafeString, not mark_safe: its lazy-string wrapper was most of a seat row's cost
    return SafeString(f'<a href="{escape(url)}">{escape(str(text))}</a>')


def _seat_rows(match: Match) -> list:
    """Every seat of the match as plain rows (games.lib.pages.seat_rows, one query kept on
    the match for the page: the seat table and the kept parts' roster read the same)."""
    from games.lib.pages import seat_rows

    rows = match.__dict__.get("_director_seat_rows")
    if rows is None:
        rows = match.__dict__["_director_seat_rows"] = seat_rows(match)
    return rows


class _SeatShown:
    """A seat row with its columns by name (``SeatRow.fields`` holds every column)."""

    def __init__(self, row) -> None:
        from games.lib.pages import SEAT_COLUMNS

        self.__dict__.update(zip(SEAT_COLUMNS, row.fields))
        self.pk, self.username = row.pk, row.username


#: a row id no table holds: reversed once, then replaced by each row's own
_ID = 987654321987


def _url_for(name: str, args: list):
    """``reverse(name, args)`` once, as a function of the row id (a reverse per seat and
    per phase was a tenth of the director's page)."""
    url = reverse(name, args=args)
    return lambda pk: url.replace(str(_ID), str(int(pk)))


def seats_table(match: Match):
    """The seats with their director actions: a plain table, one query (an admin inline of
    30 seats rendered ~200 form fields through templates; seats change only through the
    director's actions, which log a DirectorAction)."""
    rows_in = _seat_rows(match)  # the rows the page keys use
    zone = timezone.get_current_timezone_name()  # the director's own, as the list shows
    # the table is a function of the seat rows (every column and the name) and the zone:
    # kept in this process under those, a reload with no seat changed renders nothing
    key = ("director-seats", match.pk, zone,
           tuple((row.fields, row.username) for row in rows_in))
    kept = htmlcache.local.get(key)
    if kept is None:
        kept = _seats_table(match, rows_in, zone)
        htmlcache.local.put(key, kept)
    return kept


def _seats_table(match: Match, rows_in: list, zone: str):
    seats = [_SeatShown(row) for row in rows_in]
    # the two links' addresses reversed once, each seat's id put in
    replace = _url_for("admin:games_match_seat", [match.pk, _ID, "replace"])
    remove = _url_for("admin:games_match_seat", [match.pk, _ID, "remove"])
    rows = [(seat.number if seat.number is not None else "—",
             seat.username if seat.user_id else "bot" if seat.is_bot else "—",
             "yes" if seat.is_bot else "", _when(seat.removed_at, zone),
             _when(seat.last_checkin_at, zone), _when(seat.next_nag_at, zone),
             SafeString(f'{_link(replace(seat.pk), "replace")} · '  # two escaped links
                        f'{_link(remove(seat.pk), "remove")}'))
            for seat in seats]
    if not rows:
        return "—"
    return html_table(["number", "player", "bot", "removed", "last check-in", "next reminder",
                       "director"], rows)


#: the phases table shows the latest phases (a long match has hundreds; the rest are one
#: link away) and reads only the columns it shows
PHASE_ROWS = 40
PHASE_COLUMNS = ("match", "number", "kind", "turn", "opens_at", "deadline_at", "awaited",
                 "closed_at", "close_failures", "quarantined_at")


_PHASE_ROWS = CompiledOnce(lambda match_id: Phase.objects.filter(match_id=match_id)
                           .order_by("-number")
                           .values_list("pk", *PHASE_COLUMNS[1:])[:PHASE_ROWS + 1])


def phases_table(match: Match):
    """The phases, newest first, each linking to its own admin page: one query."""
    # plain rows, not Phase instances with deferred fields; the SQL compiled once (the
    # cursor gives the awaited seats' JSON as text where the ORM would decode it)
    phases = [(*row[:6], json.loads(row[6]) if isinstance(row[6], str) else row[6], *row[7:])
              for row in _PHASE_ROWS.rows(match.pk)]
    zone = timezone.get_current_timezone_name()
    change = _url_for("admin:games_phase_change", [_ID])
    rows = [(_link(change(pk), f"#{number}"), kind, turn, _when(opens_at, zone),
             _when(deadline_at, zone), ", ".join(str(n) for n in awaited or ()),
             _when(closed_at, zone), close_failures, _when(quarantined_at, zone))
            for (pk, number, kind, turn, opens_at, deadline_at, awaited, closed_at,
                 close_failures, quarantined_at) in phases[:PHASE_ROWS]]
    if not rows:
        return "—"
    table = html_table(["number", "kind", "turn", "opens", "deadline", "awaited seats",
                        "closed", "close failures", "quarantined"], rows)
    if len(phases) <= PHASE_ROWS:
        return table
    every = reverse("admin:games_phase_changelist") + f"?match__id__exact={match.pk}"
    return format_html("{}<p>{} <a href=\"{}\">{}</a></p>", table,
                       f"The latest {PHASE_ROWS} phases.", every, "Every phase of this match")


#: what the match list shows of each match's open phase
OPEN_PHASE_COLUMNS = ("number", "kind", "deadline_at", "quarantined_at")


class MatchChangeList(ChangeList):
    """The match list in a fixed number of queries: each row's seat count and open phase
    come with the page (a count and an open phase queried per row made a 100-row page
    ~200 queries), and the JSON no column shows (the state, and the config, 5 KB a Kill
    Game match with its map) stays in the database: decoding it was the list's largest cost."""

    def get_queryset(self, request, exclude_parameters=None):
        open_phases = Phase.objects.filter(closed_at__isnull=True).order_by("-number")
        # the seat count as a subquery, not a join and GROUP BY: the page's count query
        # then drops it and counts the matches alone
        seats = (Seat.objects.filter(match=OuterRef("pk")).order_by()
                 .values("match").annotate(n=Count("pk")).values("n"))
        # the open phase's four shown columns as one subquery of the same query, a JSON
        # array (a prefetch built a hundred Phase objects, a fifth of the list's time; a
        # subquery per column cost four to build and run)
        open_phase = Subquery(open_phases.filter(match=OuterRef("pk"))
                              .values(row=JSONArray(*OPEN_PHASE_COLUMNS))[:1])
        return (super().get_queryset(request, exclude_parameters)
                .defer("state", "config", "schedule", "outcome")
                .annotate(seat_count=Coalesce(Subquery(seats), 0), open_phase_row=open_phase))


class GameListFilter(admin.SimpleListFilter):
    """The match list's "By game" filter with the registered games as its choices (their
    names): Django's filter of a plain field read them with a ``SELECT DISTINCT`` over
    every match on each load of the list. The same address (``?game__exact=<slug>``)."""

    title = "game"
    parameter_name = "game__exact"

    def lookups(self, request, model_admin):
        return registry.choices()

    def queryset(self, request, queryset):
        return queryset.filter(game=self.value()) if self.value() else queryset


#: the director's match page's match (MatchAdmin.get_object: the admin's queryset is the
#: default manager's), its state deferred and digested by the database
_CHANGE_MATCH = CompiledOnce(lambda pk: Match.objects.filter(pk=pk).defer("state")
                             .annotate(state_md5=MD5(Cast("state", TextField()))))


#: the director log on the match page shows the latest actions; the rest are one link away
DIRECTOR_LOG_ROWS = 50


@admin.register(Match)
class MatchAdmin(AuditedAdminMixin, admin.ModelAdmin):
    match_field = "pk"  # the full state and the diary of the match: an audit line each
    form = MatchForm
    list_display = ["name", "game", "status", "players", "open_phase", "needs_director",
                    "created"]
    list_filter = ["status", GameListFilter, "needs_director", "is_private"]
    search_fields = ["name", "seats__user__username"]
    # the list: rows rendered in Python (admin/games/match/change_list.html,
    # games/lib/adminlist.py), 50 a page (the filters and the search find the rest; a row
    # is most of the list's cost); the unfiltered total counted only when a filter is on
    # ("Show all" links to it), so an unfiltered page counts once
    list_per_page = 50
    show_full_result_count = False
    readonly_fields = ["status", "seed", "invite_code", "version", "started_at", "paused_at",
                       "finished_at", "outcome", "needs_director", "director_buttons",
                       "seat_list", "phase_list", "full_state", "diary", "director_log"]
    actions = ["action_start", "action_pause", "action_resume", "action_close_now",
               "action_extend", "action_end"]

    def get_fieldsets(self, request, obj=None):
        main = ["game", "name", "config", "min_players", "max_players", "timezone", "schedule",
                "is_private", "starts_at", "bots_enabled", "early_close"]
        if obj is None:
            return [(None, {"fields": main})]
        main[0] = "game_label"  # a match's game never changes: its name, shown
        return [("Director", {"fields": ["director_buttons", "status", "needs_director",
                                          "director_note"]}),
                ("Seats and phases", {"fields": ["seat_list", "phase_list"]}),
                (None, {"fields": main}),
                ("Lifecycle", {"fields": ["seed", "invite_code", "version", "started_at",
                                          "paused_at", "finished_at", "outcome"]}),
                ("Everything (director only)", {"fields": ["full_state", "diary",
                                                           "director_log"]})]

    def get_changelist(self, request, **kwargs):
        return MatchChangeList

    @admin.display(description="Game")
    def game_label(self, obj: Match) -> str:
        try:
            return registry.get_game(obj.game).name
        except registry.UnknownGame:
            return obj.game

    def get_readonly_fields(self, request, obj=None):
        """Shown, not edited, once the match has formed: the settings only a forming match
        can change (the form refused them anyway; a read-only value is also a tenth of the
        widgets the page renders)."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:  # a match's game never changes: its name, not a disabled select
            fields += [f for f in ("game", "game_label") if f not in fields]
        if obj is not None and obj.status != Match.Status.FORMING:
            fields += [f for f in FORMING_ONLY if f not in fields]
        return fields

    def get_object(self, request, object_id, from_field=None):
        """The match for its page with the state deferred and its digest computed by the
        database (``state_md5``): the full state is read and decoded only when the kept
        copy of what it shows is missing (:meth:`full_state`)."""
        memo = request.__dict__.setdefault("_pbw_admin_match", {})  # the audit asks first
        if (object_id, from_field) in memo:
            return memo[(object_id, from_field)]
        queryset = (self.get_queryset(request).defer("state")
                    .annotate(state_md5=MD5(Cast("state", TextField()))))
        field = Match._meta.pk if from_field is None else Match._meta.get_field(from_field)
        try:
            value = field.to_python(object_id)
            if from_field is None and isinstance(value, int):  # the page's case: SQL compiled once
                found = next(iter(_CHANGE_MATCH.objects(Match, value)), None)
            else:
                found = queryset.get(**{field.name: value})
        except (Match.DoesNotExist, ValidationError, ValueError, OverflowError):
            found = None
        if request.method == "GET":  # a POST changes it between the two asks
            memo[(object_id, from_field)] = found
        return found

    # the two heavy pages go without the admin's side bar of every app and model (~7 ms
    # of template a page); the breadcrumbs and the admin's home still lead everywhere
    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {**(extra_context or {}),
                                                 "is_nav_sidebar_enabled": False})

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return super().change_view(request, object_id, form_url,
                                   {**(extra_context or {}), "is_nav_sidebar_enabled": False})

    @admin.display(description="players")
    def players(self, match: Match) -> str:
        count = getattr(match, "seat_count", None)  # MatchChangeList's annotation
        return f"{match.seats.count() if count is None else count}/{match.max_players}"

    @admin.display(description="created", ordering="created_at")
    def created(self, match: Match) -> str:
        """In the director's own zone, as the open phase's deadline beside it (Django's
        localized date format spent a tenth of the list in its translated month names)."""
        return format_local(match.created_at, timezone.get_current_timezone_name())

    @admin.display(description="open phase")
    def open_phase(self, match: Match) -> str:
        if hasattr(match, "open_phase_row"):  # MatchChangeList's annotation: the columns
            row = match.open_phase_row
            if isinstance(row, str):
                row = json.loads(row)
            if not row:
                return "—"
            number, kind, deadline, quarantined = row
            deadline = datetime.fromisoformat(deadline) if deadline else None
        else:
            phase = selectors.current_phase(match)
            if phase is None:
                return "—"
            number, kind = phase.number, phase.kind
            deadline, quarantined = phase.deadline_at, phase.quarantined_at
        flag = " QUARANTINED" if quarantined else ""
        # in the director's own zone (activated per request, accounts/middleware.py), as
        # every player page shows times in its reader's
        zone = timezone.get_current_timezone_name()
        return f"#{number} {kind} until {format_local(deadline, zone)}{flag}"

    @admin.display(description="actions")
    def director_buttons(self, match: Match):
        if not match.pk:
            return ""
        links = [(reverse("admin:games_match_do", args=[match.pk, name]), label)
                 for name, label in (("start", "Start"), ("pause", "Pause"), ("resume", "Resume"),
                                     ("extend", "Extend deadline"), ("close_now", "Close phase now"),
                                     ("end", "End match"))]
        return format_html('<div class="director-actions">{}</div>', format_html_join(
            "", '<a class="button" href="{}">{}</a>', links))  # wrapped rows at a phone width

    @admin.display(description="seats")
    def seat_list(self, match: Match):
        return seats_table(match) if match.pk else "—"

    @admin.display(description="phases")
    def phase_list(self, match: Match):
        return phases_table(match) if match.pk else "—"

    @staticmethod
    def _kept(match: Match, name: str, parts: list, render) -> SafeString:
        """The director page's heavy parts (the whole diary, the full state) kept in the
        HTML cache (games/lib/htmlcache.py) under a key that holds what they show — the
        match (id, creation time), ``parts`` (the diary's last seq, a digest of the
        state), the roster (names), the code version, the language and time zone — so a
        reload shows them without rebuilding them, and any change shows at once (a new
        key). Only this admin page (staff with the match's change permission) reads them."""
        rows = _seat_rows(match)
        prefix = ":".join([htmlcache.code_version(), str(match.pk),
                           f"{match.created_at.timestamp():.6f}" if match.created_at else "-",
                           "director", htmlcache.roster_digest(rows)])
        key = htmlcache.fragment_key(prefix, name, parts)
        html = htmlcache.big_local.get(key)  # this process read it already: same key, same HTML
        if html is None:
            html = htmlcache.cache_get(key)
            if html is None:
                html = str(render())
                htmlcache.cache_set(key, html)
            htmlcache.big_local.put(key, html)
        return mark_safe(html)  # noqa: S308 - rendered escaped (html_table, format_html)

    @admin.display(description="full state (omniscient view)")
    def full_state(self, match: Match):
        # what it shows is a function of the state (and the engine, in the code version):
        # its digest is the key (from the database with get_object, else computed here)
        digest = getattr(match, "state_md5", False)
        if digest is False:
            digest = (hashlib.sha1(json.dumps(match.state, sort_keys=True, default=str)
                                   .encode()).hexdigest() if match.state is not None else None)
        if digest is None:
            return "—"
        return self._kept(match, "director-state", [digest],
                          lambda: self._full_state(match))

    @staticmethod
    def _full_state(match: Match) -> str:
        try:
            view = selectors.player_view_for(match, None, omniscient=True)
        except Exception as exc:  # noqa: BLE001 - show the raw state when the engine is gone
            view = {"engine_error": repr(exc)}
        return format_html("<pre style='max-height:30em;overflow:auto'>{}</pre>"
                           "<details><summary>raw state</summary><pre>{}</pre></details>",
                           json.dumps(view, indent=2, sort_keys=True, default=str),
                           json.dumps(match.state, indent=2, sort_keys=True, default=str))

    @admin.display(description="diary (every entry)")
    def diary(self, match: Match):
        # the diary only grows, each row numbered from Match.diary_seq: its last seq (with
        # the names, in the roster digest) says what it shows
        return self._kept(match, "director-diary", [match.diary_seq],
                          lambda: self._diary(match))

    @staticmethod
    def _diary(match: Match):
        lines = selectors.diary_for_seat(match, None, omniscient=True)
        # who saw each private line: one query for the whole diary, not one per line
        audience = dict(DiaryEntry.objects.filter(match=match, is_public=False)
                        .values_list("seq", "audience"))
        rows = [(line.seq, line.turn, line.phase_kind, line.kind,
                 "everyone" if line.is_public else audience.get(line.seq, "").strip(","),
                 line.text)
                for line in lines]
        if not rows:
            return "—"
        return html_table(["seq", "turn", "phase", "kind", "seen by seats", "text"], rows)

    @admin.display(description="director log")
    def director_log(self, match: Match):
        actions = director.director_log_rows(match, limit=DIRECTOR_LOG_ROWS + 1)
        rows = [(created_at.strftime("%Y-%m-%d %H:%M:%S"), actor or "system", action,
                 json.dumps(details))
                for created_at, actor, action, details in actions[:DIRECTOR_LOG_ROWS]]
        if not rows:
            return "—"
        table = html_table(["when", "who", "action", "details"], rows)
        if len(actions) <= DIRECTOR_LOG_ROWS:
            return table
        every = reverse("admin:games_directoraction_changelist") + f"?match__id__exact={match.pk}"
        return format_html("{}<p>{} <a href=\"{}\">{}</a></p>", table,
                           f"The latest {DIRECTOR_LOG_ROWS} actions.", every,
                           "Every action on this match")

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            DirectorAction.objects.create(match=obj, actor=request.user, action="edit",
                                          details={"fields": form.changed_data})
            return
        data = form.cleaned_data
        try:
            created = match_create(
                game=data["game"], name=data["name"], created_by=request.user,
                config=data.get("config"), min_players=data.get("min_players"),
                max_players=data.get("max_players"), timezone=data.get("timezone") or None,
                schedule=data.get("schedule") or None, is_private=data.get("is_private", False),
                starts_at=data.get("starts_at"), bots_enabled=data.get("bots_enabled", False))
        except ApplicationError as exc:
            messages.error(request, exc.message)
            raise
        obj.pk = created.pk
        obj.refresh_from_db()
        DirectorAction.objects.create(match=created, actor=request.user, action="create",
                                      details={"config": created.config})

    # --- bulk actions -----------------------------------------------------------------

    def _each(self, request, queryset, fn, done: str):
        ok = 0
        for match in queryset:
            try:
                fn(match)
                ok += 1
            except ApplicationError as exc:
                self.message_user(request, f"{match}: {exc.message}", messages.ERROR)
        if ok:
            self.message_user(request, f"{done}: {ok} match(es).", messages.SUCCESS)

    @admin.action(description="Start the selected matches")
    def action_start(self, request, queryset):
        self._each(request, queryset,
                   lambda m: director.match_start(match=m, actor=request.user), "Started")

    @admin.action(description="Pause the selected matches")
    def action_pause(self, request, queryset):
        self._each(request, queryset,
                   lambda m: director.match_pause(match=m, actor=request.user), "Paused")

    @admin.action(description="Resume the selected matches")
    def action_resume(self, request, queryset):
        self._each(request, queryset,
                   lambda m: director.match_resume(match=m, actor=request.user), "Resumed")

    @admin.action(description="Close the open phase now")
    def action_close_now(self, request, queryset):
        def close(match):
            phase = selectors.current_phase(match)
            if phase is None:
                raise ApplicationError("No open phase.")
            director.phase_close_now(phase=phase, actor=request.user)
        self._each(request, queryset, close, "Closed the phase of")

    @admin.action(description="Extend the open deadline…")
    def action_extend(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Extend one match at a time.", messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:games_match_do",
                                            args=[queryset.get().pk, "extend"]))

    @admin.action(description="End the selected matches…")
    def action_end(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "End one match at a time.", messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:games_match_do", args=[queryset.get().pk, "end"]))

    # --- per-match director pages ------------------------------------------------------

    def get_urls(self):
        extra = [
            path("<int:match_id>/do/<str:action>/", self.admin_site.admin_view(self.do_view),
                 name="games_match_do"),
            path("<int:match_id>/seat/<int:seat_id>/<str:action>/",
                 self.admin_site.admin_view(self.seat_view), name="games_match_seat"),
        ]
        return extra + super().get_urls()

    def _back(self, match_id: int):
        return HttpResponseRedirect(reverse("admin:games_match_change", args=[match_id]))

    def do_view(self, request: HttpRequest, match_id: int, action: str):
        match = get_object_or_404(Match, pk=match_id)
        if not self.has_change_permission(request, match):
            return self._back(match_id)
        form = None
        if action == "extend":
            form = ExtendForm(request.POST or None, initial={"token": uuid.uuid4().hex})
        elif action == "end":
            form = EndForm(request.POST or None)
        elif action not in {"start", "pause", "resume", "close_now"}:
            messages.error(request, "Unknown action.")
            return self._back(match_id)
        if request.method == "POST" and (form is None or form.is_valid()):
            try:
                self._apply(request, match, action, form)
            except ApplicationError as exc:
                messages.error(request, exc.message)
                if form is None:
                    return self._back(match_id)
            else:
                return self._back(match_id)
        phase = selectors.current_phase(match)
        return TemplateResponse(request, "admin/games/match/director_action.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "match": match,
            "action": action, "form": form, "phase": phase,
            "deadline": format_local(phase.deadline_at if phase else None,
                                     timezone.get_current_timezone_name()),
            "title": f"{action.replace('_', ' ').capitalize()}: {match.name}"})

    def _apply(self, request, match: Match, action: str, form) -> None:
        actor = request.user
        if action == "start":
            director.match_start(match=match, actor=actor)
        elif action == "pause":
            director.match_pause(match=match, actor=actor)
        elif action == "resume":
            director.match_resume(match=match, actor=actor)
        elif action == "end":
            director.match_end(match=match, actor=actor, reason=form.cleaned_data["reason"])
        else:
            phase = selectors.current_phase(match)
            if phase is None:
                raise ApplicationError("There is no open phase.")
            if action == "close_now":
                director.phase_close_now(phase=phase, actor=actor)
            else:
                applied = director.phase_extend(phase=phase, hours=form.cleaned_data["hours"],
                                                actor=actor, token=form.cleaned_data["token"])
                if not applied:
                    messages.info(request, "That extension was already applied (double submit).")
                    return
        messages.success(request, f"{action.replace('_', ' ').capitalize()}: done.")

    def seat_view(self, request: HttpRequest, match_id: int, seat_id: int, action: str):
        seat = get_object_or_404(Seat, pk=seat_id, match_id=match_id)
        if not self.has_change_permission(request, seat.match) or action not in {"replace", "remove"}:
            return self._back(match_id)
        form = ReplaceForm(request.POST or None) if action == "replace" else None
        if request.method == "POST" and (form is None or form.is_valid()):
            try:
                if action == "remove":
                    director.seat_remove(seat=seat, actor=request.user)
                else:
                    data = form.cleaned_data
                    director.seat_replace(seat=seat, user=data.get("user"),
                                          bot=data.get("bot", False), actor=request.user)
            except ApplicationError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, f"Seat {seat.number}: {action} done.")
                return self._back(match_id)
        return TemplateResponse(request, "admin/games/match/director_action.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "match": seat.match, "action": f"{action} seat {seat.number} ({seat})", "form": form,
            "title": f"{action.capitalize()} seat {seat.number}: {seat.match.name}"})


class ExtendForm(forms.Form):
    hours = forms.FloatField(min_value=0.1, help_text="At most 48 hours per extension.")
    token = forms.CharField(widget=forms.HiddenInput)

    def clean_hours(self):
        from django.conf import settings

        hours = self.cleaned_data["hours"]
        if hours > settings.MAX_EXTEND_HOURS:
            raise forms.ValidationError(f"At most {settings.MAX_EXTEND_HOURS} hours per extension.")
        return hours


class EndForm(forms.Form):
    reason = forms.CharField(max_length=300)


class ReplaceForm(forms.Form):
    user = forms.ModelChoiceField(queryset=get_user_model().objects.filter(is_active=True),
                                  required=False)
    bot = forms.BooleanField(required=False, help_text="Give the seat to the game's bot.")

    def clean(self):
        data = super().clean()
        if bool(data.get("user")) == bool(data.get("bot")):
            raise forms.ValidationError("Choose a user or the bot (one of them).")
        return data


@admin.register(Phase)
class PhaseAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "kind", "deadline_at", "closed_at", "close_failures",
                    "quarantined_at"]
    list_filter = ["kind", ("quarantined_at", admin.EmptyFieldListFilter),
                   ("closed_at", admin.EmptyFieldListFilter)]
    readonly_fields = [f.name for f in Phase._meta.fields]
    search_fields = ["match__name"]

    def has_add_permission(self, request):
        return False


@admin.register(DiaryEntry)
class DiaryEntryAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["match", "seq", "turn", "phase_kind", "kind", "is_public", "audience",
                    "created_at"]
    list_filter = ["is_public", "kind"]
    search_fields = ["match__name", "kind"]
    readonly_fields = [f.name for f in DiaryEntry._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """The outbox: ``failed`` rows (refused addresses, or still failing after
    ``EMAIL_RETRY_HOURS``) are what the director looks at; "Send again" requeues them."""

    list_display = ["recipient", "kind", "match", "created_at", "sent_at", "failed_at",
                    "held_at", "attempts", "next_attempt_at", "error"]
    list_filter = ["kind", ("sent_at", admin.EmptyFieldListFilter),
                   ("failed_at", admin.EmptyFieldListFilter),
                   ("held_at", admin.EmptyFieldListFilter)]
    search_fields = ["recipient__username", "recipient__email", "error"]
    readonly_fields = [f.name for f in Notification._meta.fields]
    actions = ["resend", "release_held", "drop_held"]

    @admin.action(description="Release held emails (send them)")
    def release_held(self, request, queryset):
        from games.services.mailhold import mail_release

        done = mail_release(ids=queryset.values_list("pk", flat=True), actor=request.user)
        self.message_user(request, f"{done} held email(s) released.")

    @admin.action(description="Drop held emails (close them unsent)")
    def drop_held(self, request, queryset):
        from games.services.mailhold import mail_drop

        done = mail_drop(ids=queryset.values_list("pk", flat=True), actor=request.user)
        self.message_user(request, f"{done} held email(s) dropped.")

    @admin.action(description="Send again")
    def resend(self, request, queryset):
        from django.utils.timezone import now as timezone_now

        from games.lib.oncommit import enqueue

        ids = list(queryset.values_list("pk", flat=True))
        Notification.objects.filter(pk__in=ids).update(
            sent_at=None, failed_at=None, claimed_until=None, next_attempt_at=timezone_now(),
            error="")
        if ids:
            enqueue("notifications_send", ids)
        self.message_user(request, f"{len(ids)} queued.")


@admin.register(DirectorAction)
class DirectorActionAdmin(admin.ModelAdmin):
    list_display = ["created_at", "match", "actor", "action", "details"]
    list_filter = ["action"]
    readonly_fields = [f.name for f in DirectorAction._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(SweepHeartbeat)
class SweepHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["id", "last_run_at", "age"]
    readonly_fields = ["id", "last_run_at"]

    @admin.display(description="seconds ago")
    def age(self, beat):
        return int((timezone_now() - beat.last_run_at).total_seconds()) if beat.last_run_at else "—"
