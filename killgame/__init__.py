"""Kill Game: the Django app wrapping the pure rules engine in :mod:`killgame.engine`."""
