"""An admin change form's fieldsets rendered in Python, one string per fieldset.

Django's ``admin/includes/fieldset.html`` walks every line and field through a dozen
``{% if %}`` and lookups (``line.fields|length`` four times a field, the errors of read-only
fields, the help text's hidden flag): on the director's match page (18 fields in five
fieldsets, most of them read-only) that template machinery was a third of the page. Here
each line of one field is written directly, with the same markup, classes and ids as
Django's template (so the admin's CSS and JavaScript work unchanged); every value still
comes from Django's own objects — ``AdminReadonlyField.contents()`` and ``label_tag()``,
the bound field's widget, its errors — so what a field shows is unchanged.

Used by ``admin/games/match/change_form.html`` through ``{% fast_fieldset %}``
(``games/templatetags/admin_fast.py``). A fieldset with a line of several fields, or a
collapsible one, is left to Django's template (:func:`render_fieldset` returns ``None``).
"""

from __future__ import annotations

from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe


def _field_html(line: Any, field: Any) -> str:
    """One line holding one field, as ``fieldset.html`` writes it."""
    parts: list[str] = []
    classes = "form-row"
    if not line.has_visible_field:
        classes += " hidden"
    if field.is_readonly:
        # a read-only field has no errors (Fieldline.errors skips read-only fields)
        name = field.field["name"]
        if name:
            classes += f" field-{conditional_escape(name)}"
        parts.append(f'<div class="{classes}"><div><div class="flex-container">')
        parts.append(str(field.label_tag()))
        parts.append(f'<div class="readonly">{conditional_escape(field.contents())}</div></div>')
        help_text = field.field["help_text"]
        if help_text:
            hidden = " hidden" if field.field.get("is_hidden") else ""
            parts.append(f'<div class="help{hidden}"><div>{help_text}</div></div>')
        parts.append("</div></div>")
        return "".join(parts)
    bound = field.field  # a BoundField
    # an empty error list still renders its template: asked only when there are errors
    errors = str(line.errors()) if bound.errors else ""
    if errors:
        classes = classes.replace("form-row", "form-row errors", 1)
    if bound.name:
        classes += f" field-{conditional_escape(bound.name)}"
    parts.append(f'<div class="{classes}">{errors}<div>')
    if field.is_checkbox:
        parts.append(f'<div class="flex-container checkbox-row">{bound}{field.label_tag()}</div>')
    else:
        parts.append(f'<div class="flex-container">{field.label_tag()}{bound}</div>')
    if bound.help_text:
        hidden = " hidden" if bound.is_hidden else ""
        id_for_label = bound.id_for_label
        ident = f' id="{conditional_escape(id_for_label)}_helptext"' if id_for_label else ""
        parts.append(f'<div class="help{hidden}"{ident}><div>{bound.help_text}</div></div>')
    parts.append("</div></div>")
    return "".join(parts)


def render_fieldset(fieldset: Any, index: int, heading_level: int = 2,
                    prefix: str = "fieldset", id_prefix: int = 0) -> SafeString | None:
    """The fieldset as ``admin/includes/fieldset.html`` renders it, or ``None`` when it
    holds what only the template handles (a line of several fields, a collapsible set)."""
    lines = list(fieldset)
    if fieldset.is_collapsible or any(len(line.fields) != 1 for line in lines):
        return None
    heading_id = f"{prefix}-{id_prefix}-{index}-heading"
    parts = [f'<fieldset class="module aligned {conditional_escape(fieldset.classes)}"']
    if fieldset.name:
        parts.append(f' aria-labelledby="{heading_id}">')
        parts.append(f'<h{heading_level} id="{heading_id}" class="fieldset-heading">'
                     f"{conditional_escape(fieldset.name)}</h{heading_level}>")
    else:
        parts.append(">")
    if fieldset.description:
        parts.append(f'<div class="description">{fieldset.description}</div>')
    for line in lines:
        for field in line:
            parts.append(_field_html(line, field))
    parts.append("</fieldset>")
    # every value above is escaped or is Django's own safe markup (labels, widgets,
    # contents, errors); help texts and descriptions are marked safe by the template too
    return mark_safe("".join(parts))  # noqa: S308
