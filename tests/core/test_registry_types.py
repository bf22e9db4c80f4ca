"""Issue 20: ``registry.piece()`` is typed, so type checking does not stop at the registry. Every piece of a
GameEntry has an overload of ``piece`` (its shape, or None when the game has none) and of ``required`` (its shape:
a missing piece raises PieceError naming the game and the piece), so a new piece cannot be added untyped."""

from __future__ import annotations

import re
import typing
from collections.abc import Callable
from pathlib import Path

import pytest

from flametable.core.registry import GameEntry, PieceError, Ref

PIECES = sorted(name for name, hint in typing.get_type_hints(GameEntry).items() if hint == Ref)
"""The fields of a GameEntry that are pieces (a reference to an object, imported on first use)."""


def overloaded(method: Callable[..., object]) -> dict[str, str]:
    """Each piece name that an overload of ``method`` takes as a literal, with the return type it declares."""
    found: dict[str, str] = {}
    for overload in typing.get_overloads(method):
        literal = re.fullmatch(r"""Literal\[["'](\w+)["']\]""", overload.__annotations__["name"])
        if literal is not None:
            found[literal.group(1)] = overload.__annotations__["return"]
    return found


def test_the_pieces_are_the_fields_that_hold_references() -> None:
    assert {"game", "data", "table", "observation", "schemas"} <= set(PIECES)
    assert not {"name", "title", "environments", "help", "origin"} & set(PIECES)


@pytest.mark.parametrize("method", [GameEntry.piece, GameEntry.required], ids=["piece", "required"])
def test_every_piece_has_an_overload_giving_its_type(method: Callable[..., object]) -> None:
    """A piece added to GameEntry without its overload fails here: its call sites would be typed Any/object."""
    assert sorted(overloaded(method)) == PIECES


def test_piece_may_be_none_but_what_is_required_is_not() -> None:
    """``piece`` says None for every optional piece (every one but ``game``); ``required`` never does."""
    for name, returns in overloaded(GameEntry.piece).items():
        assert returns.endswith("| None") == (name != "game"), (name, returns)
    for name, returns in overloaded(GameEntry.required).items():
        assert not returns.endswith("| None"), (name, returns)


def summary_of(path: Path) -> str:
    return f"checked {path.name}"


TOY = GameEntry(name="toy", title="Toy", game=object, check=summary_of)


def test_required_gives_a_piece_the_game_has() -> None:
    assert TOY.required("check") is summary_of
    assert TOY.required("check")(Path("toy.toml")) == "checked toy.toml"


def test_required_raises_for_a_missing_piece_naming_the_game_and_the_piece() -> None:
    assert TOY.piece("table") is None
    with pytest.raises(PieceError, match=r"'toy'.*'table'"):
        TOY.required("table")
