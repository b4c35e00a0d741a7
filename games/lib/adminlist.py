"""An admin change list's rows rendered in Python, one string per row.

Django's ``{% result_list %}`` builds every cell through ``lookup_field``,
``display_for_field`` and ``format_html`` (lazy strings checked at every step), renders
the action checkbox of each row through a widget template, reverses each row's URL and
re-parses it for the preserved filters, then loops over every cell again in
``change_list_results.html``: on the match list (100 rows × 8 columns) that was most of
the page's 50–90 ms. Here each column's way of showing a value is chosen once per page
(its field, its choices, the yes/no icons, the empty value) and each row is one joined
string: the same markup, classes and links as Django's (the first column links to the
row's change page with the list's filters kept, the checkbox as Django's action
checkbox), so the admin's CSS and JavaScript (select all, actions) work unchanged.

Used by ``admin/games/match/change_list.html`` through ``{% fast_result_list cl %}``
(``games/templatetags/admin_fast.py``). A column of a kind not handled here (a field
rendered as a link, a list_editable form) falls back to Django's own cell.
"""

from __future__ import annotations

from html import escape
from typing import Any, Callable

from django.contrib.admin.templatetags.admin_list import (_boolean_icon, items_for_result,
                                                          result_headers,
                                                          result_hidden_fields, ResultList)
from django.contrib.admin.templatetags.admin_urls import add_preserved_filters
from django.contrib.admin.utils import display_for_value
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist
from django.db import models
from django.utils import formats, timezone
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import gettext as _django_gettext

#: a pk no table holds, reversed once and replaced by each row's own
_SENTINEL = 987654321987


def _text(value: Any) -> str:
    return str(value) if isinstance(value, SafeData) else escape(str(value))


def _cell_renderer(cl: Any, name: Any, index: int) -> Callable[[Any], str] | None:
    """How one column shows a row's value (the HTML inside its cell), or None for
    Django's own cell."""
    admin = cl.model_admin
    empty = admin.get_empty_value_display()
    if callable(name) or not isinstance(name, str):
        return None
    try:
        field = cl.lookup_opts.get_field(name)
    except FieldDoesNotExist:
        attr = getattr(admin, name, None)
        if attr is None or not callable(attr) or getattr(attr, "boolean", False):
            return None
        own_empty = getattr(attr, "empty_value_display", empty)

        def call(obj: Any) -> str:
            value = attr(obj)
            if isinstance(value, str) and not value.strip():
                value = ""
            return _text(display_for_value(value, own_empty))
        return call
    if field.is_relation or isinstance(field, (models.FileField, models.URLField,
                                               models.JSONField)):
        return None
    attname = field.attname
    if getattr(field, "flatchoices", None):
        try:
            labels = {k: _text(v) for k, v in dict(field.flatchoices).items()}
        except TypeError:
            return None
        shown_empty = _text(empty)
        return lambda obj: labels.get(getattr(obj, attname), shown_empty)
    if isinstance(field, models.BooleanField):
        icons = {v: str(_boolean_icon(v)) for v in (True, False, None)}
        return lambda obj: icons[getattr(obj, attname)]
    shown_empty = _text(empty)
    if isinstance(field, models.DateTimeField):
        def when(obj: Any) -> str:
            value = getattr(obj, attname)
            if value in field.empty_values:
                return shown_empty
            return _text(formats.localize(timezone.template_localtime(value)))
        return when
    if isinstance(field, (models.DateField, models.TimeField, models.DecimalField,
                          models.IntegerField, models.FloatField)):
        return None  # number and date formats: Django's own
    def plain(obj: Any) -> str:
        value = getattr(obj, attname)
        if value in field.empty_values or (isinstance(value, str) and not value.strip()):
            return shown_empty
        return _text(value)
    return plain


def _classes(cl: Any, name: Any, index: int) -> str:
    if name == "action_checkbox":
        return "action-checkbox"
    try:
        field = cl.lookup_opts.get_field(name) if isinstance(name, str) else None
    except FieldDoesNotExist:
        field = None
    extra = " nowrap" if isinstance(field, (models.DateField, models.TimeField,
                                            models.ForeignKey)) else ""
    coerced = name if not callable(name) else (
        "lambda" + str(index) if name.__name__ == "<lambda>" else name.__name__)
    return f"field-{coerced}{extra}"


def fast_rows(cl: Any) -> list[ResultList]:
    """Every row of the page as one safe string (a one-item ``ResultList``), the same
    cells Django's ``items_for_result`` gives."""
    if getattr(cl, "formset", None) or cl.is_popup or cl.to_field:
        return [ResultList(None, items_for_result(cl, res, None)) for res in cl.result_list]
    links = cl.list_display_links
    columns = []
    first = True
    for index, name in enumerate(cl.list_display):  # as items_for_result's link_in_col
        linked = links is not None and ((first and not links) or name in links)
        tag = "td"
        if linked:
            tag, first = ("th" if first else "td"), False
        if name == "action_checkbox":
            columns.append(("checkbox", None, _classes(cl, name, index), tag, linked))
            continue
        columns.append(("cell", _cell_renderer(cl, name, index), _classes(cl, name, index),
                        tag, linked))
    if any(kind == "cell" and render is None for kind, render, *_ in columns):
        return [ResultList(None, items_for_result(cl, res, None)) for res in cl.result_list]
    # the change page's URL with the list's filters, once: each row puts in its own pk
    template = add_preserved_filters({"preserved_filters": cl.preserved_filters,
                                      "opts": cl.opts}, cl.url_for_result(_stub(cl, _SENTINEL)))
    # Django's own sentence, from the admin's catalogue (a name makemessages does not
    # extract: it is not this project's to translate)
    select = _django_gettext("Select this object for an action - {}")
    rows = []
    for obj in cl.result_list:
        pk = escape(str(obj.pk))
        cells = []
        for kind, render, classes, tag, linked in columns:
            if kind == "checkbox":
                label = escape(select.format(str(obj)))
                inner = (f'<input type="checkbox" name="_selected_action" value="{pk}" '
                         f'class="action-select" aria-label="{label}">')
            else:
                try:
                    inner = render(obj)
                except ObjectDoesNotExist:
                    inner = _text(cl.model_admin.get_empty_value_display())
            if linked:
                url = template.replace(str(_SENTINEL), str(obj.pk))
                inner = f'<a href="{escape(url)}">{inner}</a>'
            cells.append(f'<{tag} class="{classes}">{inner}</{tag}>')
        rows.append(ResultList(None, [mark_safe("".join(cells))]))  # noqa: S308 - escaped
    return rows


def _stub(cl: Any, pk: Any) -> Any:
    obj = cl.model()
    obj.pk = pk
    return obj


def fast_result_list(cl: Any) -> dict[str, Any]:
    """``result_list``'s context with :func:`fast_rows`."""
    headers = list(result_headers(cl))
    return {
        "cl": cl,
        "result_hidden_fields": list(result_hidden_fields(cl)),
        "result_headers": headers,
        "num_sorted_fields": sum(1 for h in headers if h["sortable"] and h["sorted"]),
        "results": fast_rows(cl),
    }

