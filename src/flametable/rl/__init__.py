"""Learning environments for the registry's games (``pip install 'flametable[rl]'``): PettingZoo AEC environments
of any game whose registry entry gives an ``observation`` piece, Gymnasium single-agent environments against a
registry bot, and a batch API. Observations are made from a seat's view only, never from the state
(``spec.ObservationSpec``); their layout is in ``docs/rl.md``.

Importing this package registers with both libraries (when they are installed) the environment ids that the games'
entries declare (``environments``; each game's makers are in its own ``environments.py``), such as
``pettingzoo.make("aec", "flametable/duel_v0")`` and ``gymnasium.make("flametable/Duel-v0")``. The modules
themselves are imported only when an environment is made.
"""

from __future__ import annotations

from flametable.core import registry


def environments() -> dict[str, dict[str, str]]:
    """The environment ids the registry's games declare (their entries' ``environments``), by library:
    ``{"pettingzoo": {id: "module:attribute"}, "gymnasium": {...}}``."""
    found: dict[str, dict[str, str]] = {"pettingzoo": {}, "gymnasium": {}}
    for entry in registry.entries():
        for key, maker in entry.environments.items():
            library, _, env_id = key.partition(":")
            if library in found and env_id:
                found[library][env_id] = maker
    return found


def _register() -> None:
    ids = environments()
    try:
        import gymnasium
    except ImportError:  # pragma: no cover  (the rl extra brings it)
        pass
    else:
        for env_id, entry_point in ids["gymnasium"].items():
            if env_id not in gymnasium.registry:
                gymnasium.register(id=env_id, entry_point=entry_point)
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover
        return
    for env_id, entry_point in ids["pettingzoo"].items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry_point)


_register()
