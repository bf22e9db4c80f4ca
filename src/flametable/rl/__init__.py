"""Learning environments for the registry's games (``pip install 'flametable[rl]'``): PettingZoo AEC environments
(``flametable.rl.duel_v0``, ``flametable.rl.duals_v0``, any game whose registry entry gives an ``observation``
piece), Gymnasium single-agent environments against a registry bot, and a batch API. Observations are made from a
seat's view only, never from the state (``spec.ObservationSpec``); their layout is in ``docs/rl.md``.

Importing this package registers the environments with both libraries (when they are installed):
``pettingzoo.make("aec", "flametable/duel_v0")`` (and ``duals_v0``), ``gymnasium.make("flametable/Duel-v0")`` (and
``Duals-v0``). The modules themselves are imported only when an environment is made.
"""

from __future__ import annotations

PETTINGZOO_IDS = {"flametable/duel_v0": "flametable.rl.duel_v0:env",
                  "flametable/duals_v0": "flametable.rl.duals_v0:env"}
GYMNASIUM_IDS = {"flametable/Duel-v0": "flametable.rl.single:DuelEnv",
                 "flametable/Duals-v0": "flametable.rl.single:DualsEnv"}


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # pragma: no cover  (the rl extra brings it)
        pass
    else:
        for env_id, entry_point in GYMNASIUM_IDS.items():
            if env_id not in gymnasium.registry:
                gymnasium.register(id=env_id, entry_point=entry_point)
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover
        return
    for env_id, entry_point in PETTINGZOO_IDS.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry_point)


_register()
