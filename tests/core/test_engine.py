"""The engine toolkit (issue 20): a state's fields declared once, from which ``__slots__``, ``clone`` and a blank
constructor are made; and one handler per step, looked up in a table."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import pytest

from flametable.core.engine import REQUIRED, Copy, EngineState, blank_of, engine_state, fields_of, slot, step_table
from flametable.core.rng import Rng


class Tables:
    """Stands for a game's data: shared by every state."""


@engine_state
class Toy(EngineState):
    tables: Tables = slot(Copy.SHARED)
    rng: Rng = slot(Copy.CLONE)
    turn: int = slot(Copy.SHARED, 0, "turn")
    legal: list[int] = slot(Copy.SHARED, [])  # replaced, never mutated in place
    hand: list[int] = slot(Copy.LIST, [3, 3])
    seats: list[list[int]] = slot(Copy.PER_SEAT, [[], [1]])
    piles: list[list[int]] = slot(Copy.LISTS, [])
    scores: dict[str, int] = slot(Copy.DICT, {"a": 0})
    cache: dict[int, bool] = slot(Copy.CACHE, {})
    odd: list[Tables] = slot(Copy.LIST, [Tables()])  # not a literal: copied from the declared list

    def clone(self) -> Toy:
        """A toy's copy."""
        raise NotImplementedError  # pragma: no cover - replaced by engine_state


BLANK = blank_of(Toy)
NAMES = ["tables", "rng", "turn", "legal", "hand", "seats", "piles", "scores", "cache", "odd"]


def _busy() -> Toy:
    st = BLANK(tables=Tables(), rng=Rng(5))
    st.turn = 1
    st.hand = [1, 2]
    st.seats = [[4], [5, 6]]
    st.piles = [[7], [8], [9]]
    st.scores = {"a": 2}
    st.cache = {3: True}
    return st


def test_the_slots_are_the_declared_fields_in_order() -> None:
    assert list(Toy.__slots__) == NAMES
    assert [f.name for f in fields_of(Toy)] == NAMES
    assert fields_of(Toy)[2].view == "turn"
    assert fields_of(Toy)[0].empty is REQUIRED
    with pytest.raises(AttributeError):  # no __dict__: only the declared fields
        Toy.__new__(Toy).colour = "red"  # type: ignore[attr-defined]


def test_a_field_not_declared_with_slot_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Bad\.turn is not declared with slot\(\)"):
        @engine_state
        class Bad(EngineState):
            turn: int = 0


def test_a_state_not_deriving_from_engine_state_is_refused() -> None:
    class Plain:
        turn: int = slot(Copy.SHARED, 0)

    with pytest.raises(TypeError, match="Plain must derive from EngineState"):
        engine_state(Plain)  # type: ignore[type-var]


def test_blank_needs_the_required_fields_and_knows_no_others() -> None:
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'rng'"):
        BLANK(tables=Tables())
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        BLANK(tables=Tables(), rng=Rng(0), colour="red")


def test_blank_gives_the_declared_empty_values_lists_fresh_and_shared_values_as_declared() -> None:
    tables = Tables()
    a, b = BLANK(tables=tables, rng=Rng(0)), BLANK(tables=tables, rng=Rng(0))
    assert (a.turn, a.hand, a.seats, a.piles, a.scores, a.cache) == (0, [3, 3], [[], [1]], [], {"a": 0}, {})
    assert a.tables is tables
    assert a.legal is b.legal  # SHARED: the declared object itself
    for name in ("hand", "seats", "piles", "scores", "cache", "odd"):
        assert getattr(a, name) is not getattr(b, name), name
    assert a.seats[1] is not b.seats[1]
    assert a.odd == b.odd  # the same Tables in two fresh lists


def test_blank_keeps_what_it_is_given() -> None:
    hand = [9]
    st = BLANK(tables=Tables(), rng=Rng(0), hand=hand, turn=1)
    assert st.hand is hand
    assert st.turn == 1


def test_clone_copies_each_field_as_declared() -> None:
    st = _busy()
    c = st.clone()
    for name in NAMES:
        if name != "rng":
            assert getattr(c, name) == getattr(st, name), name
    assert c.rng is not st.rng
    assert c.rng.state == st.rng.state
    for name in ("tables", "turn", "legal", "cache"):  # shared
        assert getattr(c, name) is getattr(st, name), name
    for name in ("hand", "seats", "piles", "scores", "odd"):  # copied
        assert getattr(c, name) is not getattr(st, name), name
    for name in ("seats", "piles"):  # and each list in them
        assert all(x is not y for x, y in zip(getattr(c, name), getattr(st, name), strict=True)), name
    assert c.odd[0] is st.odd[0]  # a flat list's items are shared


def test_the_generated_clone_is_the_class_method_with_the_stubs_doc() -> None:
    assert Toy.clone.__doc__ == "A toy's copy."
    assert Toy.clone.__qualname__.endswith("Toy.clone")
    assert type(_busy().clone()) is Toy


def test_slot_wants_a_copy_kind() -> None:
    with pytest.raises(TypeError, match="slot\\(\\) wants a Copy"):
        slot("list")  # type: ignore[arg-type]


class Step(IntEnum):
    A = 0
    B = 1
    OVER = 2


def test_step_table_is_indexed_by_the_steps_value() -> None:
    def on_a(x: int) -> str:
        return f"a{x}"

    def on_b(x: int) -> str:
        return f"b{x}"

    table = step_table(Step, {Step.B: on_b, Step.A: on_a})
    assert table == (on_a, on_b)
    assert table[Step.B](1) == "b1"


@pytest.mark.parametrize("handlers", [{Step.B: print}, {Step.A: print, Step.OVER: print}])
def test_step_table_refuses_a_gap(handlers: dict[Any, Any]) -> None:
    with pytest.raises(ValueError, match="without a gap"):
        step_table(Step, handlers)


def test_step_table_refuses_another_enums_steps() -> None:
    class Other(IntEnum):
        A = 0

    with pytest.raises(ValueError, match="not a Step"):
        step_table(Step, {Other.A: print})
