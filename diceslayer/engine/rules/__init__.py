"""The Dice Slayer rules proper: patterns (matching) and the resolution of one turn."""
