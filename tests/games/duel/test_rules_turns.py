"""Turns in a round (R6): plays, passes, the engine's automatic passes, the ability's limits; illegal actions."""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duel.actions import PASS
from flametable.games.duel.cards import EffectKind
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState, Played
from tests.games.duel.scripted import (
    ALL_SUPPORTS,
    SPARK,
    first_support,
    inert,
    lineups_for,
    log_of,
    play,
    quiet,
    start,
    sup,
    texts,
    with_effect,
)


def _match(hand0: int = 3, hand1: int = 3, pile: int = 0) -> tuple[DuelState, list[list[int]]]:
    """Round 1 of a shared match, stat chosen: spark; seat 0 chooses; hands of inert items (no spark item)."""
    lin, _ = lineups_for("0")
    if lin[0][0] > lin[1][0]:
        lin = [lin[1], lin[0]]
    cards = quiet(hand0 + hand1, avoid=SPARK)
    hands = [cards[:hand0], cards[hand0:]]
    used = set(cards)
    rest = [s for s in ALL_SUPPORTS if s not in used and not sup(s).effects][:pile]
    st = start(lin, hands=hands, piles=[rest])
    assert st.chooser == 0
    play(st, "stat spark")
    return st, hands


def test_rules_starting_with_whoever_chose_take_turns() -> None:
    """"Starting with whoever chose, take turns: each player can play one card from their hand or pass, up to 2
    plays per player per round." (R6: "Starting with the chooser, players alternate.")"""
    for chooser in (0, 1):
        lin, _ = lineups_for("0")
        if (lin[0][0] < lin[1][0]) != (chooser == 0):
            lin = [lin[1], lin[0]]
        a, b, c, d = inert(SPARK, 4)
        st = start(lin, hands=[[a, b], [c, d]])
        assert st.chooser == chooser
        assert st.to_act == chooser  # the chooser chooses the stat...
        play(st, "stat spark")
        assert st.phase is Phase.PLAY
        assert st.to_act == chooser  # ... and plays first
        mine, theirs = ([a, b], [c, d]) if chooser == 0 else ([c, d], [a, b])
        play(st, f"play S{mine[0]}")
        assert st.to_act == 1 - chooser
        play(st, f"play S{theirs[0]}")
        assert st.to_act == chooser
        play(st, "pass")
        assert st.to_act == 1 - chooser


def test_rules_each_player_can_play_one_card_from_their_hand_or_pass() -> None:
    """"each player can play one card from their hand or pass" (R6: "On a turn a player plays one support card, or
    triggers the ability, or passes.")"""
    st, hands = _match()
    legal = texts(st.legal_actions())
    assert sorted(legal) == sorted(
        ["pass"] + [f"play S{s}" for s in hands[0]] + [f"ability S{s}" for s in hands[0]]
    )
    assert st.view(0).legal == tuple(st.legal_actions())
    assert st.view(1).legal == ()
    play(st, f"play S{hands[0][0]}")
    assert st.hands[0] == hands[0][1:]
    assert st.items[0] == [hands[0][0]]
    assert st.plays == [1, 0]
    assert st.to_act == 1


def test_rules_up_to_2_plays_per_player_per_round() -> None:
    """"up to 2 plays per player per round." (R6: "Each player makes at most 2 plays per round")"""
    st, hands = _match()
    play(st, f"play S{hands[0][0]}", f"play S{hands[1][0]}", f"play S{hands[0][1]}", f"play S{hands[1][1]}")
    # both have made 2 plays: the engine passes for both, the round is over, the third cards stay in hand
    assert st.results[0].number == 1
    assert st.round_no == 1
    assert st.phase is Phase.STAT
    assert st.hands == [[hands[0][2]], [hands[1][2]]]
    assert st.discards == [hands[0][:2], hands[1][:2]]


def test_r6_at_most_2_plays_a_third_is_never_offered() -> None:
    """R6: "Each player makes at most 2 plays per round (support cards and the ability together)" : after 2 plays
    a player is never asked again this round (no third play is ever legal)."""
    st, hands = _match()
    play(st, f"play S{hands[0][0]}", "pass", f"play S{hands[0][1]}")
    assert st.plays == [2, 0]
    assert st.to_act == 1
    play(st, f"play S{hands[1][0]}")
    # seat 0 (2 plays made) was passed for by the engine; seat 1 is asked again
    assert st.to_act == 1
    assert st.view(0).legal == ()
    assert log_of(st)[-1] == (0, "pass", True)
    play(st, f"play S{hands[1][1]}")
    # both have 2 plays: two passes in a row, the round is over
    assert st.round_no == 1
    assert st.results[0].number == 1
    assert st.hands == [[hands[0][2]], [hands[1][2]]]


def test_rules_when_you_both_pass_in_a_row_the_round_is_over() -> None:
    """"When you both pass in a row, the round's over." (R6: "The round's play ends as soon as the two players have
    passed one right after the other.")"""
    st, hands = _match()
    play(st, "pass")
    assert st.phase is Phase.PLAY
    assert st.to_act == 1
    assert st.results == []
    play(st, "pass")
    assert len(st.results) == 1
    assert st.round_no == 1
    assert st.phase is Phase.STAT
    assert st.hands == hands  # nothing was played, the empty pile gives nothing


def test_r6_passes_not_in_a_row_do_not_end_the_round() -> None:
    """R6: "The round's play ends as soon as the two players have passed one right after the other." (a pass, a
    play, a pass: not over)"""
    st, hands = _match()
    play(st, "pass", f"play S{hands[1][0]}", "pass")
    assert st.results == []
    assert st.phase is Phase.PLAY
    assert st.to_act == 1
    assert log_of(st) == [(0, "pass", False), (1, f"play S{hands[1][0]}", False), (0, "pass", False)]
    play(st, "pass")
    assert len(st.results) == 1


def test_rules_passing_does_not_lock_you_out() -> None:
    """"Passing doesn't lock you out: if the other player plays afterwards, you can play again." (R6: "Passing does
    not lock a player out.")"""
    st, hands = _match()
    play(st, "pass", f"play S{hands[1][0]}")
    assert st.to_act == 0
    assert f"play S{hands[0][0]}" in texts(st.legal_actions())
    play(st, f"play S{hands[0][0]}")
    assert st.items[0] == [hands[0][0]]
    assert st.plays == [1, 1]
    assert st.to_act == 1
    # and passing twice over a round with plays in between is fine too
    play(st, "pass", f"play S{hands[0][1]}")
    assert st.plays == [2, 1]
    assert st.to_act == 1
    play(st, f"play S{hands[1][1]}")
    # both have made 2 plays: the round is over
    assert len(st.results) == 1
    assert st.hands == [[hands[0][2]], [hands[1][2]]]


def test_rules_anyone_who_has_made_their_2_plays_always_passes() -> None:
    """"Anyone who has made their 2 plays (or has no cards) always passes." (R6: "A player with 2 plays made ... can
    only pass: the engine passes for them without asking, and it counts as a pass.")"""
    st, hands = _match()
    play(st, f"play S{hands[0][0]}", "pass", f"play S{hands[0][1]}")
    assert st.to_act == 1
    play(st, f"play S{hands[1][0]}")
    assert log_of(st)[-2:] == [(1, f"play S{hands[1][0]}", False), (0, "pass", True)]
    assert st.to_act == 1
    assert st.phase is Phase.PLAY
    play(st, "pass")  # the automatic pass and this one are two passes in a row
    assert len(st.results) == 1
    assert st.hands[0] == [hands[0][2]]


def test_rules_anyone_who_has_no_cards_always_passes() -> None:
    """"Anyone who has made their 2 plays (or has no cards) always passes." (R6: "A player with ... an empty hand can
    only pass: the engine passes for them without asking")"""
    st, hands = _match(hand0=0, hand1=3)
    # seat 0 chose the stat and has no cards: the engine passed for it, seat 1 is asked
    assert st.to_act == 1
    assert log_of(st) == [(0, "pass", True)]
    assert st.view(None).passes == 1
    play(st, f"play S{hands[1][0]}")
    assert st.to_act == 1
    assert log_of(st) == [(0, "pass", True), (1, f"play S{hands[1][0]}", False), (0, "pass", True)]
    play(st, f"play S{hands[1][1]}")
    # seat 1 has made 2 plays and seat 0 has no cards: the round is over without asking anyone
    assert len(st.results) == 1
    assert st.round_no == 1


def test_r6_automatic_pass_counts_as_a_pass() -> None:
    """R6: "A player with 2 plays made or an empty hand can only pass: the engine passes for them without asking,
    and it counts as a pass." (an automatic pass and a pass in a row end the round)"""
    st, hands = _match(hand0=0, hand1=2)
    assert st.to_act == 1
    play(st, "pass")
    assert len(st.results) == 1
    assert st.hands == [[], hands[1]]


def test_r6_both_hands_empty_the_round_ends_at_once() -> None:
    """R6: "A player with ... an empty hand can only pass: the engine passes for them without asking" (two empty
    hands: the round ends as soon as the stat is chosen)"""
    st, _ = _match(hand0=0, hand1=0)
    assert len(st.results) == 1
    assert st.phase is Phase.STAT
    assert st.round_no == 1


def test_r6_the_ability_at_most_once_per_round() -> None:
    """R6: "the ability at most once per round." Rules: "Once per round, it counts as one of your 2 plays" """
    st, hands = _match()
    play(st, f"ability S{hands[0][0]}", "pass")
    assert st.to_act == 0
    legal = texts(st.legal_actions())
    assert not [t for t in legal if t.startswith("ability")]
    assert f"play S{hands[0][1]}" in legal
    with pytest.raises(IllegalAction) as err:
        play(st, f"ability S{hands[0][1]}")
    assert "once per round" in str(err.value)
    assert st.hands[0] == hands[0][1:]
    assert st.to_act == 0
    assert st.plays == [1, 0]


def test_rules_the_ability_once_per_round() -> None:
    """"Once per round, it counts as one of your 2 plays, and you need a card in your hand to discard." (the second
    player: after its ability, its next turn offers plays and a pass, no ability)"""
    st, hands = _match()
    play(st, f"play S{hands[0][0]}", f"ability S{hands[1][2]}", "pass")
    assert st.to_act == 1
    assert sorted(texts(st.legal_actions())) == sorted(["pass", f"play S{hands[1][0]}", f"play S{hands[1][1]}"])
    for s in hands[1][:2]:
        with pytest.raises(IllegalAction):
            play(st, f"ability S{s}")
    assert st.discards[1] == [hands[1][2]]
    assert st.ability_used == [False, True]


def test_r6_the_ability_again_in_the_next_round() -> None:
    """R6: "the ability at most once per round." (once per round, so again in the next one)"""
    st, hands = _match()
    play(st, f"ability S{hands[0][0]}", "pass", "pass")
    assert st.round_no == 1
    # round 1 was won by seat 0 (plain characters, +15): seat 1 chooses
    assert st.results[0].winner == 0
    play(st, "stat spark", "pass")
    assert st.to_act == 0
    assert f"ability S{hands[0][1]}" in texts(st.legal_actions())


def test_rules_the_ability_counts_as_one_of_your_2_plays() -> None:
    """"Once per round, it counts as one of your 2 plays, and you need a card in your hand to discard." (R11: "It
    counts as one of your 2 plays.")"""
    st, hands = _match()
    play(st, f"ability S{hands[0][0]}")
    assert st.plays == [1, 0]
    play(st, "pass", f"play S{hands[0][1]}")
    assert st.plays == [2, 0]
    play(st, f"play S{hands[1][0]}")
    # seat 0 has made its 2 plays (ability + card): passed for by the engine
    assert log_of(st)[-1] == (0, "pass", True)
    assert st.to_act == 1
    assert st.hands[0] == [hands[0][2]]


def test_rules_you_need_a_card_in_your_hand_to_discard() -> None:
    """"Once per round, it counts as one of your 2 plays, and you need a card in your hand to discard." (R6: an
    empty hand can only pass, so no ability without a card)"""
    st, hands = _match(hand0=1, hand1=2)
    play(st, f"ability S{hands[0][0]}")
    assert st.hands[0] == []
    assert st.discards[0] == [hands[0][0]]
    play(st, f"play S{hands[1][0]}")
    # seat 0 has a play left but no card: no ability, no play, the engine passes
    assert st.to_act == 1
    assert log_of(st)[-1] == (0, "pass", True)
    st2, _ = _match(hand0=0, hand1=1)
    assert st2.to_act == 1
    assert st2.view(0).legal == ()


def test_r11_ability_needs_a_card_from_your_own_hand() -> None:
    """R11: "Discard one card of your choice from your hand" (a card not in hand cannot pay for the ability)"""
    st, hands = _match()
    with pytest.raises(IllegalAction) as err:
        play(st, f"ability S{hands[1][0]}")
    assert "not in your hand" in str(err.value)
    assert err.value.params == {"card": f"S{hands[1][0]}"}
    assert st.ability_used == [False, False]
    assert st.hands == hands


# ---------------------------------------------------------------- illegal actions


def test_illegal_playing_a_card_not_in_hand() -> None:
    """R6: "a player plays one support card" from their hand: another card raises IllegalAction with a reason."""
    st, hands = _match()
    outside = next(s for s in ALL_SUPPORTS if s not in hands[0] + hands[1])
    for s in (hands[1][0], outside):
        with pytest.raises(IllegalAction) as err:
            play(st, f"play S{s}")
        assert err.value.reason == "{card} is not in your hand."
        assert err.value.params == {"card": f"S{s}"}
    assert st.hands == hands
    assert st.to_act == 0
    assert st.plays == [0, 0]


def test_illegal_third_play_during_an_effect_choice() -> None:
    """R6: "Each player makes at most 2 plays per round" : while the second play's effect waits for a choice, a
    third play is refused with a reason."""
    recover = first_support(lambda s: with_effect(EffectKind.RECOVER)(s) and len(s.effects) == 1)
    lin, _ = lineups_for("0")
    if lin[0][0] > lin[1][0]:
        lin = [lin[1], lin[0]]
    x, y, z = inert(sup(recover).stat, 3, exclude=[recover])
    rest = [s for s in ALL_SUPPORTS if s not in (recover, x, y, z)]
    d1, d2 = rest[:2]
    st = start(lin, hands=[[x, recover, y], [z]], discards=[[d1, d2], []])
    play(st, "stat spark", f"play S{x}", "pass", f"play S{recover}")
    assert st.phase is Phase.CHOICE
    assert st.to_act == 0
    assert st.plays == [2, 0]
    for move in (f"play S{y}", f"ability S{y}", "pass"):
        with pytest.raises(IllegalAction) as err:
            play(st, move)
        assert err.value.reason
    play(st, f"take S{d2}")
    assert st.hands[0] == [y, d2]
    assert st.to_act == 1
    play(st, "pass")
    # seat 0 (2 plays) is passed for: the round is over with y and d2 still in hand
    assert len(st.results) == 1
    assert st.hands[0] == [y, d2]


@pytest.mark.parametrize("move", ["play S1", "ability S1", "pass", "take S1", "swap S10", "pick C1", "line C1",
                                  "champion C1"])
def test_illegal_acting_in_the_wrong_phase_stat(move: str) -> None:
    """R5/R6: in the stat phase only the chooser's stat choice is possible; anything else raises IllegalAction
    naming what is expected."""
    lin, _ = lineups_for("0")
    st = start(lin, hands=[inert(None, 2), []])
    assert st.phase is Phase.STAT
    with pytest.raises(IllegalAction) as err:
        play(st, move)
    assert err.value.params.get("expected") == "choose the round's stat"
    assert st.phase is Phase.STAT


@pytest.mark.parametrize("move", ["stat heat", "pick C1", "line C1", "champion C1", "take S1", "swap S10"])
def test_illegal_acting_in_the_wrong_phase_play(move: str) -> None:
    """R6: during the plays, only a play, the ability or a pass: anything else raises IllegalAction."""
    st, hands = _match()
    with pytest.raises(IllegalAction) as err:
        play(st, move)
    assert err.value.reason
    assert err.value.params.get("expected") == "play a card, trigger your ability or pass"
    assert st.view(None).stat == SPARK
    assert st.hands == hands


def test_illegal_acting_in_the_wrong_phase_lineup_and_draft() -> None:
    """R2/R3: the draft takes picks, the line-up takes line-up actions; other actions raise IllegalAction."""
    from tests.games.duel.scripted import GAME

    st = GAME.new_match({}, 0)
    assert st.phase is Phase.LINEUP
    for move in ("pass", "stat spark", f"pick C{st.characters[0][0]}", "play S1"):
        with pytest.raises(IllegalAction) as err:
            play(st, move)
        assert err.value.params.get("expected") == "line up your characters"
    st = GAME.new_match({"pick": "draft"}, 0)
    for move in ("pass", "stat spark", "line C1", "play S1"):
        with pytest.raises(IllegalAction) as err:
            play(st, move)
        assert err.value.params.get("expected") == "pick a character"


def test_illegal_acting_once_the_match_is_over() -> None:
    """R14: once a player has won, the match is over: every action raises IllegalAction."""
    lin, stats = lineups_for("00")
    st = start(lin, hands=[[], []])
    play(st, f"stat {stats[0].key}", f"stat {stats[1].key}")
    assert st.phase is Phase.OVER
    assert st.to_act is None
    assert st.legal_actions() == []
    for move in ("pass", "stat spark", "play S1"):
        with pytest.raises(IllegalAction) as err:
            play(st, move)
        assert err.value.reason == "The match is over."


def test_r6_pass_is_always_legal_for_the_player_asked() -> None:
    """R6: "On a turn a player plays one support card, or triggers the ability, or passes." """
    st, _ = _match()
    assert PASS in st.legal_actions()
    assert Played(0, PASS, False) not in st.view(None).log
    play(st, "pass")
    assert PASS in st.legal_actions()
    assert st.view(None).log == (Played(0, PASS, False),)
