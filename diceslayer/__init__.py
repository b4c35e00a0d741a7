"""Dice Slayer: the Django app wrapping the pure rules engine in :mod:`diceslayer.engine`."""
