"""What a player reads, in the player's language, for every front end (terminal, web, learning environments).

Layer 3: above the engines and bots/sim/service, below the interfaces; it imports ``core`` and the games,
never ``cli``. Everything here takes its :class:`Translator` explicitly (a parameter, or held by an object
made with it): there is no process-wide language.

- :mod:`flametable.texts.translator`: :class:`Translator`, one language's catalogue;
- :mod:`flametable.texts.words`: both games' enum-like words (stats, card kinds, reasons, phases) and errors;
- :mod:`flametable.games.duel.texts`: Flame Duel's card labels, action descriptions, narration and outcomes;
- :mod:`flametable.games.duals.texts`: Flamecraft Duals' tokens, cards, actions, narration and outcomes;
- :mod:`flametable.texts.plain`: any game's view as plain text (the drawing of a game without its own);
- :mod:`flametable.texts.log`: the match log, one audience's plain lines for each step, whatever the game
  (each game's own log is in its module above: :class:`~flametable.games.duel.texts.DuelLog`,
  :class:`~flametable.games.duals.texts.DualsLog`).
"""

from __future__ import annotations

from flametable.texts.translator import Translator

__all__ = ["Translator"]
