"""The end of the match (R14): two wins, more wins after three rounds, the tie-break round, a tied match."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duel.cards import Stat
from flametable.games.duel.rules import Phase, Reason
from flametable.games.duel.state import DRAW, DuelState
from tests.games.duel.scripted import (
    ALL_SUPPORTS,
    CHARM,
    PLACE,
    STATS,
    WANT,
    characters,
    charm,
    lineups_for,
    pick_champions,
    plain,
    play,
    printed,
    quiet,
    start,
    stat_word,
    sup,
    supports,
    texts,
    top_first,
)


def _play_rounds(st: DuelState, stats: Iterable[Stat]) -> None:
    """Play rounds where everybody passes: choose the stat, then pass until the round is over."""
    for stat in stats:
        assert st.phase is Phase.STAT
        done = len(st.results)
        play(st, stat_word(stat))
        while len(st.results) == done:
            play(st, "pass")


@pytest.mark.parametrize("outcomes", ["00", "11"])
def test_rules_if_someone_wins_the_first_two_that_is_it(outcomes: str) -> None:
    """"Whoever wins 2 of the 3 rounds: if someone wins the first two, that's it." (R14: "A player with 2 round wins
    wins at once.")"""
    lin, stats = lineups_for(outcomes)
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats)
    winner = int(outcomes[0])
    assert len(st.results) == 2
    assert st.phase is Phase.OVER
    assert st.to_act is None
    assert st.legal_actions() == []
    assert st.outcome is not None
    assert st.outcome.winner == winner
    assert st.outcome.reason is Reason.TWO_WINS
    assert st.outcome.scores == ((2, 0) if winner == 0 else (0, 2))
    for seat in (0, 1, None):
        assert st.view(seat).outcome == st.outcome
        assert st.view(seat).to_act is None


@pytest.mark.parametrize("outcomes", ["010", "101", "100", "D00", "0D0", "1D1", "D11"])
def test_r14_a_player_with_2_round_wins_wins_the_match(outcomes: str) -> None:
    """R14: "A player with 2 round wins wins at once." Rules: "Whoever wins 2 of the 3 rounds" """
    lin, stats = lineups_for(outcomes)
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats)
    winner = 0 if outcomes.count("0") == 2 else 1
    assert [r.winner for r in st.results] == [WANT[o] for o in outcomes]
    assert st.phase is Phase.OVER
    assert st.outcome is not None
    assert st.outcome.winner == winner
    assert st.outcome.reason is Reason.TWO_WINS
    wins = (outcomes.count("0"), outcomes.count("1"))
    assert st.outcome.scores == wins


@pytest.mark.parametrize("outcomes", ["0DD", "D0D", "DD0", "1DD", "D1D", "DD1"])
def test_rules_if_after_three_rounds_someone_has_more_wins_they_win(outcomes: str) -> None:
    """"If after three rounds someone has more wins (thanks to draws), they win." (R14: "After round 3, more round wins
    wins.")"""
    lin, stats = lineups_for(outcomes)
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats[:2])
    assert st.outcome is None  # 1-0 after two rounds is not over
    assert st.phase is Phase.STAT
    _play_rounds(st, stats[2:])
    winner = int(outcomes.replace("D", ""))
    assert len(st.results) == 3
    assert st.phase is Phase.OVER
    assert st.to_act is None
    assert st.outcome is not None
    assert st.outcome.winner == winner
    assert st.outcome.reason is Reason.MORE_WINS
    assert st.outcome.scores == ((1, 0) if winner == 0 else (0, 1))


@pytest.mark.parametrize("outcomes", ["01D", "10D", "D01", "D10", "0D1", "1D0", "DDD"])
def test_rules_if_still_tied_at_the_end_one_last_round_settles_it(outcomes: str) -> None:
    """"If it's still tied at the end, one last round settles it with each player's most charming character (the loser
    of the last round picks the stat)." (R14: "Otherwise a tie-break round: each player plays their character with
    the highest printed Charm")"""
    lin, stats = lineups_for(outcomes)
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats)
    assert st.outcome is None
    assert len(st.results) == 3
    pick_champions(st)
    assert st.phase is Phase.STAT
    assert st.round_no == 3
    for p in (0, 1):
        assert st.current[p] in lin[p]
        assert charm(st.current[p]) == max(charm(c) for c in lin[p])
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.round_number == 4
        assert view.seats[0].character == st.current[0]
        assert view.seats[1].character == st.current[1]
    last = st.results[-1]
    assert st.chooser == (1 - last.winner if last.winner != DRAW else 1 - last.chooser)


def _champion_lineups(
    outcomes: str, champions: dict[int, list[int]], everyone: bool = False
) -> tuple[list[list[int]], list[Stat]]:
    """Line-ups for ``outcomes`` where ``champions[seat]`` are that seat's most charming characters (all with the
    same Charm, in the first positions) and its other characters have less Charm. Plain characters only, unless
    ``everyone`` (abilities are never triggered in these rounds)."""
    fixed = {(p, i): c for p, cs in champions.items() for i, c in enumerate(cs)}
    best = {p: charm(cs[0]) for p, cs in champions.items()}
    plains = characters() if everyone else characters(plain)

    def pool(seat: int, pos: int) -> list[int]:
        return [c for c in plains if charm(c) < best[seat]] if seat in best else plains

    return lineups_for(outcomes, fixed=fixed, pool=pool)


def _tied_pair() -> tuple[int, int]:
    """Two plain characters with the same Charm, with plain characters of less Charm to fill line-ups."""
    plains = characters(plain)
    for a in plains:
        for b in plains:
            if a < b and charm(a) == charm(b) and len([c for c in plains if charm(c) < charm(a)]) >= 4:
                return a, b
    raise LookupError("no two plain characters with the same Charm")


def test_r14_tiebreak_hands_and_the_place_carry_over() -> None:
    """R14: "hands and the place carry over; the stat chooser per R5." """
    lin, stats = lineups_for("01D")
    places = supports(lambda s: s.kind is PLACE and not s.effects and s.stat not in stats)
    assert places, "need a place of a stat the first three rounds do not use"
    place = places[0]
    hand = quiet(3, exclude=[place])
    pile = [s for s in ALL_SUPPORTS if s not in (place, *hand)][:6]
    st = start(lin, hands=[hand[:2], hand[2:]], piles=[pile], place=(place, 1))
    _play_rounds(st, stats)
    # three clean-ups, each drawing for the chooser first (R13)
    expected = [list(hand[:2]), list(hand[2:])]
    order = iter(pile)
    for res in st.results:
        expected[res.chooser].append(next(order))
        expected[1 - res.chooser].append(next(order))
    pick_champions(st)
    assert st.round_no == 3
    assert st.hands == expected
    assert top_first(st) == []
    assert st.place == place
    assert st.place_owner == 1
    # the place's bonus counts for its owner in the tie-break round too (R8)
    stat = sup(place).stat
    play(st, stat_word(stat))
    while len(st.results) == 3:
        play(st, "pass")
    assert st.results[3].totals == (printed(st.current[0], stat), printed(st.current[1], stat) + sup(place).bonus)
    assert st.phase is Phase.OVER


def test_r14_a_player_with_several_tied_picks_one() -> None:
    """R14: "each player plays their character with the highest printed Charm (a player with several tied picks
    one)" """
    a, b = _tied_pair()
    plains = characters(plain)
    y = next(c for c in plains if c not in (a, b) and charm(c) != charm(a)
             and len([x for x in plains if charm(x) < charm(c) and x not in (a, b)]) >= 2)
    lin, stats = _champion_lineups("01D", {0: [a, b], 1: [y]})
    third = lin[0][2]
    assert charm(third) < charm(a)
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats)
    assert st.phase is Phase.CHAMPION
    assert st.to_act == 0
    assert texts(st.legal_actions()) == [f"champion C{c}" for c in sorted([a, b])]
    assert st.view(1).legal == ()
    for wrong in (third, y):
        with pytest.raises(IllegalAction) as err:
            play(st, f"champion C{wrong}")
        assert err.value.reason
    play(st, f"champion C{b}")
    assert st.phase is Phase.STAT
    assert st.current == [b, y]
    assert st.view(1).seats[0].character == b


def test_r14_both_players_with_tied_characters_each_pick_one() -> None:
    """R14: "(a player with several tied picks one)" (both players have tied characters: each is asked once)"""
    everyone = characters()
    pairs = [(a, b) for a in everyone for b in everyone if a < b and charm(a) == charm(b)]
    for a, b in pairs:
        for x, y in pairs:
            if {a, b} & {x, y}:
                continue
            try:
                lin, stats = _champion_lineups("01D", {0: [a, b], 1: [x, y]}, everyone=True)
            except LookupError:
                continue
            st = start(lin, hands=[[], []])
            _play_rounds(st, stats)
            wanted = {0: b, 1: x}
            asked = []
            while st.phase is Phase.CHAMPION:
                seat = st.to_act
                assert seat is not None
                asked.append(seat)
                play(st, f"champion C{wanted[seat]}")
            assert sorted(asked) == [0, 1]
            assert st.current == [b, x]
            assert st.phase is Phase.STAT
            return
    pytest.fail("no line-ups with tied characters on both sides")


def test_r14_its_winner_wins_the_match() -> None:
    """R14: "Its winner wins the match" (the tie-break round)"""
    lin, stats = lineups_for("D01")
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats)
    pick_champions(st)
    c0, c1 = st.current
    stat = next(s for s in STATS if printed(c0, s) != printed(c1, s))
    winner = 0 if printed(c0, stat) > printed(c1, stat) else 1
    _play_rounds(st, [stat])
    assert st.results[3].number == 4
    assert st.results[3].winner == winner
    assert st.phase is Phase.OVER
    assert st.to_act is None
    assert st.outcome is not None
    assert st.outcome.winner == winner
    assert st.outcome.reason is Reason.TIEBREAK


def test_rules_if_that_is_a_draw_too_the_match_ends_in_a_tie() -> None:
    """"If that's a draw too, the match ends in a tie." (R14: "a drawn tie-break makes the match a tie.")"""
    a, b = _tied_pair()
    lin, stats = _champion_lineups("10D", {0: [a], 1: [b]})
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats)
    pick_champions(st)
    assert st.current == [a, b]
    _play_rounds(st, [CHARM])  # same Charm: equal totals, equal printed Charm
    assert st.results[3].winner == DRAW
    assert st.phase is Phase.OVER
    assert st.to_act is None
    assert st.outcome is not None
    assert st.outcome.winner is None
    assert st.outcome.is_tie
    assert st.outcome.reason is Reason.TIED_MATCH
    for seat in (0, 1, None):
        assert st.view(seat).outcome == st.outcome


def test_r14_three_drawn_rounds_go_to_the_tiebreak() -> None:
    """R14: "Otherwise a tie-break round" (0-0 after three drawn rounds)"""
    lin, stats = lineups_for("DDD")
    st = start(lin, hands=[[], []])
    _play_rounds(st, stats)
    assert st.wins == [0, 0]
    assert st.outcome is None
    pick_champions(st)
    assert st.round_no == 3
    assert st.phase is Phase.STAT
    # R5 on the last (drawn) round: the player who did not choose it
    assert st.chooser == 1 - st.results[2].chooser
