"""A database outage answers 503 with Retry-After — pages, the API, with or without a
session cookie — never a 500 (config/outage.py)."""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def database_down():
    """Every new query fails the way a stopped PostgreSQL does."""
    def refuse(self):
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    connection.close()
    with mock.patch.object(BaseDatabaseWrapper, "ensure_connection", refuse):
        yield


def _logged_in_client(django_user_model) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(django_user_model.objects.create_user("someone", password="pw-12345!"))
    return client


def test_a_page_answers_503_with_retry_after_when_the_database_is_down(django_user_model):
    client = _logged_in_client(django_user_model)  # the session lookup fails in a middleware
    anonymous = Client(raise_request_exception=False)  # the view's query fails
    with database_down():
        for c in (client, anonymous):
            response = c.get("/")
            assert response.status_code == 503
            assert response["Retry-After"] == "30"
            assert "Back in a moment" in response.content.decode()


def test_the_api_answers_its_error_shape_when_the_database_is_down(django_user_model):
    client = _logged_in_client(django_user_model)
    with database_down():
        response = client.get("/api/matches/")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    body = response.json()
    assert body["ok"] is False and body["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert set(body["error"]) == {"code", "message", "field", "details"}


def test_handler500_tells_an_outage_from_a_bug(rf):
    from config.outage import server_error

    request = rf.get("/m/1/")
    try:
        raise ValueError("a bug")
    except ValueError:
        bug = server_error(request)
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        outage = server_error(request)
    assert bug.status_code == 500 and "Something went wrong" in bug.content.decode()
    assert outage.status_code == 503 and outage["Retry-After"] == "30"
