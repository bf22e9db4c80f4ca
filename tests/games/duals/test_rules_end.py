"""The end of Flamecraft Duals: the empty bag (D7), both end triggers and the last chance (D8), final
scoring and the tie-breaks (D9)."""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duals.rules import Reason, Step

from .scripted import DATA, STARBURST, act, legal, line, pair_end, play, start, triangle

RESERVE = ["bread", "crystal", "meat", "iron", "potion", "plant"]


def test_d8_end_when_a_draw_empties_the_bag() -> None:
    """D8: "The end triggers when a draw empties the bag or the shop deck. The triggering player finishes the
    whole turn; the opponent then gets one last chance to score and to spend a coin, nothing else." Rules
    text: "El juego termina cuando se agota la bolsa de fichas o el mazo de cartas de tienda. Si activas el
    final, terminas tu turno completo. Luego tu oponente tiene una última oportunidad para puntuar y gastar
    una moneda si quiere." """
    card = line("bread")
    st = start({"c1": ["bread"], "c2": ["bread"]}, ["bread"], reserve=RESERVE, hands=[[20, 21], [card, 22]],
               coins=(1, 1))
    assert st.ended
    assert st.bag == []
    # The triggering turn goes on in full: FIRE UP (the reserve enters for the bread), SCORE, REFRESH.
    play(st, "place c3", "fire bread", "place e3", "skip", "done")
    assert st.reserve == []
    assert len(st.bag) == 5
    # Player 1's last chance: score and the coin, nothing else (no token, no refresh).
    assert st.turn == 1
    assert st.last
    assert st.phase is Step.SCORE
    assert st.held == -1
    assert legal(st) == ["done", "coin", f"score K{card}"]
    play(st, f"score K{card}", "coin", "bottom K22", "bottom K3")
    # Only "done" was left (K2 does not match, the coin is spent): the match is over, with no refresh.
    assert st.outcome is not None
    assert st.to_act is None
    assert st.hands[1] == [2]
    assert st.piles[1] == [card]
    with pytest.raises(IllegalAction, match="over"):
        st.apply(act("done"))


def test_d8_end_when_a_draw_empties_the_shop_deck() -> None:
    """D8: "The end triggers when a draw empties the bag or the shop deck." The refresh draws the deck's last
    card: the turn is over, player 1 gets the last chance."""
    card = line("bread")
    st = start({"c1": ["bread"], "c2": ["bread"], "c3": ["bread"]}, ["meat", "iron", "crystal"],
               hands=[[card, 20], [21, 22]], deck=[30], coins=(0, 1))
    play(st, "place e3", f"score K{card}")
    # "done" was the only option left: the refresh drew K30, the deck is empty.
    assert st.deck == []
    assert st.ended
    assert st.turn == 1
    assert st.last
    assert legal(st) == ["done", "coin"]
    assert sorted(st.hands[0]) == [20, 30]
    play(st, "coin")  # a draw from an empty deck draws nothing (D8); the 2 cards still go back
    assert st.hands[1] == [21, 22]
    assert legal(st) == ["bottom K21", "bottom K22"]
    play(st, "bottom K21")
    assert st.outcome is not None
    assert st.deck == [22, 21]


def test_d8_coin_draw_can_trigger_the_end() -> None:
    """D8: the end triggers when a draw empties the shop deck, the coin's draws included; the player still
    finishes the turn."""
    st = start({}, ["meat", "iron", "crystal"], hands=[[1, 2], [3, 4]], deck=[10, 11], coins=(1, 0))
    play(st, "coin")
    assert st.ended
    assert st.deck == []
    play(st, "bottom K1", "bottom K2")
    assert st.phase is Step.PLACE
    assert st.turn == 0
    play(st, "place c3")
    assert st.outcome is not None  # player 1 has nothing to do in the last chance


def test_d8_draw_from_empty_deck_draws_nothing() -> None:
    """D8: "A draw from an empty deck draws nothing." Rules text: "En REFRESH, robas cartas hasta tener 2
    en mano"; with no cards left the hand stays short."""
    card = line("bread")
    st = start({"c1": ["bread"], "c2": ["bread"], "c3": ["bread"]}, ["meat", "iron", "crystal"],
               hands=[[card], [21, 22]], deck=[], coins=(0, 0))
    play(st, "place e3", f"score K{card}")
    assert st.hands[0] == []
    assert st.turn == 1
    assert not st.last


def test_d8_last_chance_is_score_and_coin_only() -> None:
    """D8: "the opponent then gets one last chance to score and to spend a coin, nothing else." """
    st = start({}, ["meat"], hands=[[1, 2], [3, 4]], coins=(0, 2))
    play(st, "place c3")
    assert st.last
    assert st.turn == 1
    assert legal(st) == ["done", "coin"]
    for text in ("place c4", "skip", "fire meat", "take meat"):
        with pytest.raises(IllegalAction, match="not possible now"):
            st.apply(act(text))


def _final(scores: list[list[int]], coins: tuple[int, int]) -> tuple[int | None, object, tuple[int, int]]:
    """A match that ends at once (one token in the bag, nothing to decide but its placement)."""
    st = start({}, ["meat"], scores=scores, coins=coins, hands=[[], []], deck=[])
    play(st, "place c3")
    while st.outcome is None:  # with coins, skip and done are decisions: decline everything
        play(st, "skip" if "skip" in legal(st) else "done")
    out = st.outcome
    assert out is not None
    return out.winner, out.reason, out.scores


def test_d9_most_vp_wins_with_coins_worth_one() -> None:
    """D9: "VP of scored cards plus 1 per unspent coin ... Most VP wins." Rules text: "Al final del juego,
    cada moneda sin gastar vale 1 punto"."""
    winner, reason, scores = _final([[line("bread")], [line("meat")]], (1, 0))
    assert (winner, reason, scores) == (0, Reason.MOST_VP, (4, 3))


def test_faq_starburst_zeroes_coins() -> None:
    """FAQ: "Si tienes la carta STARBURST en tu pila de puntuación al final del juego, tus monedas sin gastar
    valen cero puntos en lugar de 1 cada una. Esto puede cambiar el resultado si dependías de las monedas
    para ganar." D9: "(0 per coin for the owner of STARBURST)" """
    vp = DATA.vp
    opponent = [line("bread"), triangle("bread")]
    assert vp[STARBURST] + 3 > sum(vp[c] for c in opponent) > vp[STARBURST]  # the coins would have won
    winner, reason, scores = _final([[STARBURST], opponent], (3, 0))
    assert (winner, reason, scores) == (1, Reason.MOST_VP, (vp[STARBURST], sum(vp[c] for c in opponent)))


def test_d9_equal_vp_more_cards_wins() -> None:
    """D9: "equal: more scored cards" Rules text: "en empate, gana quien tenga más cartas puntuadas" """
    three = [pair_end("bread", "meat"), pair_end("meat", "bread"), pair_end("iron", "plant")]
    winner, reason, scores = _final([[line("bread"), line("meat")], three], (0, 0))
    assert (winner, reason, scores) == (1, Reason.MORE_CARDS, (6, 6))


def test_faq_shared_victory() -> None:
    """FAQ: "Si hay empate en puntos de victoria y también en el número de cartas en tu pila de puntuación,
    los jugadores comparten una victoria dual. No hay desempate adicional." """
    winner, reason, scores = _final([[line("bread")], [line("meat")]], (0, 0))
    assert (winner, reason, scores) == (None, Reason.SHARED, (3, 3))
    winner, reason, scores = _final([[], []], (2, 2))
    assert (winner, reason, scores) == (None, Reason.SHARED, (2, 2))


def test_d9_scores_in_outcome() -> None:
    """D9: the outcome's scores are each seat's final VP."""
    winner, reason, scores = _final([[pair_end("bread", "meat")], []], (0, 3))
    assert (winner, reason, scores) == (1, Reason.MOST_VP, (2, 3))


def test_d8_a_turn_that_finds_bag_and_reserve_empty_places_nothing_and_ends_the_match() -> None:
    """docs/duals.md (D7, D8): "A turn that finds bag and reserve empty places nothing and triggers it." """
    st = start({"c4": ["meat"]}, [], reserve=[])
    assert st.stacks == start({"c4": ["meat"]}, ["bread"]).stacks  # nothing was placed
    assert st.ended
    assert st.to_act is None  # no card matches, no coin: the last chance has nothing to decide
    assert st.outcome is not None
    assert st.outcome.reason is Reason.SHARED
