"""No template string escapes translation: every run of visible text in an HTML template
(outside tags, comments, scripts and existing translate blocks) is inside {% translate %} or
{% blocktranslate %}. The check rewrites each template as it would need to be marked and
fails on any difference, naming the text."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

# -- the marker: tokenises a template and wraps each unmarked text run ----------------------

TOK = re.compile(r'\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}|<!--.*?-->|<(?:[^<>{]|\{(?![%{])|\{%.*?%\}|\{\{.*?\}\})*>', re.S)
SKIP_OPEN = {'comment': 'endcomment', 'blocktranslate': 'endblocktranslate', 'blocktrans': 'endblocktrans',
             'verbatim': 'endverbatim'}

def varname(expr, used):
    base = expr.split('|')[0].strip()
    last = base.split('.')[-1]
    if last == 'get_username': last = base.split('.')[-2] if '.' in base else 'name'
    m = re.match(r'get_(\w+)_display', last)
    if m: last = m.group(1)
    last = re.sub(r'\W', '_', last) or 'v'
    if last[0].isdigit(): last = 'v' + last
    if last in ('forloop', 'count', 'with', 'trimmed', 'asvar'): last = 'v_' + last
    name, i = last, 2
    while name in used and used[name] != expr:
        name = f'{last}{i}'; i += 1
    used[name] = expr
    return name

def wrap_run(run):
    # run: list of (kind, text) kind in {'text','var'}
    texts = ''.join(t for k, t in run if k == 'text')
    if len(re.findall(r'[A-Za-z]', texts)) < 2:
        return ''.join(t for _, t in run)
    # peel leading/trailing whitespace
    full = ''.join(t for _, t in run)
    lead = full[:len(full) - len(full.lstrip())]
    trail = full[len(full.rstrip()):]
    parts = []
    used = {}
    for k, t in run:
        if k == 'text':
            parts.append(re.sub(r'\s*\n\s*', ' ', t))
        else:
            expr = t[2:-2].strip()
            simple = re.fullmatch(r'[A-Za-z_]\w*', expr)
            if simple and expr not in ('forloop',):
                used[expr] = expr
                parts.append('{{ %s }}' % expr)
            else:
                parts.append('{{ %s }}' % varname(expr, used))
    body = ''.join(parts).strip()
    withs = [f'{n}={e}' for n, e in used.items() if n != e]
    if '{{' not in body and '"' not in body:
        return f'{lead}{{% translate "{body}" %}}{trail}'
    w = (' with ' + ' '.join(withs)) if withs else ''
    return f'{lead}{{% blocktranslate{w} %}}{body}{{% endblocktranslate %}}{trail}'

def process(src):
    out = []
    pos = 0
    toks = []
    for m in TOK.finditer(src):
        if m.start() > pos: toks.append(('text', src[pos:m.start()]))
        t = m.group(0)
        toks.append(('var' if t.startswith('{{') else 'tag', t))
        pos = m.end()
    if pos < len(src): toks.append(('text', src[pos:]))
    run = []
    skip_until = None
    in_raw = None
    def flush():
        if run:
            out.append(wrap_run(run)); run.clear()
    for k, t in toks:
        if skip_until:
            out.append(t)
            if k == 'tag' and re.match(r'\{%\s*' + skip_until + r'\b', t): skip_until = None
            continue
        if in_raw:
            out.append(t)
            if k == 'tag' and t.lower().startswith('</' + in_raw): in_raw = None
            continue
        if k == 'tag':
            flush()
            m = re.match(r'\{%\s*(\w+)', t)
            if m and m.group(1) in SKIP_OPEN: skip_until = SKIP_OPEN[m.group(1)]
            m2 = re.match(r'<(script|style|textarea|kbd|code|pre)\b', t, re.I)
            if m2: in_raw = m2.group(1).lower()
            out.append(t)
        else:
            run.append((k, t))
    flush()
    res = ''.join(out)
    if 'translate' in res and not re.search(r'\{%\s*load[^%]*\bi18n\b', res):
        if res.startswith('{% extends'):
            nl = res.index('\n') + 1
            res = res[:nl] + '{% load i18n %}' + res[nl:]
        else:
            res = '{% load i18n %}' + res
    return res



def _templates() -> list[Path]:
    base = Path(settings.BASE_DIR)
    found = []
    for folder in [base / "templates", *sorted(base.glob("*/templates"))]:
        found += sorted(p for p in folder.rglob("*.html") if ".venv" not in p.parts)
    return found


def test_every_html_template_string_is_marked_for_translation():
    unmarked = []
    for path in _templates():
        text = path.read_text(encoding="utf-8")
        marked = process(text)
        if marked != text:
            new = set(re.findall(r'\{% (?:translate "[^"]*"|blocktranslate[^%]*%\}.*?)(?=\{% endblock|%\})',
                                 marked)) - set(re.findall(r'\{% (?:translate "[^"]*"|blocktranslate[^%]*%\}.*?)(?=\{% endblock|%\})', text))
            unmarked.append((str(path.relative_to(settings.BASE_DIR)), sorted(new)[:5]))
    assert not unmarked, unmarked


def test_the_check_finds_unmarked_text():
    assert process("<p>Hello there</p>") == '{% load i18n %}<p>{% translate "Hello there" %}</p>'
    assert process('{% load i18n %}<p>{% translate "Hi" %} {{ x }}</p>') == (
        '{% load i18n %}<p>{% translate "Hi" %} {{ x }}</p>')
