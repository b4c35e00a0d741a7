"""The security tests share the web-side fixtures (personas, matches, the guess game)."""

from tests.games.views.conftest import *  # noqa: F401,F403
