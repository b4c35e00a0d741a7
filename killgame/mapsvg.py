"""The Kill Game map as HTML (SVG drawing, legend, "the map as a list"), written in Python:
the same markup the template ``killgame/_map.html`` produced, at a fraction of the cost (a
map of 30 zones was ~1,000 template variable lookups, the board's largest part when it is
rendered anew: games/lib/htmlcache.py). Every value is escaped; translated texts are
the catalogue's, as the template's ``{% translate %}`` gave them."""

from __future__ import annotations

from typing import Any, Mapping

from games.lib.escape import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext as _

HEAD = ('<figure class="kg-map-wrap" id="kg-map-wrap" aria-labelledby="kg-map-cap">\n'
        '<p class="kg-zoom-bar"><button type="button" class="link" id="kg-zoom" '
        'aria-controls="kg-map-scroll" aria-pressed="false" hidden>{zoom}</button> '
        '<span class="kg-scroll-cue" id="kg-scroll-cue">{cue}</span></p>\n'
        '<div class="kg-map-scroll" id="kg-map-scroll" tabindex="-1">\n'
        '<svg class="kg-map" viewBox="{viewbox}" role="group" aria-label="{label}" '
        'data-clickable="{clickable}" id="kg-map">\n'
        '  <defs>\n'
        '    <pattern id="kg-hatch" width="3" height="3" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="3" '
        'class="kg-hatch-line"/></pattern>\n'
        '  </defs>\n'
        '  <g aria-hidden="true">')
EDGE = '<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="kg-edge{closed}"/>'
BOX = '<rect x="{bx}" y="{by}" width="17" height="14" rx="2.5" class="kg-zone-box"/>'
HATCH = ('<rect x="{bx}" y="{by}" width="17" height="14" rx="2.5" fill="url(#kg-hatch)" '
         'class="kg-zone-hatch"/>')


def _e(value: Any) -> str:
    return str(escape(value))


def _num(value: Any) -> str:
    """A coordinate as the template printed it with localisation off."""
    return str(value)


def _zone(z: Mapping[str, Any]) -> str:
    states = z["states"]
    out = ['\n  <g class="kg-zone ', _e(z["cls"]), '" data-zone="', _e(z["id"]),
           '" data-name="', _e(z["name"]), '" id="zone-', _e(z["id"]),
           '" tabindex="0" role="button"', "" if z["actionable"] else ' aria-disabled="true"',
           ">\n    <title>", _e(z["title"])]
    people = z.get("people") or []
    joined = ", ".join(_e(p) for p in people)
    if people:
        out.append(_("; here: %(people)s") % {"people": joined})
    bx, by = _num(z["bx"]), _num(z["by"])
    out += ["</title>\n    ", BOX.format(bx=bx, by=by), "\n    "]
    if "closed" in states or "closed-here" in states:
        out.append(HATCH.format(bx=bx, by=by))
    out.append("\n    ")
    short = z["short"]
    for i, line in enumerate(short):
        dy = ("-0.6" if i == 0 else "2.4") if len(short) == 2 else "0.9"
        out.append(f'<text x="{_num(z["x"])}" y="{_num(z["y"])}" dy="{dy}" '
                   f'class="kg-zone-label">{_e(line)}</text>')
    out.append("\n    ")
    if "central" in states:
        out.append(f'<text x="{_num(z["starx"])}" y="{_num(z["stary"])}" '
                   'class="kg-badge-central">★</text>')
    out.append("\n    ")
    if "here" in states or "closed-here" in states:
        out.append(f'<circle cx="{_num(z["youx"])}" cy="{_num(z["youy"])}" r="1.6" '
                   'class="kg-you"/>')
    out.append("\n    ")
    for c in z["clouds"]:
        out.append(f'<text x="{_num(z["cloudx"])}" y="{_num(z["cloudy"])}" '
                   f'class="kg-cloud kg-cloud-{_e(c)}">{"☁" if c == "smoke" else "☣"}</text>')
    out.append("\n    ")
    if people:
        out.append(f'<text x="{_num(z["x"])}" y="{_num(z["peopley"])}" class="kg-people">'
                   f'{Truncator(mark_safe(joined)).chars(22)}</text>')
    out.append("\n  </g>\n  ")
    return "".join(out)


def _who(z: Mapping[str, Any], zone: Mapping[str, Any] | None) -> str:
    """The "who is there" cell of the map as a list."""
    states = z["states"]
    if z.get("people"):
        return ", ".join(_e(p) for p in z["people"])
    if "here" in states or "closed-here" in states:
        zone = zone or {}
        out = [_("you")]
        for p in zone.get("people") or []:
            out.append(", " + _e(p.get("name") if isinstance(p, Mapping) else p))
        if zone.get("monster"):
            out.append(_(", a monster"))
        if zone and zone.get("people") is None:
            out.append(" " + _("(the smoke hides %(presences)s presence(s))")
                       % {"presences": _e(zone.get("presences"))})
        return "".join(out)
    unknown = _("unknown")
    return f'<span class="muted">{unknown}</span>'


def map_html(drawing: Mapping[str, Any], kg: Mapping[str, Any] | None = None) -> SafeString:
    """``drawing``: :func:`killgame.pages.map_drawing`; ``kg``: the board (its ``zone``,
    the reader's roster, fills the reader's own row of the list)."""
    zone = (kg or {}).get("zone") if isinstance(kg, Mapping) else None
    out = [HEAD.format(label=_e(_("Map of the island")), viewbox=_e(drawing.get("viewbox", "")),
                       clickable=_e(drawing.get("clickable", "")),
                       zoom=_e(_("Zoom the map")),
                       cue=_e(_("Zoomed: scroll the map sideways to see all of it.")))]
    for e in drawing.get("edges") or []:
        out.append(EDGE.format(x1=_num(e["x1"]), y1=_num(e["y1"]), x2=_num(e["x2"]),
                               y2=_num(e["y2"]), closed=" kg-edge-closed" if e["closed"] else ""))
    out.append("</g>\n  ")
    zones = drawing.get("zones") or []
    for z in zones:
        out.append(_zone(z))
    out.append("\n</svg>\n</div>\n")
    # gettext calls stay outside f-strings: xgettext cannot read into them
    t = {"here": _("you are here"), "reachable": _("reachable"), "closing": _("closes next"),
         "closed": _("closed"), "closedhere": _("closed, you inside"),
         "central": _("★ central zone"), "smoke": _("☁ smoke"), "gas": _("☣ gas"),
         "list": _("The map as a list: zones, neighbours, who is there"), "zone": _("Zone"),
         "state": _("State"), "neighbours": _("Neighbours"),
         "who": _("Who is there (as far as you know)")}
    out.append(
        '<figcaption class="kg-legend" id="kg-map-cap">\n'
        f'  <span class="kg-key kg-key-here">{t["here"]}</span>\n'
        f'  <span class="kg-key kg-key-reachable">{t["reachable"]}</span>\n'
        f'  <span class="kg-key kg-key-closing">{t["closing"]}</span>\n'
        f'  <span class="kg-key kg-key-closed">{t["closed"]}</span>\n'
        f'  <span class="kg-key kg-key-closedhere">{t["closedhere"]}</span>\n'
        f'  <span>{t["central"]}</span> <span>{t["smoke"]}</span> '
        f'<span>{t["gas"]}</span>\n'
        '</figcaption>\n'
        '<details class="kg-zone-list" id="kg-zone-list">\n'
        f'  <summary>{t["list"]}</summary>\n'
        '  <div class="table-scroll"><table>\n'
        f'    <thead><tr><th scope="col">{t["zone"]}</th><th scope="col">{t["state"]}</th>'
        f'<th scope="col">{t["neighbours"]}</th>'
        f'<th scope="col">{t["who"]}</th></tr></thead>\n'
        '    <tbody>')
    for z in zones:
        out.append(f'<tr id="zone-row-{_e(z["id"])}">\n'
                   f'      <th scope="row">{_e(z["name"])}</th>\n'
                   f'      <td>{_e(z["state_text"])}</td>\n'
                   f'      <td>{", ".join(_e(n) for n in z["neighbours"])}</td>\n'
                   f'      <td>{_who(z, zone)}</td>\n'
                   '    </tr>')
    out.append('</tbody>\n  </table></div>\n</details>\n</figure>')
    return mark_safe("".join(out))
