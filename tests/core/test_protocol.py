"""The one protocol both games implement: masks over stable action ids, for learning agents."""

from __future__ import annotations

import pytest

from flametable.core.protocol import legal_action_mask
from flametable.core.registry import make_game
from flametable.core.rng import Rng


@pytest.mark.parametrize("name", ["duel", "duals"])
def test_legal_action_mask_marks_exactly_the_legal_ids(name: str) -> None:
    game = make_game(name)
    for seed in range(5):
        state = game.new_match({}, seed)
        rng = Rng(seed)
        while state.to_act is not None:
            legal = state.legal_actions()
            mask = legal_action_mask(state, game.num_actions)
            assert len(mask) == game.num_actions
            assert [i for i, ok in enumerate(mask) if ok] == sorted(a.id for a in legal)
            for a in legal:
                assert game.action_from_id(a.id) == a
                assert game.action_from_text(a.text()) == a
            state.apply(legal[rng.below(len(legal))])
        assert not any(legal_action_mask(state, game.num_actions))


@pytest.mark.parametrize("name", ["duel", "duals"])
def test_new_match_takes_any_mapping_of_options(name: str) -> None:
    from types import MappingProxyType

    game = make_game(name)
    a = game.new_match(MappingProxyType({}), 4)
    b = game.new_match({}, 4)
    assert a.legal_actions() == b.legal_actions()
    assert a.view(0) == b.view(0)
