"""Management commands of the Dice Slayer app."""
