"""The fault bench's web process: the site's WSGI application, with the development game
the bench plays (``PBW_DEV_GAMES``) registered, as its Celery workers do with
``--include bench.devgames``: orders and check-ins through the API need the game."""

from __future__ import annotations

from config.wsgi import application

import bench.devgames  # noqa: E402,F401 - registers the guess game (after Django is set up)

__all__ = ["application"]
