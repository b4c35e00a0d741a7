import pytest
from tests.sanguosha.web.conftest import *
pytestmark = pytest.mark.django_db

def test_smoke():
    m = new_table(4)
    c = seat_client(m, 0)
    r = c.get(table_url(m))
    print(r.status_code)
    print(page_text(r)[:3000])
    print(button_values(r))
    r2 = post_answer(c, m, button_values(r)[0])
    print(r2.status_code, r2.get("Location"))
    r = seat_client(m, 1).get(table_url(m))
    print(page_text(r)[:2000])
    r = c.get(reverse("games:match-detail", args=[m.pk]))
    print(r.status_code, page_text(r)[:2500])
