"""Flamecraft Duals: the tile-laying game's rules engine (rulings D1-D11), behind the common protocol."""

from flametable.duals.actions import ActionSpace, DualsAction, Kind
from flametable.duals.data import DualsData, builtin_duals_data, load_duals_data, parse_duals_data
from flametable.duals.game import DualsGame
from flametable.duals.rules import DualsOptions, Reason, Step, TokenType
from flametable.duals.state import DualsState
from flametable.duals.view import DualsView

__all__ = [
    "ActionSpace",
    "DualsAction",
    "DualsData",
    "DualsGame",
    "DualsOptions",
    "DualsState",
    "DualsView",
    "Kind",
    "Reason",
    "Step",
    "TokenType",
    "builtin_duals_data",
    "load_duals_data",
    "parse_duals_data",
]
