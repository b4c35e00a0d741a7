"""Dice Slayer management commands (thin wrappers over the pure engine)."""
