"""With the cache down (Redis unreachable), unread counts fall back to zero: pages that
show the press panel or the nav badge still answer, and posting still works."""

from unittest import mock

import pytest

from press import selectors

pytestmark = pytest.mark.django_db


class DownCache:
    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("redis down")
        return fail


def test_unread_counts_survive_a_cache_outage(django_user_model):
    user = django_user_model.objects.create_user("reader", password="x")
    with mock.patch.object(selectors, "cache", DownCache()):
        assert selectors.unread_total(user) == 0
        assert selectors.unread_counts(user, [1, 2]) == {}
        assert selectors.unread_clear(user=user, match_id=1) == 0
        selectors._incr("press:unread:1")  # no exception
