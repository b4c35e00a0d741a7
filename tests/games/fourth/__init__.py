"""A fourth game as an installed app: its engine (the guess game), its app config and a
board template — nothing else (docs/adding-a-game.md)."""
