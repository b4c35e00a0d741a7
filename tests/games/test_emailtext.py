"""Email bodies with fewer lines (games/lib/emailtext.py): the HTML part folded and
re-wrapped under SMTP's line limit, showing the same; the text part without stray blank
lines."""

from __future__ import annotations

from games.lib.emailtext import HTML_LINE_BYTES, html_compact, text_tidy


def test_html_is_folded_into_few_lines_under_the_limit():
    html = "<p>Hello,</p>\n<ul>\n" + "".join(f"<li>line {i} of the diary</li>\n"
                                             for i in range(200)) + "</ul>\n<hr>\n"
    out = html_compact(html)
    lines = out.splitlines()
    assert len(lines) < 20 and all(len(line.encode()) <= HTML_LINE_BYTES for line in lines)
    # the same document: only whitespace changed, and only where there was a line break
    assert out.split() == html.split()
    assert "<li>line 7 of the diary</li>" in out


def test_wide_characters_stay_under_the_limit_and_a_long_word_keeps_its_own_line():
    ja = "<p>" + "あなたはポンテ・オヴェストにいます。 " * 120 + "</p>\n"
    assert all(len(line.encode()) <= HTML_LINE_BYTES for line in html_compact(ja).splitlines())
    url = "http://x/" + "a" * 700
    out = html_compact(f"<p>see\n<a href=\"{url}\">link</a> now</p>")
    assert f'href="{url}">link</a>' in out.splitlines()[1]
    assert html_compact("") == "\n"


def test_text_keeps_its_lines_without_trailing_spaces_or_blank_runs():
    text = "Hello bob,\n\nWhat you saw:\n\n- a   \n- b\n\n\n\nPlay: x\n\n--\nfooter\n\n\n"
    assert text_tidy(text) == "Hello bob,\n\nWhat you saw:\n\n- a\n- b\n\nPlay: x\n\n--\nfooter\n"


def test_lines_break_between_tags_so_a_sentence_stays_whole():
    html = "\n".join(f"<p>Paragraph {i}: your guess was {i * 7}.</p>" for i in range(60))
    out = html_compact(html)
    lines = out.splitlines()
    assert len(lines) > 1
    for i in range(60):
        assert any(f"<p>Paragraph {i}: your guess was {i * 7}.</p>" in line for line in lines)
