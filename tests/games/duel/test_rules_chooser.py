"""Who chooses the stat (R5), in every case the rules and the ruling name."""

from __future__ import annotations

import pytest

from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DRAW, DuelState
from tests.games.duel.scripted import (
    CHARM,
    GAME,
    STATS,
    characters,
    charm,
    inert,
    line_up,
    lineups_for,
    pick_champions,
    plain,
    play,
    printed,
    start,
    stat_word,
    texts,
)


def _chooser(st: DuelState) -> int | None:
    return st.view(None).chooser


@pytest.mark.parametrize("lower_seat", [0, 1])
def test_r5_round1_lower_card_number_chooses(lower_seat: int) -> None:
    """R5: "Round 1: the player whose flipped character has the lower card number" chooses."""
    a, b, c, d, e, f = sorted(characters(plain)[:6])
    # the lower number is flipped first by ``lower_seat``; its other characters have higher numbers
    low = [a, e, f]
    high = [b, c, d]
    lineups = [low, high] if lower_seat == 0 else [high, low]
    st = start(lineups, hands=[[], []])
    assert st.phase is Phase.STAT
    assert st.chooser == lower_seat
    assert st.to_act == lower_seat
    for seat in (0, 1, None):
        assert st.view(seat).chooser == lower_seat
    assert st.view(lower_seat).legal != ()
    assert st.view(1 - lower_seat).legal == ()


def test_rules_first_round_the_lowest_card_number_chooses() -> None:
    """"In the first round, the player whose character has the lowest card number chooses" (the flipped
    character counts, not the lowest number in the whole line-up)"""
    chars = sorted(characters(plain)[:6])
    # seat 0 holds the lowest number of all, but flips a high one
    st = start([[chars[5], chars[0], chars[1]], [chars[2], chars[3], chars[4]]], hands=[[], []])
    assert st.chooser == 1
    assert st.to_act == 1


def _same_first(seed: int) -> int:
    a, b, c = characters(plain)[:3]
    st = start([[a, b, c], [a, c, b]], hands=[[], []], piles=[[], []], mode="decks", seed=seed)
    assert st.phase is Phase.STAT
    assert st.current == [a, a]
    assert st.to_act == st.chooser
    return st.chooser


def test_r5_same_number_coin_flip_in_own_decks_mode() -> None:
    """R5: "the same number (own decks only) is settled by a coin flip." Rules: "(same card? flip a coin)".
    Scripted own-decks line-ups that flip the same character: the chooser is 0 or 1, the same for the same seed,
    and both happen over seeds."""
    choosers = [_same_first(seed) for seed in range(16)]
    assert set(choosers) == {0, 1}
    assert [_same_first(seed) for seed in range(16)] == choosers  # deterministic per seed


def test_rules_first_round_same_card_flip_a_coin() -> None:
    """"In the first round, the player whose character has the lowest card number chooses (same card? flip a coin)."
    (R5: "the same number (own decks only) is settled by a coin flip."; own decks with the same characters, lined up
    so that both flip the same card first: the chooser is the same for the same seed, and both seats happen)"""
    a, b, c = characters(plain)[:3]
    deck = {"characters": [a, b, c], "supports": inert(None, 4) + list(range(18, 22))}
    choosers = []
    for seed in range(16):
        results = []
        for _ in range(2):
            st = GAME.new_match({"mode": "decks", "decks": [deck, deck]}, seed)
            line_up(st, [[b, a, c], [b, c, a]])
            assert st.current == [b, b]
            assert st.phase is Phase.STAT
            assert st.to_act == st.chooser
            results.append(st.chooser)
        assert results[0] == results[1]  # deterministic per seed
        choosers.append(results[0])
    assert set(choosers) == {0, 1}


def test_rules_chooser_picks_spark_heat_or_charm() -> None:
    """"Whoever lost the previous round chooses whether you compete on Spark, Heat or Charm." (the three stats
    are the choice, and the chosen one is the round's stat for everyone)"""
    lin, _ = lineups_for("0")
    for stat in STATS:
        st = start(lin, hands=[inert(stat, 1), inert(stat, 2)[1:]])
        assert sorted(texts(st.legal_actions())) == ["stat charm", "stat heat", "stat spark"]
        play(st, stat_word(stat))
        assert st.phase is Phase.PLAY
        for seat in (0, 1, None):
            assert st.view(seat).stat == stat


@pytest.mark.parametrize("winner", [0, 1])
def test_rules_whoever_lost_the_previous_round_chooses(winner: int) -> None:
    """"Whoever lost the previous round chooses whether you compete on Spark, Heat or Charm." """
    lin, stats = lineups_for(str(winner) + str(winner))
    st = start(lin, hands=[[], []])
    round1_chooser = st.chooser
    play(st, stat_word(stats[0]))  # empty hands: both pass at once
    assert st.results[0].winner == winner
    assert st.results[0].chooser == round1_chooser
    assert st.phase is Phase.STAT
    assert st.chooser == 1 - winner
    assert st.to_act == 1 - winner
    assert _chooser(st) == 1 - winner


@pytest.mark.parametrize("outcomes", ["01", "10", "00", "11"])
def test_r5_after_a_won_round_the_loser_chooses(outcomes: str) -> None:
    """R5: "After a won round: the loser." (whoever chose that round)"""
    lin, stats = lineups_for(outcomes)
    st = start(lin, hands=[[], []])
    play(st, stat_word(stats[0]))
    loser = 1 - int(outcomes[0])
    assert st.chooser == loser
    assert st.to_act == loser
    if outcomes[0] != outcomes[1]:
        play(st, stat_word(stats[1]))
        assert st.results[1].winner == int(outcomes[1])
        assert st.chooser == 1 - int(outcomes[1])
        assert st.to_act == 1 - int(outcomes[1])
        assert st.round_no == 2


def test_rules_after_a_draw_whoever_did_not_choose_last_time_picks() -> None:
    """"After a draw, whoever didn't choose last time picks." """
    lin, stats = lineups_for("DDD")
    st = start(lin, hands=[[], []])
    first = st.chooser
    assert first == (0 if lin[0][0] < lin[1][0] else 1)
    play(st, stat_word(stats[0]))
    assert st.results[0].winner == DRAW
    assert st.chooser == 1 - first
    assert st.to_act == 1 - first
    play(st, stat_word(stats[1]))
    assert st.results[1].winner == DRAW
    assert st.chooser == first


def test_r5_after_a_drawn_round_the_player_who_did_not_choose() -> None:
    """R5: "After a drawn round: the player who did not choose in that round." (a draw after a won round)"""
    lin, stats = lineups_for("0D1")
    st = start(lin, hands=[[], []])
    play(st, stat_word(stats[0]))
    assert st.chooser == 1  # the loser of round 1
    play(st, stat_word(stats[1]))
    assert st.results[1].winner == DRAW
    assert st.results[1].chooser == 1
    assert st.chooser == 0  # did not choose round 2
    assert st.to_act == 0


@pytest.mark.parametrize(("outcomes", "last_loser"), [("01D", None), ("D01", 0), ("1D0", 1), ("10D", None)])
def test_r5_tiebreak_round_follows_the_rule_applied_to_the_last_round(outcomes: str, last_loser: int | None) -> None:
    """R5: "The tie-break round (R14) follows the same rule applied to the last round played." Rules: "(the loser
    of the last round picks the stat)" """
    lin, stats = lineups_for(outcomes)
    st = start(lin, hands=[[], []])
    for stat in stats:
        play(st, stat_word(stat))
    assert [r.winner for r in st.results] == [DRAW if o == "D" else int(o) for o in outcomes]
    pick_champions(st)
    assert st.round_no == 3
    assert st.phase is Phase.STAT
    last = st.results[2]
    expected = last_loser if last_loser is not None else 1 - last.chooser
    if last_loser is not None:
        assert last.winner == 1 - last_loser
    assert st.chooser == expected
    assert st.to_act == expected
    assert st.view(None).round_number == 4


def test_rules_tiebreak_the_loser_of_the_last_round_picks_the_stat() -> None:
    """"If it's still tied at the end, one last round settles it with each player's most charming character (the
    loser of the last round picks the stat)." """
    lin, stats = lineups_for("1D0")  # 1-1 after three rounds; seat 1 lost the last one
    st = start(lin, hands=[[], []])
    for stat in stats:
        play(st, stat_word(stat))
    pick_champions(st)
    assert st.results[-1].winner == 0
    assert st.chooser == 1
    assert st.to_act == 1
    # the tie-break is played with the most charming characters
    for p in (0, 1):
        assert st.current[p] in lin[p]
        assert charm(st.current[p]) == max(charm(c) for c in lin[p])
    play(st, "stat charm")
    res = st.results[-1]
    assert res.number == 4
    assert res.chooser == 1
    assert res.stat == CHARM
    assert res.totals == (printed(st.current[0], CHARM), printed(st.current[1], CHARM))
