import pytest
from tests.sanguosha.web.test_leaks import *
from tests.sanguosha.web.conftest import make_player, client_for
pytestmark = pytest.mark.django_db
def test_mut():
    match = _position_early()
    st = engine.load(match.state).raw
    c = client_for(make_player("boss", is_staff=True))
    tokens, hidden = _secrets(st, None)
    html = c.get(table_url(match)).content.decode()
    with pytest.raises(AssertionError):
        _check_text(html, tokens, "x")
    with pytest.raises(AssertionError):
        _identity_ok(st, None, html)
    data = c.get(reverse("games:api-match", args=[match.pk])).json()
    with pytest.raises(AssertionError):
        _check_json(data, st, None, hidden, "x")
