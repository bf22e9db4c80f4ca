"""Flamecraft Duals actions: a fixed action space with stable ids and a notation that round-trips."""

from __future__ import annotations

import itertools

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duals.actions import Kind
from flametable.games.duals.game import DualsGame

from .scripted import BOARD, DATA, GAME


def test_action_space_layout() -> None:
    n, kinds, m = BOARD.size, DATA.num_kinds, len(DATA.cards)
    assert GAME.num_actions == 3 + n + 6 + kinds + n + n * (n - 1) + n * (n - 1) // 2 + 2 * m == 659
    layout = GAME.actions.layout()
    assert [k for k, _, _ in layout] == [k.word for k in Kind]
    assert sum(size for _, _, size in layout) == GAME.num_actions
    for (_, first, size), (_, nxt, _) in itertools.pairwise(layout):
        assert first + size == nxt


def test_every_action_round_trips() -> None:
    texts = set()
    for i in range(GAME.num_actions):
        action = GAME.action_from_id(i)
        assert action.id == i
        assert GAME.action_from_text(action.text()) == action
        assert GAME.action_from_text(action.text().upper()) == action
        assert str(action) == action.text()
        texts.add(action.text())
    assert len(texts) == GAME.num_actions


def test_notation_examples() -> None:
    a = GAME.action_from_text
    assert a("place c3").kind is Kind.PLACE
    assert a("place c3").a == BOARD.index["c3"]
    assert a("  move  b2   c3 ").text() == "move b2 c3"
    assert a("swap e3 a1") == a("swap a1 e3")
    assert a("take crystal+bread") == a("take bread+crystal")
    assert a("score 12") == a("score K12") == a("SCORE k12")
    assert a("fire meat").a == 2
    assert {a(w).kind for w in ("done", "skip", "coin")} == {Kind.DONE, Kind.SKIP, Kind.COIN}


def test_actions_equal_across_games() -> None:
    other = DualsGame(DATA)
    assert other.action_from_text("move b2 c3") == GAME.action_from_text("move b2 c3")
    assert hash(other.action_from_id(100)) == hash(GAME.action_from_id(100))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Cannot read"),
        ("jump c3", "Unknown action"),
        ("place", "takes 1 argument"),
        ("move c3", "takes 2 argument"),
        ("done now", "takes 0 argument"),
        ("place z9", "no space 'z9'"),
        ("move c3 c3", "two different spaces"),
        ("fire toast", "Unknown ability"),
        ("take toast", "Unknown token"),
        ("score K44", "card K1 to K43"),
        ("bottom Kx", "card K1 to K43"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        GAME.action_from_text(text)


@pytest.mark.parametrize("bad", [-1, 659, True, "3"])
def test_bad_ids(bad: object) -> None:
    with pytest.raises(IllegalAction, match="No action has id"):
        GAME.action_from_id(bad)  # type: ignore[arg-type]
