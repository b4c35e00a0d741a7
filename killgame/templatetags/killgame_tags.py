"""Template tags of the Kill Game pages: the board context (map, panel, forms) built from
the player view, and the diary grouped by turn and phase with player names."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.lib import pages as game_pages
from games.lib.escape import conditional_escape
from killgame import mapsvg, pages

register = template.Library()


def _lang(context: Any) -> str:
    request = context.get("request")
    lang = getattr(request, "LANGUAGE_CODE", None) or "en"
    return "it" if str(lang).startswith("it") else "en"


@register.simple_tag(takes_context=True)
def kg_board(context: Any) -> dict[str, Any]:
    """``{% kg_board as kg %}``: everything the board shows, from ``view`` only (cached on
    the request context so the board and the order form share one build)."""
    cache = context.get("_kg_board_cache")
    if cache is not None:
        return cache  # type: ignore[no-any-return]
    match = context.get("match")
    view = game_pages.resolved(context.get("view"))
    names = context.get("names") or {}
    out = pages.board(view, getattr(match, "config", None), names, _lang(context))
    context.dicts[0]["_kg_board_cache"] = out
    return out


def diary_parts(groups: Any, names: Any) -> dict[str, Any]:
    """The reader's diary by turn then phase (newest first), and the public feed (newest
    first), from ``(turn, rows)`` groups; names put in place of player ids."""
    turns: list[dict[str, Any]] = []
    feed: list[dict[str, Any]] = []
    for turn, rows in groups:
        phases: list[dict[str, Any]] = []
        for row in rows:
            text = pages.with_names(row.text, names)
            if not text.strip():
                continue
            kind = row.phase_kind or ""
            if not phases or phases[-1]["kind"] != kind:
                phases.append({"kind": kind, "rows": []})
            last = phases[-1]["rows"][-1] if phases[-1]["rows"] else None
            if (last is not None and row.kind == "attack" and last["kind"] == "attack"
                    and last["base"] == text):
                # one line per attack: a two-shot weapon's shots read "… (×2)", not twice
                last["times"] += 1
                last["text"] = f"{text[:-1] if text.endswith('.') else text} (×{last['times']})."
                if row.is_public and feed and feed[-1]["seq"] == last["seq"]:
                    feed[-1]["text"] = last["text"]
                continue
            cls = "kg-public" if row.is_public else "kg-private"
            if (row.kind or "")[:5] == "heard":
                cls += " kg-heard"
            phases[-1]["rows"].append({"text": text, "public": row.is_public, "kind": row.kind,
                                       "seq": row.seq, "cls": cls, "base": text, "times": 1})
            if row.is_public:
                feed.append({"turn": turn, "phase": kind, "text": text, "seq": row.seq})
        turns.append({"turn": turn, "phases": list(reversed(phases))})
    feed.sort(key=lambda r: r["seq"], reverse=True)  # newest first
    return {"turns": turns, "feed": feed}


@register.simple_tag(takes_context=True)
def kg_diary(context: Any) -> dict[str, Any]:
    """The loaded turns of the reader's diary and feed (the match page loads the latest
    turn; older turns come on demand, ``diary_older``)."""
    return diary_parts(game_pages.resolved(context.get("diary_groups")) or [],
                       context.get("names") or {})


@register.simple_tag(takes_context=True)
def kg_map(context: Any) -> Any:
    """``{% kg_map %}``: the map of ``map`` (:func:`killgame.pages.map_drawing`) with the
    reader's roster from ``kg`` (killgame/mapsvg.py: the markup, written in Python)."""
    return mapsvg.map_html(context.get("map") or {}, context.get("kg"))


@register.filter
def kg_get(mapping: Any, key: str) -> Any:
    """``errors|kg_get:"move_to"``."""
    if not mapping:
        return None
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.simple_tag(takes_context=True)
def kg_err(context: Any, control: str) -> str:
    """``{% kg_err "move_to" %}``: the engine's refusal next to its control, if any (a
    tag, not an include: the order form has about thirty of them)."""
    msg = kg_get(context.get("kg_errors"), control)
    if not msg:
        return ""
    return format_html('<p class="error kg-error" role="alert" data-reveal id="err-{}">{}</p>',
                       control, msg)


@register.simple_tag(takes_context=True)
def kg_value(context: Any, name: str, default: Any = "") -> Any:
    """The value the refused form posted for ``name`` (so a refusal keeps what the player
    typed), else ``default``."""
    posted = context.get("kg_posted")
    if posted is not None and name in posted:
        return posted.get(name)
    return default


@register.simple_tag(takes_context=True)
def kg_feed(context: Any, feed: Any) -> Any:
    """``{% kg_feed diary.feed %}``: the public feed as a list (the newest eight open, the
    rest behind "Earlier"), written in Python: a template loop cost ~10 µs a row and a
    100-player turn has hundreds. ``turn`` in the context (an older turn loaded on demand)
    drops the rows' turn anchors and says "in this turn" when it is empty."""
    turn = context.get("turn")
    esc = conditional_escape
    out = ["<ol>"]
    if not feed:
        tail = gettext("in this turn") if turn is not None else gettext("yet")
        out.append(f'<li class="muted">{esc(gettext("Nothing public"))} {esc(tail)}.</li>')
    last_turn: Any = object()
    count = len(feed or ())
    for i, row in enumerate(feed or (), start=1):
        if i == 9:
            more = gettext("Earlier (%(feed)s more)") % {"feed": count - 8}
            out.append(f"</ol><details><summary>{esc(more)}</summary><ol>")
        anchor = ""
        if not turn and row["turn"] != last_turn:
            anchor = f' id="kg-feed-t{esc(row["turn"])}"'
            last_turn = row["turn"]
        phase = f" {esc(str(row['phase'])[:1].upper())}" if row.get("phase") else ""
        out.append(f'<li{anchor}><small class="muted">T{esc(row["turn"])}{phase}</small> '
                   f'{esc(row["text"])}</li>')
        if i == count and i > 8:
            out.append("</ol></details><ol>")
    out.append("</ol>")
    return mark_safe("".join(out))  # noqa: S308 - every value escaped above


@register.simple_tag(takes_context=True)
def kg_diary_turns(context: Any, turns: Any, open_all: bool = False) -> Any:
    """``{% kg_diary_turns diary.turns %}``: the reader's diary, a ``<details>`` per turn
    (the first, or the one asked for, open), each phase's rows as a list; in Python for
    the same reason as :func:`kg_feed`."""
    esc = conditional_escape
    asked = game_pages.resolved(context.get("diary_asked"))
    names = {"tactical": gettext("Tactical phase"), "action": gettext("Action phase")}
    out = []
    for index, t in enumerate(turns or ()):
        is_open = " open" if (open_all or index == 0 or t["turn"] == asked) else ""
        title = gettext("Turn %(turn)s") % {"turn": t["turn"]}
        out.append(f'<details id="kg-diary-t{esc(t["turn"])}"{is_open}><summary>{esc(title)}'
                   "</summary>\n  ")
        if not t["phases"]:
            nothing = gettext("Nothing you can read happened in this turn.")
            out.append(f'<p class="muted">{esc(nothing)}</p>')
        for ph in t["phases"]:
            kind = ph["kind"]
            label = names.get(kind) or (str(kind)[:1].upper() + str(kind)[1:])
            rows = "".join(f'<li class="{esc(r["cls"])}">{esc(r["text"])}</li>'
                           for r in ph["rows"])
            out.append(f"<h4>{esc(label)}</h4>\n  <ul>{rows}</ul>")
        out.append("\n</details>\n")
    return mark_safe("".join(out))  # noqa: S308 - every value escaped above


def _text(value: Any) -> str:
    return str(conditional_escape(value))


@register.simple_tag(takes_context=True)
def kg_options(context: Any, name: str, items: Any, suffix: str = "",
               reloading: bool = False) -> Any:
    """``{% kg_options "move_to" f.moves %}``: a select's options (``id`` and ``name`` of
    each item; ``suffix`` another key shown in brackets, ``reloading`` marks a weapon
    that reloads), the one the refused form posted selected; in Python (the order form
    has a dozen lists of zones, items and players, a template loop each)."""
    picked = kg_value(context, name, "")
    out = []
    for it in items or ():
        label = _text(it["name"])
        if suffix:
            label += f" ({_text(it[suffix])})"
        if reloading and it.get("reloading"):
            label += " " + _text(gettext("(reloading)"))
        selected = " selected" if picked == it["id"] else ""
        out.append(f'<option value="{_text(it["id"])}"{selected}>{label}</option>')
    return mark_safe("".join(out))  # noqa: S308 - every value escaped above


@register.simple_tag
def kg_target_boxes(targets: Any) -> Any:
    """The attack's target check boxes (a 100-player zone can hold many people)."""
    if not targets:
        return mark_safe(f'<span class="muted">{_text(gettext("Nobody is in your zone."))}'
                         "</span>")
    ally = " " + _text(gettext("(ally)"))
    return mark_safe("".join(  # noqa: S308 - every value escaped
        f'<label class="check"><input type="checkbox" name="attack_targets" '
        f'value="{_text(t["id"])}" id="target-{_text(t["id"])}"> {_text(t["name"])}'
        f'{ally if t.get("teammate") else ""}</label>' for t in targets))


# --- the board's small lists, written in Python (a template loop cost ~50 µs an item) ---

@register.simple_tag
def kg_faces(faces: Any) -> Any:
    """``{% kg_faces me.faces %}``: the approval faces (three green, three red)."""
    return mark_safe("".join(  # noqa: S308 - fixed markup, the kind escaped
        f'<span class="kg-face kg-face-{_text(f["kind"])}{" on" if f["on"] else ""}" '
        f'aria-hidden="true">{"☺" if f["kind"] == "green" else "☹"}</span>'
        for f in faces or ()))


@register.simple_tag
def kg_backpack(backpack: Any) -> Any:
    """``{% kg_backpack me.backpack %}``: the backpack's items ("2 × grenade")."""
    out = []
    for i in backpack or ():
        count = f"{_text(i['count'])} × " if i["count"] > 1 else ""
        out.append(f'<li><span class="badge">{count}{_text(i["name"])}</span></li>')
    return mark_safe("".join(out))  # noqa: S308 - every value escaped


@register.simple_tag
def kg_people(people: Any) -> Any:
    """``{% kg_people kg.zone.people %}``: who else stands in the reader's zone."""
    ally = f' <span class="badge">{_text(gettext("ally"))}</span>'
    return mark_safe("".join(  # noqa: S308 - every value escaped
        f'<li>{_text(p["name"])}{ally if p.get("teammate") else ""}</li>' for p in people or ()))


@register.simple_tag
def kg_market_rows(rows: Any) -> Any:
    """``{% kg_market_rows f.market.rows %}``: the market table's rows (item, buy, sell —
    "—" when it cannot be sold —, how many the reader has)."""
    return mark_safe("".join(  # noqa: S308 - every value escaped
        f'<tr><td>{_text(r["name"])}</td><td>{_text(r["buy"])}</td>'
        f'<td>{_text(r["sell"]) if r["sell"] else "—"}</td>'
        f'<td>{_text(r["owned"]) if r["owned"] else ""}</td></tr>' for r in rows or ()))
