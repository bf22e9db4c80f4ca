"""Flame Duel (*Duelo de llamas*): the hidden-information card duel, everything about it in one folder. The engine
(``cards``, ``actions``, ``rules``, ``state``, ``view``, ``determinize``, ``game``) imports only
:mod:`flametable.core`; ``entry.py`` is its registry entry."""
