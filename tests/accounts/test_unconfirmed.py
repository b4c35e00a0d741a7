"""Issue 23: with ACCOUNT_EMAIL_VERIFICATION on, an account that has not confirmed its
address is told what it can do: the sign-up page and the login say it cannot join or
play matches until it confirms, and joining is refused."""

import pytest
from django.urls import reverse

from games.exceptions import ApplicationError
from games.services.matches import match_create, match_join
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_an_unconfirmed_account_is_told_and_cannot_join(client, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = True
    user = make_user("unconfirmed")
    user.set_password("a long enough passphrase 7")
    user.save()
    page = client.get(reverse("accounts:signup-done")).content.decode()
    assert "you cannot join or play matches" in page
    resp = client.post(reverse("accounts:login"), {
        "username": "unconfirmed", "password": "a long enough passphrase 7"}, follow=True)
    assert resp.status_code == 200
    assert "Your address is not confirmed yet" in resp.content.decode()
    match = match_create(game="guess", name="g")
    with pytest.raises(ApplicationError) as err:
        match_join(match=match, user=user)
    assert err.value.code == "EMAIL_UNVERIFIED"
