"""Learning environments for the registry's games (``pip install 'flametable[rl]'``): PettingZoo AEC environments
(``flametable.rl.duel_v0``, ``flametable.rl.duals_v0``, any game whose registry entry gives an ``observation``
piece), Gymnasium single-agent environments against a registry bot, and a batch API. Observations are made from a
seat's view only, never from the state (``spec.ObservationSpec``); their layout is in ``docs/rl.md``.
"""
