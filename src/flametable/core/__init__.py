"""Game-independent foundation: protocol, outcome, errors, seeded randomness, notation, records."""

from flametable.core.errors import DataError, FlametableError, IllegalAction, RecordError
from flametable.core.outcome import Outcome
from flametable.core.protocol import Game, GameState
from flametable.core.rng import Rng

__all__ = [
    "DataError",
    "FlametableError",
    "Game",
    "GameState",
    "IllegalAction",
    "Outcome",
    "RecordError",
    "Rng",
]
