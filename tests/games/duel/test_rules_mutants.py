"""Flame Duel rules pinned down by mutation testing of ``duel/state.py`` (docs/mutation.md): the gaps the
mutation run found beyond those its issue listed. Each test reads one ruling on a scripted setup, through the
engine's public interface only (``new_match`` with an explicit setup, ``legal_actions``, ``apply``, ``view``,
``outcome``, ``clone``)."""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duel.cards import EffectKind, Stat
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DRAW, DuelState
from tests.games.duel.scripted import (
    ALL_SUPPORTS,
    EVENT,
    GAME,
    characters,
    charm,
    fillers,
    first_round,
    lineups_for,
    plain,
    play,
    printed,
    quiet,
    run,
    start,
    stat_word,
    sup,
    supports,
    with_effect,
)


def _pair(stat: Stat, *, equal: bool) -> tuple[int, int]:
    """Two plain characters: with different printed ``stat`` values (``equal`` False), or with equal ones and
    equal Charm (``equal`` True)."""
    chars = characters(plain)
    for a in chars:
        for b in chars:
            if a == b:
                continue
            same = printed(a, stat) == printed(b, stat)
            if equal and same and charm(a) == charm(b):
                return a, b
            if not equal and printed(a, stat) > printed(b, stat):
                return a, b
    raise LookupError("no such pair of plain characters")


@pytest.mark.parametrize("stat", [Stat.SPARK, Stat.HEAT])
def test_r12_a_round_won_on_totals_is_not_won_on_charm(stat: Stat) -> None:
    """R12: "The higher total wins. Equal totals: the character with the higher printed Charm wins": a round
    with different totals is won on them, and its public result (R15) says it was not settled by Charm."""
    hi, lo = _pair(stat, equal=False)
    st = first_round(hi, lo, [[], []], stat)
    result = st.view(None).results[0]
    assert result.winner == 0
    assert result.totals == (printed(hi, stat), printed(lo, stat))
    assert result.by_charm is False


def test_r12_a_drawn_round_is_not_won_on_charm() -> None:
    """R12: "Equal totals: the character with the higher printed Charm wins; equal again: the round is a draw":
    a draw is settled by nothing, Charm included."""
    for stat in (Stat.SPARK, Stat.HEAT, Stat.CHARM):
        try:
            a, b = _pair(stat, equal=True)
        except LookupError:
            continue
        st = first_round(a, b, [[], []], stat)
        result = st.view(None).results[0]
        assert result.winner == DRAW
        assert result.by_charm is False
        return
    pytest.skip("the card set has no two plain characters with equal stat and Charm")


# ---------------------------------------------------------------- what the view shows between rounds (R3, R14, R15)


def _to_tiebreak_pick() -> tuple[DuelState, list[list[int]]]:
    """A match 1-1 after three rounds (one draw) whose tie-break needs a pick (R14) from seat 0 only: seat 0 lines
    up two plain characters with the same, highest Charm; seat 1's most charming character is alone."""
    plains = characters(plain)
    for a in plains:
        for b in plains:
            if a >= b or charm(a) != charm(b):
                continue
            tops = sorted((c for c in plains if c not in (a, b)), key=charm, reverse=True)
            for h in tops:
                below = (charm(a), charm(h))  # seat 0's two champions, seat 1's single one

                def pool(seat: int, _pos: int, below: tuple[int, int] = below) -> list[int]:
                    return [c for c in plains if charm(c) < below[seat]]

                try:
                    lin, stats = lineups_for("01D", fixed={(0, 0): a, (0, 1): b, (1, 0): h}, pool=pool)
                except LookupError:
                    continue
                st = start(lin, hands=[[], []])
                for stat in stats:
                    play(st, stat_word(stat))
                assert st.phase is Phase.CHAMPION
                assert st.to_act == 0
                return st, lin
    raise LookupError("no line-ups of plain characters give a tie-break pick to seat 0 alone")


def _finished() -> tuple[DuelState, list[list[int]]]:
    """A match seat 0 wins 2-0 (R14: "A player with 2 round wins wins at once")."""
    lin, stats = lineups_for("00")
    st = start(lin, hands=[[], []])
    for stat in stats:
        play(st, stat_word(stat))
    assert st.phase is Phase.OVER
    return st, lin


def test_r14_the_tiebreak_pick_is_seen_by_its_player_while_the_picks_are_made() -> None:
    """R14: "each player plays their character with the highest printed Charm (a player with several tied picks
    one)"; R15: the pick is private to its player until the tie-break round flips it."""
    st, lin = _to_tiebreak_pick()
    champion1 = max(lin[1], key=charm)  # seat 1 has a single most charming character: no pick to make
    assert st.view(1).champion == champion1
    assert st.view(0).champion == 0  # seat 0 has not picked yet
    assert st.view(None).champion == 0
    pick = max(c for c in lin[0] if charm(c) == max(charm(x) for x in lin[0]))
    play(st, f"champion C{pick}")
    assert st.phase is Phase.STAT
    # the tie-break round has begun: the picks are the flipped characters now, no pick is pending
    for seat in (0, 1, None):
        assert st.view(seat).champion == 0
    assert st.view(None).seats[0].character == pick
    assert st.view(None).seats[1].character == champion1


def test_r14_between_round_3_and_the_tiebreak_no_character_is_in_play() -> None:
    """R14: "Otherwise a tie-break round: each player plays their character with the highest printed Charm": while
    a pick is made, the third round is over and the tie-break's characters are not played yet; R3/R15: the three
    flipped characters stay public, in line-up order, and nothing else."""
    st, lin = _to_tiebreak_pick()
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.chooser is None
        assert view.stat == -1
        for p in (0, 1):
            assert view.seats[p].character == 0
            assert view.seats[p].flipped == tuple(lin[p])
            assert view.seats[p].total == 0


def test_r14_in_the_tiebreak_round_the_champion_is_flipped_once() -> None:
    """R14: "each player plays their character with the highest printed Charm"; R3/R15: flipped characters are
    public, each once (the champion was flipped in its own round already)."""
    st, lin = _to_tiebreak_pick()
    pick = max(c for c in lin[0] if charm(c) == max(charm(x) for x in lin[0]))
    play(st, f"champion C{pick}")
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.round_number == 4
        for p in (0, 1):
            assert view.seats[p].flipped == tuple(lin[p])  # three characters (R3), none twice
            assert view.seats[p].character in lin[p]


def test_r14_a_finished_match_shows_its_last_round_and_no_running_round() -> None:
    """R14: "A player with 2 round wins wins at once."; R15: round results and flipped characters stay public;
    once the match is over there is no round in play: no chooser, no stat, no running totals."""
    st, lin = _finished()
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.outcome is not None
        assert view.outcome.winner == 0
        assert view.chooser is None
        assert view.stat == -1
        assert view.champion == 0
        for p in (0, 1):
            assert view.seats[p].total == 0
            assert view.seats[p].character == lin[p][1]  # the last round played stays on the table
            assert view.seats[p].flipped == tuple(lin[p][:2])  # the third character was never flipped (R3)


def test_r3_during_the_line_up_no_round_is_in_play() -> None:
    """R3: "Each player orders their 3 characters secretly" before round 1 (R5): nothing is flipped, nobody
    chooses a stat yet."""
    a, b, c, d, e, f = fillers(6, [])
    st = GAME.new_match({"mode": "shared"}, 0, setup={"characters": [[a, b, c], [d, e, f]], "piles": [[]]})
    assert st.phase is Phase.LINEUP
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.chooser is None
        assert view.stat == -1
        assert view.champion == 0
        for p in (0, 1):
            assert view.seats[p].flipped == ()
            assert view.seats[p].character == 0
            assert view.seats[p].total == 0


@pytest.mark.parametrize("seat", [2, -1, 7])
def test_r15_a_view_is_for_seat_0_1_or_a_spectator(seat: int) -> None:
    """R15: "Private to a player: their hand, their line-up, the cards they looked at": views exist for the two
    players and for everybody (a spectator); any other seat is refused, naming it."""
    st, _lin = _finished()
    with pytest.raises(ValueError, match=rf"(?<![\d-]){seat}(?!\d)"):
        st.view(seat)


# ---------------------------------------------------------------- refusals name what was refused (R2, R3, R10)


def test_r2_a_character_can_be_picked_once_the_refusal_names_it() -> None:
    """R2: "players alternate picking from the 33 (first picker by coin flip); picks are public and a character can
    be picked once." """
    st = GAME.new_match({"mode": "shared", "pick": "draft"}, 0, setup={"piles": [[]], "first_picker": 0})
    play(st, "pick C5")
    with pytest.raises(IllegalAction) as exc:
        play(st, "pick C5")
    assert exc.value.params["card"] == "C5"
    assert "C5" in str(exc.value)


def test_r3_a_player_lines_up_only_their_own_characters_the_refusal_names_the_card() -> None:
    """R3: "Each player orders their 3 characters secretly": a character that is not theirs, or one already placed,
    is refused, and the refusal names it."""
    a, b, c, d, e, f = fillers(6, [])
    st = GAME.new_match({"mode": "shared"}, 0, setup={"characters": [[a, b, c], [d, e, f]], "piles": [[]]})
    assert st.to_act == 0
    with pytest.raises(IllegalAction) as exc:
        play(st, f"line C{d}")
    assert exc.value.params["card"] == f"C{d}"
    assert f"C{d}" in str(exc.value)
    play(st, f"line C{b}")
    with pytest.raises(IllegalAction) as exc:
        play(st, f"line C{b}")
    assert exc.value.params["card"] == f"C{b}"
    assert f"C{b}" in str(exc.value)


def _take_back_choice() -> tuple[DuelState, list[int], int]:
    """Seat 0 has played a take-back card (R10) with three cards in its discard pile and must choose one; seat 1's
    discard pile holds another card."""
    card = supports(with_effect(EffectKind.RECOVER))[0]
    c0, c1, *rest = fillers(6, [])
    keep = quiet(1, exclude=[card])
    d1, d2, d3, other = [s for s in ALL_SUPPORTS if s not in (card, *keep)][:4]
    st = first_round(c0, c1, [[card, *keep], []], sup(card).stat, discards=[[d1, d2, d3], [other]],
                     later=[rest[:2], rest[2:]])
    if st.to_act != 0:
        play(st, "pass")
    play(st, f"play S{card}")
    assert st.phase is Phase.CHOICE
    assert st.to_act == 0
    return st, [d1, d2, d3], other


def test_r10_a_choice_of_the_wrong_kind_is_refused_naming_it_and_what_is_asked() -> None:
    """R10: "Where an effect needs a choice, the acting player makes it as a decision of their own": the choice
    asked for is to take a card back, and a place swap is refused naming both."""
    st, mine, _other = _take_back_choice()
    with pytest.raises(IllegalAction) as exc:
        play(st, f"swap S{mine[0]}")
    assert exc.value.params["action"] == f"swap S{mine[0]}"
    assert str(exc.value) == f"swap S{mine[0]} is not possible now: take a card from your discard pile."


def test_r10_take_back_only_from_your_own_discard_pile_the_refusal_names_the_card() -> None:
    """R10: "take a card from your discard pile into your hand": a card of the opponent's discard pile is refused,
    and the refusal names it."""
    st, _mine, other = _take_back_choice()
    with pytest.raises(IllegalAction) as exc:
        play(st, f"take S{other}")
    assert exc.value.params["card"] == f"S{other}"
    assert f"S{other}" in str(exc.value)


def test_r14_the_tiebreak_pick_is_among_the_most_charming_the_refusal_names_the_card() -> None:
    """R14: "each player plays their character with the highest printed Charm (a player with several tied picks
    one)": a less charming character is refused, and the refusal names it."""
    st, lin = _to_tiebreak_pick()
    least = min(lin[0], key=charm)
    with pytest.raises(IllegalAction) as exc:
        play(st, f"champion C{least}")
    assert exc.value.params["card"] == f"C{least}"
    assert f"C{least}" in str(exc.value)


def test_r3_before_the_line_up_is_done_no_turn_is_played_the_refusal_names_the_action() -> None:
    """R3: "Each player orders their 3 characters secretly" before round 1 (R5): a turn's action (R6: "plays one
    support card, or triggers the ability, or passes") is refused, naming it and what is asked."""
    a, b, c, d, e, f = fillers(6, [])
    st = GAME.new_match({"mode": "shared"}, 0, setup={"characters": [[a, b, c], [d, e, f]], "piles": [[]]})
    with pytest.raises(IllegalAction) as exc:
        play(st, "pass")
    assert exc.value.params["action"] == "pass"
    assert str(exc.value) == "pass is not possible now: line up your characters."


def test_r12_no_total_before_the_stat_is_chosen() -> None:
    """R12: "printed stat + items + owned place + events + ability": a total is of the round's stat, so there is
    none (0 for both) until the chooser names it (R5)."""
    a, b = fillers(2, [])
    st = first_round(a, b, [[], []], None)
    assert st.phase is Phase.STAT
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.stat == -1
        assert (view.seats[0].total, view.seats[1].total) == (0, 0)


def _counts(event: int, character: int, stat: Stat) -> bool:
    """R9: whether ``event`` counts for ``character`` in a round of ``stat`` (its stat, and its written condition)."""
    card = sup(event)
    value = printed(character, stat)
    return (
        card.stat == stat
        and (card.printed_at_most is None or value <= card.printed_at_most)
        and (card.printed_at_least is None or value >= card.printed_at_least)
    )


def test_r9_an_event_whose_condition_fails_does_not_stop_the_next_event() -> None:
    """R9: "Its bonus or penalty counts for both players when its stat is the round's stat (an event may narrow
    this with a condition written on it)": each event is judged on its own, so one whose condition a character
    does not meet leaves the events played after it counting."""
    events = supports(lambda s: s.kind is EVENT and not s.effects)
    for stat in (Stat.SPARK, Stat.HEAT, Stat.CHARM):
        for first in events:
            if sup(first).stat != stat or sup(first).printed_at_most is None:
                continue
            for second in events:
                if second == first or sup(second).stat != stat:
                    continue
                hi = [c for c in characters(plain) if not _counts(first, c, stat) and _counts(second, c, stat)]
                if not hi:
                    continue
                c0 = hi[0]
                c1 = fillers(1, [c0])[0]
                st = first_round(c0, c1, [[first, second], []], stat)
                run(st, [f"play S{first}", f"play S{second}"], [])
                totals = st.view(None).results[0].totals  # R15: round results are public
                expected = tuple(
                    printed(c, stat) + sum(sup(e).bonus for e in (first, second) if _counts(e, c, stat))
                    for c in (c0, c1)
                )
                assert totals == expected
                return
    pytest.skip("the card set has no event condition that fails before another event of its stat")
