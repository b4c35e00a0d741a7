"""A fourth game, all in this folder: a sealed-bid auction (``engine/``), its app config and
a board template. Installing it takes one line outside the folder, its name in
``settings.GAME_APPS`` (``test_fourth_game.py`` adds it there and nowhere else;
docs/adding-a-game.md)."""
