from flametable.core.rng import Rng
from flametable.games.duel.game import DuelGame


def test_random_matches_finish() -> None:
    game = DuelGame()
    for seed in range(50):
        st = game.new_match({}, seed)
        rng = Rng(seed)
        while st.to_act is not None:
            acts = st.legal_actions()
            st.apply(acts[rng.below(len(acts))])
        assert st.outcome is not None
