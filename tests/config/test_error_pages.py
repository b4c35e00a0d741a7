"""Error pages use the site's layout and say what happened (never Django's bare page)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string


@pytest.mark.django_db
def test_404_page_has_the_site_layout(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("someone", password="pw-12345!"))
    response = client.get("/m/999999/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Back to the lobby" in body and 'class="site"' in body


def test_500_page_renders_without_context():
    body = render_to_string("500.html")
    assert "Something went wrong" in body


def test_phase_label_humanises_kinds():
    from games.templatetags.games_tags import phase_label

    assert phase_label("ask:choose_character") == "Choose character"
    assert phase_label("tactical") == "Tactical"
