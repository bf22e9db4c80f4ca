"""The state's fields are declared once (``slot`` in :mod:`flametable.games.duel.state`, listed in ``FIELDS``):
slots, annotations, blank and clone follow them."""

from __future__ import annotations

import copy
from typing import Any

from flametable.core.engine import Copy
from flametable.core.rng import Rng
from flametable.games.duel.game import DuelGame
from flametable.games.duel.state import FIELDS, DuelState
from tests.games.duel.scripted import CARDS

GAME = DuelGame(CARDS)


def _mutable_parts(how: Copy, value: Any) -> list[Any]:
    if how is Copy.SHARED:
        return []
    if how is Copy.CLONE:
        return [value]
    if how is Copy.LIST:
        return [value]
    return [value, *value]


def _busy_state(seed: int) -> DuelState:
    """A state well into a match (every list has something in it)."""
    st = GAME.new_match({"mode": "decks"}, seed)
    rng = Rng(seed)
    while st.outcome is None and not (st.results and st.log and st.discards[0] and st.discards[1]):
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    return st


def test_slots_and_annotations_are_the_declared_fields() -> None:
    names = [f.name for f in FIELDS]
    assert len(set(names)) == len(names)
    assert DuelState.__slots__ == tuple(names)
    assert set(DuelState.__annotations__) == set(names)


def test_blank_sets_every_field_and_shares_no_list_between_states() -> None:
    a = DuelState.blank(CARDS, True, False, Rng(1))
    b = DuelState.blank(CARDS, False, True, Rng(2))
    for name, how in ((f.name, f.copy) for f in FIELDS):
        assert hasattr(a, name), name
        for x, y in zip(_mutable_parts(how, getattr(a, name)), _mutable_parts(how, getattr(b, name)), strict=True):
            assert x is not y, f"blank states share {name}"
    assert (a.shared, a.draft, a.pile_of) == (True, False, (0, 0))
    assert (b.shared, b.draft, b.pile_of) == (False, True, (0, 1))


def test_clone_copies_every_field_and_shares_nothing_mutable() -> None:
    for seed in range(1, 6):
        st = _busy_state(seed)
        c = st.clone()
        for name, how in ((f.name, f.copy) for f in FIELDS):
            original, copied = getattr(st, name), getattr(c, name)
            if how is Copy.CLONE:
                assert copied.state == original.state, name
            else:
                assert copied == original, name
            for x, y in zip(_mutable_parts(how, original), _mutable_parts(how, copied), strict=True):
                assert x is not y, f"clone shares {name}"
        # and the clone plays on alone
        before = {f.name: copy.deepcopy(getattr(st, f.name)) for f in FIELDS if f.name not in ("cards", "rng")}
        rng_before = st.rng.state
        while c.outcome is None:
            c.apply(c.legal_actions()[-1])
        assert {name: getattr(st, name) for name in before} == before
        assert st.rng.state == rng_before
