"""The turn of Flamecraft Duals (PLAY, SCORE, REFRESH), the stack limit and the FIRE UP abilities (D6).

Each FAQ answer and ruling has a test named after it whose docstring quotes it. Spaces by name::

      a1 a2 a3
     b1 b2 b3 b4
    c1 c2 c3 c4 c5
     d1 d2 d3 d4
      e1 e2 e3
"""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duals.rules import Step

from .scripted import act, legal, line, pair_end, play, stack, start, tokens


def test_turn_three_phases_in_order() -> None:
    """"Cada turno tiene tres fases: PLAY, SCORE y REFRESH, en ese orden." "En REFRESH, robas cartas hasta
    tener 2 en mano; si ya tienes 2, no robas." """
    st = start({"c1": ["bread"], "c2": ["bread"]}, ["bread", "meat"], hands=[[line("bread"), 20], [21, 22]],
               deck=[30, 31, 32])
    assert st.phase is Step.PLACE
    assert st.held == 0
    assert "score K1" not in legal(st)  # no scoring before the SCORE phase
    play(st, "place c3")
    assert legal(st) == ["skip", "fire bread"]
    play(st, "skip")
    assert st.phase is Step.SCORE
    assert legal(st) == ["done", f"score K{line('bread')}"]
    play(st, f"score K{line('bread')}")
    # Only "done" is left: the engine ends SCORE, REFRESH draws player 0 up to 2 cards, player 1's turn begins.
    assert st.piles[0] == [line("bread")]
    assert sorted(st.hands[0]) == [20, 30]
    assert st.hands[1] == [21, 22]  # already 2: no draw
    assert st.turn == 1
    assert st.phase is Step.PLACE
    assert st.held == 2


def test_turn_placement_on_empty_space_or_stack() -> None:
    """"En PLAY, sacas una ficha de dragón de la bolsa y la colocas en un espacio vacío o encima de una pila
    (máximo 3 fichas por espacio)." """
    st = start({"c3": ["bread"], "c4": ["meat", "iron"], "c5": ["potion", "potion", "plant"]}, ["crystal", "iron"],
               coins=(1, 0))
    options = legal(st)
    assert "place c3" in options
    assert "place c4" in options
    assert "place a1" in options
    assert "place c5" not in options
    assert len(options) == 1 + 18  # the coin, and every space but the full one
    play(st, "place c4")
    assert stack(st, "c4") == ["meat", "iron", "crystal"]


def test_faq_stack_never_exceeds_three_tokens_placement() -> None:
    """FAQ: "No. La pila nunca puede tener más de 3 fichas, ni siquiera temporalmente. Si una acción te
    obligaría a superar ese límite, no es válida y debes elegir otra forma de realizarla o no hacerla." """
    st = start({"c5": ["potion", "potion", "plant"]}, ["crystal", "iron"])
    with pytest.raises(IllegalAction, match="already holds 3 tokens"):
        st.apply(act("place c5"))
    assert stack(st, "c5") == ["potion", "potion", "plant"]
    assert st.phase is Step.PLACE


def test_faq_stack_never_exceeds_three_tokens_meat_move() -> None:
    """FAQ: "La pila nunca puede tener más de 3 fichas, ni siquiera temporalmente." A meat cannot move a
    token onto a full stack; it must move it elsewhere (or not fire)."""
    st = start({"c4": ["bread"], "a1": ["iron", "iron", "iron"]}, ["meat", "iron"], coins=(1, 0))
    play(st, "place c3", "fire meat")
    assert st.phase is Step.MEAT
    assert "move c4 a1" not in legal(st)
    with pytest.raises(IllegalAction, match="already holds 3 tokens"):
        st.apply(act("move c4 a1"))
    assert stack(st, "c4") == ["bread"]
    assert stack(st, "a1") == ["iron"] * 3


def test_faq_stack_never_exceeds_three_tokens_during_iron_move() -> None:
    """FAQ: "La pila nunca puede tener más de 3 fichas, ni siquiera temporalmente." D6: "no stack ever
    exceeds 3 tokens, not even during a move": the iron's two moves are checked one by one, so the second
    token cannot join a stack the first one filled."""
    st = start({"b3": ["bread"], "c4": ["meat"], "b4": ["potion", "potion"]}, ["iron", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire iron", "move c4 b4")  # b4 now holds 3
    assert stack(st, "b4") == ["potion", "potion", "meat"]
    assert st.phase is Step.IRON
    assert "move b3 b4" not in legal(st)
    with pytest.raises(IllegalAction, match="already holds 3 tokens"):
        st.apply(act("move b3 b4"))
    assert "move b3 a3" in legal(st)


def test_faq_stack_never_exceeds_three_tokens_swap_keeps_heights() -> None:
    """FAQ: "La pila nunca puede tener más de 3 fichas, ni siquiera temporalmente." A potion swaps top
    tokens, so every stack keeps its height: a swap can never make 4."""
    st = start({"a1": ["bread", "bread", "meat"], "e3": ["iron"]}, ["potion", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire potion")
    assert st.phase is Step.POTION
    play(st, "swap a1 e3")
    assert stack(st, "a1") == ["bread", "bread", "iron"]
    assert stack(st, "e3") == ["meat"]


def test_faq_dual_fires_one_ability_only() -> None:
    """FAQ: "No. Cuando colocas una ficha de dragón dual, debes elegir solo una de las dos habilidades
    especiales que representa. No puedes activar ambas, ni siquiera en fases diferentes del mismo turno."
    D6: "A dual uses one of its two abilities, never both." """
    st = start({"c4": ["plant"], "b4": ["bread"]}, ["plant+meat", "iron", "iron"], coins=(1, 0))
    play(st, "place c3")
    assert legal(st) == ["skip", "coin", "fire meat", "fire plant"]
    play(st, "fire plant")
    assert legal(st) == ["coin", "use c4"]
    play(st, "use c4")
    assert legal(st) == ["coin", "fire plant"]  # a plant used by a plant: no skip, one of its abilities
    play(st, "fire plant")
    # The second plant may use its neighbours, but not the dual that already fired its plant ability: its
    # meat ability never fires in this turn.
    assert legal(st) == ["coin", "use b4"]
    with pytest.raises(IllegalAction, match="already fired"):
        st.apply(act("use c3"))


def test_d6_plant_fires_a_plant() -> None:
    """D6: "Plant: use the ability of one adjacent top token, as if fired where it stands; plants may
    chain." """
    st = start({"c4": ["plant"], "c5": ["meat"], "a1": ["iron"]}, ["plant", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire plant", "use c4", "fire plant", "use c5", "fire meat")
    # The meat fires where it stands (c5): it moves a token next to c5, i.e. the plant on c4.
    assert st.phase is Step.MEAT
    assert {a.split()[1] for a in legal(st) if a.startswith("move")} == {"c4"}
    play(st, "move c4 c5")
    assert stack(st, "c5") == ["meat", "plant"]
    assert stack(st, "c4") == []
    assert st.phase is Step.SCORE


def test_d6_plant_chain_ends() -> None:
    """D6 (extension): each token fires at most once in a chain, so two plants cannot use each other forever."""
    st = start({"c4": ["plant"]}, ["plant", "crystal"], coins=(1, 0))
    play(st, "place c3")
    # The placed plant could use c4, whose only neighbour with a token is the first plant: nothing to do.
    assert legal(st) == ["skip", "coin"]


def test_faq_bread_places_a_token_that_may_fire() -> None:
    """FAQ: "La habilidad BREAD te permite robar una nueva ficha de dragón de la bolsa y colocarla en
    cualquier espacio permitido del tablero. Después de colocarla, puedes decidir si activar su habilidad
    especial (FIRE UP)." D6: "Bread: draw a token, place it on any legal space; you may FIRE UP that token." """
    st = start({}, ["bread", "bread", "meat", "iron"], coins=(1, 0))
    play(st, "place c3", "fire bread")
    assert st.phase is Step.PLACE
    assert st.held == 0
    play(st, "place c4")
    assert legal(st) == ["skip", "coin", "fire bread"]
    play(st, "fire bread", "place d3")
    assert stack(st, "d3") == ["meat"]
    assert "fire meat" in legal(st)
    play(st, "fire meat", "move c4 a1")
    assert stack(st, "a1") == ["bread"]
    assert stack(st, "c4") == []
    assert st.phase is Step.SCORE


def test_faq_crystal_draws_three_places_one_returns_two() -> None:
    """FAQ: "No. Cuando usas la habilidad CRYSTAL, robas 3 fichas, eliges una para colocarla y devuelves
    las otras dos a la bolsa. No puedes activar la habilidad especial de la ficha que acabas de colocar con
    CRYSTAL." """
    st = start({}, ["crystal", "meat", "iron", "potion", "plant"], coins=(1, 0))
    play(st, "place c3", "fire crystal")
    assert st.phase is Step.TAKE
    assert legal(st) == ["coin", "take meat", "take iron", "take potion"]
    play(st, "take meat")
    assert st.phase is Step.PLACE
    play(st, "place c4")
    assert stack(st, "c4") == ["meat"]
    assert st.phase is Step.SCORE  # no FIRE UP for the token crystal placed
    assert tokens(st, "bag") == ["iron", "plant", "potion"]


def test_d7_crystal_with_fewer_than_three_tokens_in_the_bag() -> None:
    """D7: "When a token must be drawn and the bag is empty, the 6 reserve tokens go into the bag, shuffled,
    and play goes on." Crystal draws one at a time: with one token left, the reserve enters for the other
    two."""
    reserve = ["bread", "crystal", "meat", "iron", "potion", "plant"]
    st = start({}, ["crystal", "meat+bread"], reserve=reserve, coins=(1, 0))
    play(st, "place c3", "fire crystal")
    assert len(st.drawn) == 3
    assert st.reserve == []
    assert len(st.bag) == 4  # 6 reserve tokens, 2 of them drawn
    assert st.ended  # D8: a draw emptied the bag
    assert 11 in st.drawn  # the last bag token (meat+bread) came first
    play(st, "take meat+bread", "place c4")
    assert len(st.bag) == 6
    assert st.drawn == []


def test_d7_crystal_with_bag_and_reserve_nearly_empty() -> None:
    """D6: "an ability with nothing legal to do does nothing"; with bag and reserve both short, crystal draws
    what there is (here one token) and places it."""
    st = start({}, ["crystal", "potion"], coins=(1, 0))
    play(st, "place c3", "fire crystal")
    assert st.drawn == [4]
    assert legal(st) == ["coin", "take potion"]
    play(st, "take potion", "place e3")
    assert stack(st, "e3") == ["potion"]
    assert st.bag == []


def test_faq_reserve_enters_the_empty_bag_mid_ability() -> None:
    """FAQ: "Si la bolsa está vacía y necesitas robar una ficha (por ejemplo, para usar la habilidad BREAD o
    CRYSTAL), añades las 6 fichas de dragón artesanas extra que dejaste al lado del tablero durante la
    preparación. Luego mezclas y continúas normalmente." """
    reserve = ["bread", "crystal", "meat", "iron", "potion", "plant"]
    st = start({}, ["bread"], reserve=reserve, coins=(1, 0))
    assert st.bag == []
    assert st.ended
    play(st, "place c3")
    assert "fire bread" in legal(st)  # the reserve gives bread something to draw
    play(st, "fire bread")
    assert st.reserve == []
    assert len(st.bag) == 5
    assert st.phase is Step.PLACE
    assert sorted([*st.bag, st.held]) == [0, 1, 2, 3, 4, 5]


def test_d6_ability_with_nothing_to_do() -> None:
    """D6: "an ability with nothing legal to do does nothing": with no neighbour, a meat has nothing to
    move, so firing it is not offered (the same as skipping)."""
    st = start({}, ["meat", "iron"], coins=(1, 0))
    play(st, "place c3")
    assert legal(st) == ["skip", "coin"]
    with pytest.raises(IllegalAction, match="nothing to do"):
        st.apply(act("fire meat"))
    with pytest.raises(IllegalAction, match="no bread ability"):
        st.apply(act("fire bread"))


def test_d6_meat_moves_an_adjacent_top_token_anywhere() -> None:
    """D6: "Meat: move one top token adjacent to the meat to any other legal space (on top of the meat
    included)." """
    st = start({"c4": ["bread", "iron"], "a1": ["potion"] * 3}, ["meat", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire meat")
    moves = [a for a in legal(st) if a.startswith("move")]
    assert {m.split()[1] for m in moves} == {"c4"}  # only the adjacent top token
    assert "move c4 c3" in moves
    assert "move c4 e1" in moves
    assert "move c4 a1" not in moves
    assert len(moves) == 17  # every other space but the full one
    play(st, "move c4 c3")
    assert stack(st, "c3") == ["meat", "iron"]
    assert stack(st, "c4") == ["bread"]
    assert st.phase is Step.SCORE


def test_d6_iron_moves_two_tokens_top_first_then_the_uncovered_one() -> None:
    """D6: "Iron: move one or two different top tokens adjacent to the iron, each by one space (onto the
    iron included); when both come from one stack, the top one moves first, then the one it uncovered." """
    st = start({"c4": ["bread", "meat"]}, ["iron", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire iron")
    moves = [a for a in legal(st) if a.startswith("move")]
    assert sorted(moves) == sorted(f"move c4 {b}" for b in ("b3", "b4", "c3", "c5", "d3", "d4"))
    play(st, "move c4 d3")  # the meat, next to the iron again
    assert legal(st)[0] == "done"  # the second move is optional
    second = [a for a in legal(st) if a.startswith("move")]
    assert all(m.split()[1] == "c4" for m in second)  # the uncovered bread; the meat has moved
    with pytest.raises(IllegalAction, match="two different tokens"):
        st.apply(act("move d3 e3"))
    with pytest.raises(IllegalAction, match="by one space"):
        st.apply(act("move c4 a1"))
    play(st, "move c4 c3")
    assert stack(st, "c3") == ["iron", "bread"]
    assert stack(st, "d3") == ["meat"]
    assert stack(st, "c4") == []
    assert st.phase is Step.SCORE


def test_d6_potion_swaps_two_top_tokens_anywhere() -> None:
    """D6: "Potion: swap two top tokens anywhere on the board (the potion may be one of them)." """
    st = start({"a1": ["bread", "meat"], "e3": ["iron"]}, ["potion", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire potion")
    swaps = legal(st)[1:]
    assert sorted(swaps) == ["swap a1 c3", "swap a1 e3", "swap c3 e3"]
    play(st, "swap c3 a1")  # either order on input
    assert stack(st, "a1") == ["bread", "potion"]
    assert stack(st, "c3") == ["meat"]


def test_faq_abilities_affect_top_tokens_only() -> None:
    """FAQ: "No. Las habilidades de las fichas de dragón solo afectan a la ficha que actualmente está en lo
    alto de una pila. Si hay varias fichas en un espacio, solo la superior puede activar su habilidad, aunque
    esto pueda cambiar durante el turno si mueves fichas." """
    # A plant next to a stack with a bread under a meat can use the meat, never the covered bread.
    st = start({"c4": ["bread", "meat"], "c5": ["iron"]}, ["plant", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire plant", "use c4")
    assert legal(st) == ["coin", "fire meat"]
    with pytest.raises(IllegalAction, match="no bread ability"):
        st.apply(act("fire bread"))
    # Once the meat moves away, the bread is on top and can be used: in the next turn's plant, say.
    play(st, "fire meat", "move c5 a1")
    assert stack(st, "a1") == ["iron"]
    st2 = start({"c4": ["bread", "meat"]}, ["iron", "crystal"], coins=(1, 0))
    play(st2, "place c3", "fire iron", "move c4 c5")
    assert stack(st2, "c4") == ["bread"]
    assert any(a.startswith("move c4") for a in legal(st2))  # the uncovered bread is a top token now


def test_faq_score_several_cards_in_one_turn() -> None:
    """FAQ: "Sí. En la fase SCORE, puedes completar y puntuar tantas cartas de tu mano como coincidan con el
    patrón de fichas en el tablero. No hay límite por turno salvo las cartas que tengas en mano." """
    board = {"c1": ["bread"], "c2": ["bread"], "c3": ["iron"], "d3": ["meat"], "e3": ["meat"]}
    hand = [pair_end("bread", "iron"), pair_end("meat", "iron")]
    st = start(board, ["iron", "crystal"], hands=[hand, []], coins=(1, 0))
    play(st, "place a3", "skip")
    assert sorted(legal(st)[2:]) == sorted(f"score K{c}" for c in hand)
    play(st, f"score K{hand[0]}", f"score K{hand[1]}", "done")
    assert sorted(st.piles[0]) == sorted(hand)


def test_d5_scoring_two_cards_on_the_same_tokens() -> None:
    """D5: "Scoring removes nothing from the board, so one group of tokens can score several cards in the
    same turn." """
    board = {"c1": ["bread"], "c2": ["bread"], "c3": ["meat+bread"]}
    hand = [line("bread"), pair_end("bread", "meat")]
    st = start(board, ["iron", "crystal"], hands=[hand, []], coins=(1, 0))
    play(st, "place e3", "skip")
    play(st, f"score K{hand[0]}")
    assert stack(st, "c3") == ["meat+bread"]  # nothing removed
    assert legal(st) == ["done", "coin", f"score K{hand[1]}"]
    play(st, f"score K{hand[1]}")
    assert sorted(st.piles[0]) == sorted(hand)


def test_faq_cards_rotate() -> None:
    """FAQ: "Sí. En la fase SCORE, puedes rotar tus cartas de tienda en cualquier orientación para comprobar
    si coinciden con un patrón de fichas en el tablero." The card's line runs left to right with the meat
    at the right end; on the board it runs from e3 up to a1, with the meat at the top."""
    card = pair_end("bread", "meat")
    board = {"a1": ["meat"], "b2": ["bread"], "c3": ["bread"]}
    st = start(board, ["iron", "crystal"], hands=[[card], []], coins=(1, 0))
    play(st, "place e1", "skip")
    assert f"score K{card}" in legal(st)


def test_faq_coin_any_time_before_refresh_once_per_turn() -> None:
    """FAQ: "Sí. Puedes gastar una moneda en cualquier momento antes de la fase REFRESH, solo una vez por
    turno, independientemente de cuántas cartas tengas en mano. Al hacerlo, robas 2 cartas, luego eliges 2
    de tu mano y las pones al final del mazo." """
    st = start({}, ["meat", "iron", "crystal"], hands=[[1, 2], [3, 4]], deck=[10, 11, 12, 13], coins=(2, 2))
    assert "coin" in legal(st)  # PLAY, before placing the drawn token
    play(st, "coin")
    assert sorted(st.hands[0]) == [1, 2, 10, 11]
    assert st.coins[0] == 1
    assert st.phase is Step.BOTTOM
    assert legal(st) == ["bottom K1", "bottom K2", "bottom K10", "bottom K11"]
    with pytest.raises(IllegalAction, match="not possible now"):
        st.apply(act("place c3"))
    play(st, "bottom K2", "bottom K10")
    assert sorted(st.hands[0]) == [1, 11]
    assert st.deck[:2] == [10, 2]  # the deck's top is its end: K10 is now the very bottom, K2 above it
    assert st.phase is Step.PLACE
    assert st.held == 2
    assert "coin" not in legal(st)
    with pytest.raises(IllegalAction, match="once per turn"):
        st.apply(act("coin"))
    play(st, "place c3")  # nothing left to decide this turn: the engine skips, ends SCORE and refreshes
    # Player 1's turn: the coin is available again.
    assert st.turn == 1
    assert "coin" in legal(st)


def test_faq_coin_whatever_the_hand_size() -> None:
    """FAQ: "... independientemente de cuántas cartas tengas en mano." With an empty hand the coin draws 2
    and both go back to the bottom."""
    st = start({}, ["meat", "iron", "crystal"], hands=[[], []], deck=[10, 11, 12], coins=(1, 0))
    play(st, "coin")
    assert legal(st) == ["bottom K10", "bottom K11"]
    play(st, "bottom K11")  # the last card goes by itself
    assert st.hands[0] == []
    assert st.deck == [10, 11, 12]
    with pytest.raises(IllegalAction, match="no coins left"):
        start({}, ["meat", "iron"], coins=(0, 0), hands=[[1, 2], []]).apply(act("coin"))


def test_d6_potion_never_swaps_two_tokens_of_the_same_kind() -> None:
    """docs/duals.md (D6): "Swapping two tokens of the same kind changes nothing and is not offered." """
    st = start({"a1": ["meat"], "e3": ["meat"], "b1": ["iron"]}, ["potion", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire potion")
    assert "swap a1 e3" not in legal(st)
    assert "swap a1 b1" in legal(st)
    with pytest.raises(IllegalAction, match="Swapping two meat tokens changes nothing"):
        st.apply(act("swap a1 e3"))


def test_d6_a_plant_cannot_use_a_token_whose_ability_has_nothing_to_do() -> None:
    """D6: "an ability with nothing legal to do does nothing": a plant is not offered, and may not use, a
    neighbour whose abilities could do nothing from where it stands."""
    # the meat on c4 has a neighbour to move, the potion on d3 tokens to swap; the crystal on c2 has no bag
    # or reserve left to draw from
    st = start({"c4": ["meat"], "d3": ["potion"], "c2": ["crystal"]}, ["plant"], reserve=[], coins=(0, 0))
    play(st, "place c3", "fire plant")
    assert legal(st) == ["use c4", "use d3"]
    with pytest.raises(IllegalAction, match="no ability that can do something"):
        st.apply(act("use c2"))
