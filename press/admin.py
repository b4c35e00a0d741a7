"""The director's press desk in the admin: each match's press settings, every message
(hide / show again, logged in the director's log), and the reports with the conversation
around the reported message."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join
from django.utils.timezone import now as timezone_now

from games.exceptions import ApplicationError
from games.lib.audit import AuditedAdminMixin
from press import services
from press.models import MatchPress, Message, Report

CONTEXT_AROUND = 10


@admin.register(MatchPress)
class MatchPressAdmin(admin.ModelAdmin):
    list_display = ["match", "rules", "dead", "spectators_read_public", "archive_for_spectators"]
    list_filter = ["rules", "dead"]
    autocomplete_fields = ["match"]


def _hide(modeladmin, request, messages_qs, hide: bool) -> None:
    done = 0
    for message in messages_qs:
        try:
            services.message_hide(match=message.match, actor=request.user,
                                  message_id=message.pk, hide=hide)
            done += 1
        except ApplicationError as exc:
            modeladmin.message_user(request, f"#{message.pk}: {exc.message}", messages.ERROR)
    if done:
        modeladmin.message_user(request, f"{'Hidden' if hide else 'Shown again'}: {done} "
                                         f"message(s).", messages.SUCCESS)


def conversation_html(message: Message):
    """The messages of the same channel and audience around ``message`` (escaped)."""
    base = Message.objects.filter(match_id=message.match_id, channel=message.channel,
                                  audience=message.audience)
    before = list(base.filter(id__lt=message.pk).order_by("-id")[:CONTEXT_AROUND])
    after = list(base.filter(id__gt=message.pk).order_by("id")[:CONTEXT_AROUND])
    rows = [*reversed(before), message, *after]
    return format_html(
        '<ol style="margin:0;padding-left:1.2em">{}</ol>',
        format_html_join("", '<li style="{}"><b>{}</b> (seat {}, T{} {}){}: '
                             '<span style="white-space:pre-wrap">{}</span></li>',
                         (("background:#fff3cd" if m.pk == message.pk else "",
                           m.author_name, m.from_seat if m.from_seat is not None else "—",
                           m.turn, m.phase_kind, " [hidden]" if m.is_hidden else "", m.text)
                          for m in rows)))


@admin.register(Message)
class MessageAdmin(AuditedAdminMixin, admin.ModelAdmin):
    audit_what = "admin-press"  # private conversations: an audit line each
    list_display = ["id", "match", "channel", "author_name", "from_seat", "short_text",
                    "turn", "hidden_at", "created_at"]
    list_filter = ["channel", ("hidden_at", admin.EmptyFieldListFilter)]
    search_fields = ["text", "author_name", "match__name"]
    readonly_fields = ["match", "channel", "audience", "from_seat", "author", "author_name",
                       "phase", "turn", "phase_kind", "text", "hidden_at", "hidden_by",
                       "created_at", "conversation"]
    exclude = []
    actions = ["action_hide", "action_show"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="text")
    def short_text(self, obj: Message) -> str:
        return obj.text if len(obj.text) <= 80 else obj.text[:79] + "…"

    @admin.display(description="conversation")
    def conversation(self, obj: Message):
        return conversation_html(obj)

    @admin.action(description="Hide the selected messages (logged)")
    def action_hide(self, request, queryset):
        _hide(self, request, queryset.select_related("match"), True)

    @admin.action(description="Show the selected messages again (logged)")
    def action_show(self, request, queryset):
        _hide(self, request, queryset.select_related("match"), False)


@admin.register(Report)
class ReportAdmin(AuditedAdminMixin, admin.ModelAdmin):
    audit_what = "admin-press"
    match_field = "message.match_id"
    list_display = ["id", "match", "reported_text", "author", "reporter", "reason",
                    "created_at", "resolved_at"]
    list_filter = [("resolved_at", admin.EmptyFieldListFilter)]
    list_select_related = ["message__match", "reporter"]
    readonly_fields = ["message", "reporter", "reason", "created_at", "resolved_at",
                       "conversation"]
    actions = ["action_hide", "action_resolve"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="match")
    def match(self, obj: Report):
        return obj.message.match

    @admin.display(description="message")
    def reported_text(self, obj: Report) -> str:
        text = obj.message.text
        return text if len(text) <= 80 else text[:79] + "…"

    @admin.display(description="written by")
    def author(self, obj: Report) -> str:
        return obj.message.author_name

    @admin.display(description="conversation")
    def conversation(self, obj: Report):
        return conversation_html(obj.message)

    @admin.action(description="Hide the reported messages (logged)")
    def action_hide(self, request, queryset):
        _hide(self, request, Message.objects.filter(
            pk__in=queryset.values("message_id")).select_related("match"), True)

    @admin.action(description="Mark as resolved (keep the message)")
    def action_resolve(self, request, queryset):
        n = queryset.filter(resolved_at__isnull=True).update(resolved_at=timezone_now())
        self.message_user(request, f"Resolved: {n} report(s).", messages.SUCCESS)
