from __future__ import annotations

import pytest

from reach import safehttp
from tests.reach.receiver import Receiver


@pytest.fixture(autouse=True)
def _fresh_dns():
    """Each test resolves host names anew (some make a name resolve to another address)."""
    safehttp.forget_resolved()
    yield
    safehttp.forget_resolved()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()
