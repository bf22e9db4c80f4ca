"""Rules of Flamecraft Duals pinned down by mutation testing (docs/mutation.md): each test reads one rule
sentence or ruling on a scripted setup and checks it through the engine's public interface only
(``new_match`` with an explicit setup, ``legal_actions``, ``apply``, ``view``, ``outcome``, ``clone``).

Refusals are checked word for word: what a player reads names the card, space, token or ability concerned,
never a literal ``{card}``, and a refused action changes nothing (the views before and after are equal).
Spaces by name::

      a1 a2 a3
     b1 b2 b3 b4
    c1 c2 c3 c4 c5
     d1 d2 d3 d4
      e1 e2 e3
"""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duals.rules import Reason, Step
from flametable.games.duals.state import DualsState

from .scripted import DATA, act, legal, line, pair_end, play, start


def on(st: DualsState, name: str) -> list[str]:
    """The token names on a space, bottom first, as every seat sees them."""
    return [DATA.kind_names[k] for k in st.view(None).board[DATA.board.index[name]]]


def refused(st: DualsState, move: str) -> str:
    """The message of the refusal of ``move``; the refusal changes nothing that any seat sees."""
    before = [st.view(seat) for seat in (0, 1, None)]
    with pytest.raises(IllegalAction) as caught:
        st.apply(act(move))
    assert [st.view(seat) for seat in (0, 1, None)] == before
    text = str(caught.value)
    assert "{" not in text
    assert "}" not in text
    return text


# ---------------------------------------------------------------- what a refused action says


def test_a_card_not_in_hand_cannot_be_scored_or_put_back() -> None:
    """Rules text: "En SCORE, comparas el tablero con las cartas de tu mano" and the coin's "eliges 2 de tu
    mano y las pones al final del mazo": only a card of your hand."""
    st = start({}, ["meat", "iron"], hands=[[20, 21], [22, 23]], deck=[10, 11, 12], coins=(1, 0))
    play(st, "coin")
    assert refused(st, "bottom K22") == "K22 is not in your hand."
    assert refused(st, "done") == "done is not possible now: put a card of your hand at the bottom of the deck."
    play(st, "bottom K20", "bottom K10", "place c3")
    st = start({}, ["meat", "iron"], hands=[[20, 21], [22, 23]], coins=(1, 0))
    play(st, "place c3", "skip")
    assert st.view(0).phase is Step.SCORE
    assert refused(st, "score K22") == "K22 is not in your hand."


def test_a_card_scores_only_when_it_matches() -> None:
    """Rules text: "En SCORE, comparas el tablero con las cartas de tu mano; si coinciden, puntúas la carta";
    a card that does not match is refused, whatever its rotation (D5)."""
    st = start({"c1": ["bread"], "c2": ["bread"]}, ["meat", "iron"], hands=[[line("bread"), 21], [22, 23]],
               coins=(1, 0))
    play(st, "place c4", "skip")
    assert refused(st, f"score K{line('bread')}") == f"K{line('bread')} does not match the board in any rotation."


def test_the_coin_once_per_turn_and_only_with_a_coin() -> None:
    """FAQ: "Puedes gastar una moneda en cualquier momento antes de la fase REFRESH, solo una vez por
    turno"; rules text: each player starts with 3 coins and a spent coin is gone."""
    st = start({}, ["meat", "iron"], hands=[[20, 21], [22, 23]], coins=(2, 0))
    play(st, "coin", "bottom K20", "bottom K21")
    assert refused(st, "coin") == "You can spend a coin only once per turn."
    st = start({}, ["meat", "iron"], hands=[[20, 21], [22, 23]], coins=(0, 2))
    assert refused(st, "coin") == "You have no coins left."


def test_placing_on_a_full_space_is_refused() -> None:
    """Rules text: "la colocas en un espacio vacío o encima de una pila (máximo 3 fichas por espacio)"."""
    st = start({"c5": ["potion", "potion", "plant"]}, ["crystal", "iron"])
    assert refused(st, "place c5") == "Space c5 already holds 3 tokens."


def test_fire_only_an_ability_of_the_token_that_can_do_something() -> None:
    """D6: a token fires one of its own abilities, and "an ability with nothing legal to do does nothing"."""
    st = start({}, ["meat", "iron"], coins=(1, 0))
    play(st, "place c3")
    assert refused(st, "fire bread") == "The meat token has no bread ability."
    assert refused(st, "fire meat") == "The meat ability has nothing to do here."
    assert refused(st, "take meat") == "take meat is not possible now: fire up the token or skip."


def test_a_token_a_plant_uses_must_fire() -> None:
    """D6: "Plant: use the ability of one adjacent top token, as if fired where it stands": the plant's
    ability is already chosen, so the token used cannot be skipped; and it cannot be the plant itself, which
    has fired in this chain (D6: each token fires at most once in a chain)."""
    st = start({"c4": ["plant"], "b4": ["bread"]}, ["plant+meat", "iron", "iron"], coins=(1, 0))
    play(st, "place c3", "fire plant", "use c4")
    assert refused(st, "skip") == "The plant uses this token: choose one of its abilities."
    play(st, "fire plant")
    assert refused(st, "use c3") == "The token on c3 has already fired in this chain."
    assert refused(st, "use e1") == "e1 is not next to the firing token on c4."


def test_a_plant_uses_only_a_token_that_can_do_something() -> None:
    """D6: "an ability with nothing legal to do does nothing": a plant cannot use a crystal with nothing to
    draw; and a space with no token has no ability to use."""
    st = start({"c4": ["meat"], "c2": ["crystal"]}, ["plant"], reserve=[], coins=(1, 0))
    play(st, "place c3", "fire plant")
    assert refused(st, "use c2") == "The token on c2 has no ability that can do something."
    assert refused(st, "use d3") == "There is no token on d3."
    assert refused(st, "place c1") == "place c1 is not possible now: use the ability of a token next to the plant."


def test_crystal_keeps_one_of_the_tokens_it_drew() -> None:
    """FAQ: "Cuando usas la habilidad CRYSTAL, robas 3 fichas, eliges una para colocarla"."""
    st = start({}, ["crystal", "meat", "iron", "potion", "plant"])
    play(st, "place c3", "fire crystal")
    assert refused(st, "take bread") == "No bread token was drawn."
    assert refused(st, "done") == "done is not possible now: keep one of the tokens the crystal drew."


def test_meat_moves_an_adjacent_token_to_a_space_with_room() -> None:
    """D6: "Meat: move one top token adjacent to the meat to any other legal space"; FAQ: "La pila nunca
    puede tener más de 3 fichas, ni siquiera temporalmente"."""
    st = start({"c4": ["bread"], "a1": ["iron", "iron", "iron"]}, ["meat", "iron"])
    play(st, "place c3", "fire meat")
    assert refused(st, "move c4 a1") == "Space a1 already holds 3 tokens: no stack ever exceeds 3."
    assert refused(st, "move a1 c4") == "a1 is not next to the firing token on c3."
    assert refused(st, "move d3 a2") == "There is no token on d3."
    assert refused(st, "swap c3 c4") == "swap c3 c4 is not possible now: move a token next to the meat."


def test_iron_moves_two_different_tokens_by_one_space_each() -> None:
    """D6: "Iron: move one or two different top tokens adjacent to the iron, each by one space"."""
    st = start({"c4": ["meat"], "b2": ["bread"]}, ["iron", "crystal"])
    play(st, "place c3", "fire iron")
    assert refused(st, "move c4 e3") == "The iron moves a token by one space: e3 is not next to c4."
    play(st, "move c4 d3")  # d3 is next to the iron too
    assert refused(st, "move d3 d2") == "The iron moves two different tokens: this one has moved."
    assert refused(st, "skip") == "skip is not possible now: move a token next to the iron by one space."


def test_potion_swaps_two_top_tokens() -> None:
    """D6: "Potion: swap two top tokens anywhere on the board"."""
    st = start({"a1": ["meat"], "e3": ["meat"], "b1": ["iron"]}, ["potion", "crystal"])
    play(st, "place c3", "fire potion")
    assert refused(st, "swap a2 b1") == "There is no token on a2."
    assert refused(st, "swap b1 a2") == "There is no token on a2."
    assert refused(st, "swap a1 e3") == "Swapping two meat tokens changes nothing."
    assert refused(st, "use a1") == "use a1 is not possible now: swap two top tokens."


def test_score_phase_and_the_end_say_what_is_expected() -> None:
    """Rules text: "En SCORE, ... puntúas la carta"; D8: after the last chance the match is over."""
    st = start({}, ["meat", "iron"], hands=[[20, 21], [22, 23]], coins=(1, 0))
    play(st, "place c3", "skip")
    assert refused(st, "place c4") == "place c4 is not possible now: score a card, spend a coin or finish."
    st = start({}, [], hands=[[20, 21], [22, 23]])  # nothing to draw: the match ends at once (D8)
    assert st.outcome is not None
    assert refused(st, "done") == "The match is over."


# ---------------------------------------------------------------- clone


def views(st: DualsState) -> list[object]:
    return [st.view(seat) for seat in (0, 1, None)]


def playout(st: DualsState, moves: int) -> list[object]:
    """What every seat sees along ``moves`` decisions, taking the first legal action each time."""
    seen: list[object] = []
    for _ in range(moves):
        if st.outcome is not None:
            break
        st.apply(st.legal_actions()[0])
        seen.append(views(st))
    return seen


CLONE_POINTS = {
    # the coin's cards being put back: the bottom cards known to their seat (D10), the coin spent this turn
    "bottom": ({"c4": ["meat"]}, ["iron", "crystal", "potion", "meat"], ("coin", "bottom K20")),
    # the iron's first move made (D6): its destination and the tokens fired in the chain
    "iron": ({"c4": ["meat"], "b2": ["bread"]}, ["iron", "bread", "meat"], ("place c3", "fire iron", "move c4 d3")),
    # crystal's three tokens drawn (D6), the reserve entered the bag (D7)
    "crystal": ({}, ["crystal", "meat"], ("place c3", "fire crystal")),
    # a plant using a plant: no skip, the chain's fired tokens (D6)
    "plant": ({"c4": ["plant"], "b4": ["bread"]}, ["plant+meat", "iron", "iron"], ("place c3", "fire plant", "use c4")),
    # the match over (D8: the turn's draw emptied the bag, then the opponent's last chance)
    "over": ({}, ["meat"], ("place c3", "skip", "done", "done")),
}


@pytest.mark.parametrize("point", sorted(CLONE_POINTS))
def test_a_clone_plays_on_exactly_like_the_match_and_apart_from_it(point: str) -> None:
    """The engine's ``clone`` (used by the search bots to read ahead) is the same match: every seat sees the
    same, the same actions are legal, the same moves lead to the same sights; and playing on one leaves the
    other as it was."""
    board, bag, moves = CLONE_POINTS[point]
    st = start(board, bag, reserve=["bread", "crystal", "meat", "iron", "potion", "plant"],
               hands=[[20, 21], [22, 23]], deck=[10, 11, 12, 13, 14, 15], coins=(2, 2), seed=7)
    play(st, *moves)
    assert (st.outcome is not None) == (point == "over")
    twin = st.clone()
    assert views(twin) == views(st)
    assert twin.legal_actions() == st.legal_actions()
    assert twin.outcome == st.outcome
    before = views(st)
    ahead = playout(twin, 30)
    assert views(st) == before  # the original did not move
    assert playout(st, 30) == ahead
    assert twin.outcome == st.outcome


# ---------------------------------------------------------------- the turn and the end


def test_d8_the_last_chance_has_its_own_coin() -> None:
    """D8: "the opponent then gets one last chance to score and to spend a coin": the coin is once per turn
    (FAQ), and the last chance is the opponent's own turn, so a coin the triggering player spent does not
    take it away. Turns are counted from 1, the last chance included."""
    st = start({}, ["meat"], hands=[[20, 21], [22, 23]], deck=[10, 11, 12, 13, 14, 15], coins=(1, 1))
    view = st.view(0)
    assert (view.turn_number, view.end_triggered, view.last_chance) == (1, True, False)  # the draw emptied the bag
    play(st, "coin", "bottom K20", "bottom K21", "place c3")
    view = st.view(1)
    assert (view.turn, view.turn_number, view.last_chance, view.phase) == (1, 2, True, Step.SCORE)
    assert [a.text() for a in st.legal_actions()] == ["done", "coin"]
    play(st, "coin", "bottom K22", "bottom K23")
    assert st.outcome is not None
    assert st.view(None).phase is Step.OVER
    assert st.legal_actions() == []
    # D9: no card scored, no coin left: 0 VP each, no card each, a shared victory.
    assert st.outcome.winner is None
    assert st.outcome.scores == (0, 0)


def test_d7_tokens_crystal_returns_go_into_the_bag_at_random_places() -> None:
    """FAQ: crystal "devuelves las otras dos a la bolsa"; D7 (extension, docs/duals.md): "Tokens returned to
    the bag go in at random places." So the next token drawn is any of the three in the bag alike: the one
    that stayed in the bag is drawn next in about a third of the matches (here 300 seeded matches)."""
    first = 0
    for seed in range(300):
        st = start({}, ["crystal", "meat", "iron", "potion", "plant"], seed=seed)
        play(st, "place c3", "fire crystal", "take meat", "place c4")
        # the engine ended player 0's turn (nothing to score, no coin); player 1 drew the bag's top token
        view = st.view(None)
        assert (view.turn, view.phase) == (1, Step.PLACE)
        assert sorted(DATA.kind_names[k] for k in (view.held, *(k for k, n in enumerate(view.bag) for _ in range(n)))) \
            == ["iron", "plant", "potion"]
        first += DATA.kind_names[view.held] == "plant"
    assert 75 <= first <= 125  # 100 expected; a returned token put on top more often would show


# ---------------------------------------------------------------- matching after the board changes (D5)


def test_d5_after_a_swap_cards_match_the_new_top_tokens() -> None:
    """D5: "A card matches when its pattern, in any rotation, lies on the board's top tokens." A potion swap
    changes only the two tokens swapped: the line of bread elsewhere still matches, and the one iron moved
    makes no line of iron."""
    bread, iron = line("bread"), line("iron")
    st = start({"c1": ["bread"], "c2": ["bread"], "c3": ["bread"], "a1": ["bread"], "e3": ["iron"]},
               ["potion", "crystal"], hands=[[bread, iron], [22, 23]], coins=(1, 0))
    play(st, "place d1", "fire potion", "swap a1 e3")
    assert (on(st, "a1"), on(st, "e3")) == (["iron"], ["bread"])
    assert st.view(0).matching == (bread,)
    assert [a.text() for a in st.legal_actions()] == ["done", "coin", f"score K{bread}"]


def test_d5_a_token_moved_off_a_stack_uncovers_the_one_below() -> None:
    """D5 and FAQ: "las habilidades de las fichas de dragón solo afectan a la ficha que actualmente está en lo
    alto de una pila ... aunque esto pueda cambiar durante el turno si mueves fichas": a meat moving the iron
    off a stack uncovers the bread below, which completes the line of bread; the iron's new place makes
    no line."""
    bread, iron = line("bread"), line("iron")
    st = start({"c1": ["bread"], "c2": ["bread"], "c3": ["bread", "iron"]}, ["meat", "crystal"],
               hands=[[bread, iron], [22, 23]], coins=(1, 0))
    assert st.view(0).matching == ()
    play(st, "place d3", "fire meat", "move c3 a1")
    assert (on(st, "c3"), on(st, "a1")) == (["bread"], ["iron"])
    assert st.view(0).matching == (bread,)
    play(st, f"score K{bread}")
    assert st.view(0).seats[0].pile == (bread,)


@pytest.mark.parametrize("more", [0, 1])
def test_d9_equal_vp_more_scored_cards_wins_for_either_seat(more: int) -> None:
    """D9: "Most VP wins; equal: more scored cards"; rules text: "en empate, gana quien tenga más cartas
    puntuadas". Three 2-VP cards against two 3-VP cards: 6 VP each, and the seat with three cards wins,
    whichever seat it is. (Nothing left to draw: the match ends at once, D8.)"""
    three = [pair_end("bread", "meat"), pair_end("meat", "bread"), pair_end("iron", "plant")]
    two = [line("bread"), line("meat")]
    st = start({}, [], scores=[three, two] if more == 0 else [two, three])
    assert st.outcome is not None
    assert (st.outcome.winner, st.outcome.reason, st.outcome.scores) == (more, Reason.MORE_CARDS, (6, 6))


# ---------------------------------------------------------------- the iron's two moves (D6), the end of a chain


@pytest.mark.parametrize("second", ["done", "move a3 b3"])
def test_d6_iron_after_a_first_move_onto_any_space_a_second_token_or_done(second: str) -> None:
    """D6: "Iron: move one or two different top tokens adjacent to the iron, each by one space". After the
    first move, onto whichever space (here a1, the board's first), the player moves a second token or is
    done, and then the chain is over: the SCORE phase, no token firing and no iron move pending for anyone."""
    st = start({"b2": ["bread"], "a3": ["meat"]}, ["iron", "crystal"], hands=[[20, 21], [22, 23]], coins=(1, 0))
    play(st, "place a2", "fire iron", "move b2 a1")
    assert on(st, "a1") == ["bread"]
    assert "done" in legal(st)
    assert "move a1 b1" not in legal(st)  # the token moved first stays where it went
    play(st, second)
    view = st.view(None)
    assert view.phase is Step.SCORE
    assert (view.src, view.iron_dest) == (-1, -1)
    assert (view.to_json()["src"], view.to_json()["iron_dest"]) == (None, None)


def test_a_view_is_for_seat_0_1_or_a_spectator() -> None:
    """D10: each seat sees its own view, a spectator (None) the public one; any other seat is refused."""
    st = start({}, ["meat", "iron"])
    for seat in (2, -1):
        with pytest.raises(ValueError, match=rf"^seat must be 0, 1 or None, got {seat}$"):
            st.view(seat)


# ---------------------------------------------------------------- meat on a board of any shape (D1, D6)

LINE_DATA = """
[set]
id = "line"
version = 1
name = { en = "Line", es = "Línea" }

[board]
inner = ["x1", "x2", "x3", "x4", "x5", "x6"]
spaces = [
  { name = "x1", q = 0, r = 0 }, { name = "x2", q = 1, r = 0 }, { name = "x3", q = 2, r = 0 },
  { name = "x4", q = 3, r = 0 }, { name = "x5", q = 4, r = 0 }, { name = "x6", q = 5, r = 0 },
  { name = "x7", q = 6, r = 0 },
]

[tokens]
fire_up_order = ["bread", "crystal", "meat", "iron", "potion", "plant"]
artisans_per_type = 2
duals = [["bread", "crystal"], ["crystal", "iron"], ["iron", "potion"], ["potion", "plant"], ["plant", "meat"],
         ["meat", "bread"]]
buddy = 1

[[card]]
number = 1
vp = 1
cells = [{ at = [0, 0], type = "bread" }]
"""


@pytest.mark.parametrize("open_space", ["x2", "x3"])
def test_d6_meat_moves_a_token_to_another_space_never_back_onto_its_own(open_space: str) -> None:
    """D6: "Meat: move one top token adjacent to the meat to any *other* legal space", on a board of any
    shape (D1: the board is data; here every token of the data is in play, D11's Buddy included). On a line of
    seven spaces, the meat placed on the end space x1 has one neighbour, x2. When x2 is the only space with
    room, its token has nowhere else to go: the meat has nothing to do (the meat is not offered). When another
    space (x3) has room, the token on x2 moves there."""
    from flametable.core.data import load_toml
    from flametable.games.duals.data import parse_duals_data
    from flametable.games.duals.game import DualsGame

    data = parse_duals_data(load_toml("line.toml", text=LINE_DATA), "line.toml")
    board = {"x1": ["potion", "plant"], "x2": ["bread"], "x3": ["crystal", "iron"], "x4": ["bread", "crystal", "iron"],
             "x5": ["meat", "potion", "plant"], "x6": ["meat+bread", "bread+crystal", "buddy"],
             "x7": ["crystal+iron", "iron+potion", "plant+meat"]}
    if open_space == "x2":
        board["x3"] = [*board["x3"], "potion+plant"]
    game = DualsGame(data)
    st = game.new_match({"buddy": True}, 0, setup={"board": board, "bag": ["meat"], "deck": [], "coins": [1, 0]})
    st.apply(game.action_from_text("place x1"))
    if open_space == "x2":
        assert [a.text() for a in st.legal_actions()] == ["skip", "coin"]  # the meat has nothing to do
        with pytest.raises(IllegalAction):
            st.apply(game.action_from_text("fire meat"))
    else:
        assert [a.text() for a in st.legal_actions()] == ["skip", "coin", "fire meat"]
        st.apply(game.action_from_text("fire meat"))
        assert [a.text() for a in st.legal_actions()] == ["coin", "move x2 x3"]


def test_d6_an_iron_whose_neighbours_cannot_move_has_nothing_to_do() -> None:
    """D6: "Iron: move one or two different top tokens adjacent to the iron, each by one space", and "an
    ability with nothing legal to do does nothing": no stack ever exceeds 3 (FAQ), so when every space next to
    the iron's neighbours is full, the iron is not offered."""
    board = {"a2": ["bread", "crystal", "meat"], "a3": ["bread", "crystal", "meat"],
             "b1": ["bread", "crystal", "meat"], "b2": ["bread", "crystal", "meat"],
             "b3": ["bread", "crystal", "potion"], "c1": ["bread", "crystal", "plant"],
             "c2": ["meat", "potion", "plant"], "c3": ["meat", "potion", "plant"], "a1": ["potion", "plant"]}
    st = start(board, ["iron", "meat+bread"], hands=[[20, 21], [22, 23]], coins=(1, 0))
    play(st, "place a1")
    assert legal(st) == ["skip", "coin"]
    assert refused(st, "fire iron") == "The iron ability has nothing to do here."


def test_d6_a_potion_needs_two_top_tokens_of_different_kinds() -> None:
    """D6: "Potion: swap two top tokens anywhere on the board"; swapping two tokens of one kind changes
    nothing, so with only potions on top the potion is not offered; one other kind anywhere is enough."""
    st = start({"a1": ["potion"], "e3": ["bread", "potion"]}, ["potion", "crystal"], hands=[[20, 21], [22, 23]],
               coins=(1, 0))
    play(st, "place c3")
    assert legal(st) == ["skip", "coin"]
    st = start({"a1": ["potion"], "e3": ["meat"]}, ["potion", "crystal"], hands=[[20, 21], [22, 23]],
               coins=(1, 0))
    play(st, "place c3")
    assert legal(st) == ["skip", "coin", "fire potion"]
    play(st, "fire potion")
    assert refused(st, "swap a1 a2") == "There is no token on a2."


def test_d6_a_potion_swaps_with_a_bread_on_the_first_space() -> None:
    """D6: "Potion: swap two top tokens anywhere on the board": the potion just placed and one bread, on the
    board's first space, are two top tokens of different kinds: the potion is offered and swaps them."""
    st = start({"a1": ["bread"]}, ["potion", "crystal"], hands=[[20, 21], [22, 23]], coins=(1, 0))
    play(st, "place c3")
    assert legal(st) == ["skip", "coin", "fire potion"]
    play(st, "fire potion")
    assert legal(st) == ["coin", "swap a1 c3"]


def test_d6_a_plant_with_no_neighbour_to_use_has_nothing_to_do() -> None:
    """D6: "Plant: use the ability of one adjacent top token" and "an ability with nothing legal to do does
    nothing": a plant placed with no token next to it is not offered."""
    st = start({"a1": ["bread"]}, ["plant", "crystal"], hands=[[20, 21], [22, 23]], coins=(1, 0))
    play(st, "place c3")
    assert legal(st) == ["skip", "coin"]
    assert refused(st, "fire plant") == "The plant ability has nothing to do here."


def test_nothing_fires_at_the_start_of_a_match_or_of_a_turn() -> None:
    """A view tells every seat which token fires and where the iron's first move went, and "none" when no
    chain is under way: at the start of the match and at the start of the next turn (D6: the chain belongs to
    one turn)."""
    st = start({}, ["meat", "iron", "crystal"])
    for turn, where in enumerate(["c3", "a1"]):
        view = st.view(None)
        assert (view.turn, view.phase) == (turn, Step.PLACE)
        assert (view.src, view.iron_dest) == (-1, -1)  # the view's "none"
        assert (view.to_json()["src"], view.to_json()["iron_dest"]) == (None, None)
        play(st, f"place {where}")  # alone on the board, the token has nothing to do: the turn ends by itself
