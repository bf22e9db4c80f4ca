"""The built-in games, one folder each, holding everything about the game: its engine (which imports only
:mod:`flametable.core`), its texts, terminal table, observation encoder, lab summary, bot heuristics and browser
table, and its registry entry (``entry.py``). Each is registered through the ``flametable.games`` entry point, as
any plug-in game is (``pyproject.toml``); nothing outside this package imports a game."""
