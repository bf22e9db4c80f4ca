"""Flame Duel ISMCTS playouts (issue 9, point 10): bot:hard no longer gives up its own place for nothing.

In a Charm round it could not win any more, bot:hard replaced its own Campfire Circle (Charm +5) with Firework Fair
(Spark +10), 45 down to 40. Its playouts were uniformly random: a random player plays a kept card at random, so the
line that keeps Firework Fair for a later round was valued as if the card would be wasted, while the line that puts
it on the table now got its bonus without a decision, and the tree backed that one. The playouts now follow a
sensible player (``bots.duel.playout_action``), who plays a kept card when it wins a round.
"""

from __future__ import annotations

from typing import Any

import pytest

from flametable.bots.ismcts import IsmctsBot
from flametable.bots.registry import make_bot
from flametable.core.rng import Rng
from flametable.games.duel.actions import DuelAction, Kind
from flametable.games.duel.bots import best_stat, duel_determinizer, gain, margin, play_or_pass, playout_action
from flametable.games.duel.cards import EffectKind
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from tests.games.duel.scripted import CHARM, GAME, HEAT, SPARK, play, start
from tests.games.duel.test_bots import states

MODES: list[dict[str, Any]] = [{"mode": "shared"}, {"mode": "shared", "pick": "draft"}, {"mode": "decks"}]

HEARTH_KEEPER, DUCHESS_FIREFLY = 20, 18  # Charm 40 and 42
SPARKLY_TOP_HAT, SPARKLER_WAND, FIREWORK_FAIR, CAMPFIRE_CIRCLE = 7, 3, 10, 15


def lost_charm_round() -> DuelState:
    """Seat 0 (the bot) has Hearth Keeper and its own Campfire Circle on the table: 40 + 5 = 45 in Charm. Seat 1
    (Duchess Firefly, Charm 42) chose Charm, played Sparkly Top Hat (+10) and its ability (+15): 67. The bot, one
    play left, holds Firework Fair (Spark +10), Trusty Bellows (Heat +10) and Sparkler Wand (Spark +5)."""
    st = start([[HEARTH_KEEPER, 14, 24], [DUCHESS_FIREFLY, 8, 5]],
               hands=[[FIREWORK_FAIR, 4, 6, SPARKLER_WAND], [SPARKLY_TOP_HAT, 1, 12, 20]],
               piles=[[2, 9, 11, 13, 16, 17, 18, 19, 21]], place=(CAMPFIRE_CIRCLE, 0))
    play(st, "stat charm", f"play S{SPARKLY_TOP_HAT}", "play S6", "ability S1")
    return st


def round_result_after(st: DuelState, action: DuelAction) -> tuple[int, tuple[int, int]]:
    """The round's winner and totals when seat 0 makes ``action`` (the round then ends: both have played out)."""
    after = st.clone()
    after.apply(action)
    assert after.results[-1].number == 1
    return after.results[-1].winner, after.results[-1].totals


def test_the_position_the_round_is_lost_whatever_the_bot_plays() -> None:
    """The premise: 45 against 67 in Charm, and every move the bot has left loses the round; only Firework Fair
    lowers its total (the place it replaces counted, the new one does not: R8)."""
    st = lost_charm_round()
    assert (st.to_act, st.stat, st.totals()) == (0, CHARM, (45, 67))
    lowering = []
    for action in st.legal_actions():
        winner, totals = round_result_after(st, action)
        assert winner == 1
        if totals[0] < 45:
            lowering.append(action.text())
    assert lowering == [f"play S{FIREWORK_FAIR}"]


def test_hard_keeps_its_own_place_when_replacing_it_cannot_help() -> None:
    """bot:hard (8 of its own seeds, as in simulations: 4,000 iterations) does not lower its own total in a round
    it has lost anyway by replacing its own Campfire Circle: at most 1 of the 8 seeds may. Measured on seeds 0-29,
    the bot with random playouts did it in 17 (57%: such a bot passes this test with a chance of 1.4%), the bot
    with the playout policy in 1 (3%: passes with a chance of 97%). Passing keeps both places' worth: continuing
    the match with other bots scored the swap 4 to 21 points of match wins below passing."""
    st = lost_charm_round()
    view, legal = st.view(0), st.legal_actions()
    lowering = []
    for seed in range(8):
        bot = make_bot("bot:hard", GAME, seed, deterministic=True)
        choice = DuelAction.from_id(bot.choose(view, legal).id)
        if round_result_after(st, choice)[1][0] < 45:
            lowering.append((seed, choice.text()))
    assert len(lowering) <= 1, lowering


def test_hard_and_ismcts_use_the_playout_policy() -> None:
    """Every ISMCTS bot of Flame Duel plays its playouts with the policy; one built by hand without it keeps
    uniformly random playouts."""
    for spec in ("bot:hard", "bot:ismcts", "bot:ismcts:50"):
        bot = make_bot(spec, GAME, 0, deterministic=True)
        assert isinstance(bot, IsmctsBot)
        assert bot.policy is playout_action
    assert IsmctsBot(duel_determinizer(GAME.cards)).policy is None


# ---------------------------------------------------------------- the policy's pieces


def lead_in_round(before: DuelState, after: DuelState, p: int) -> int:
    """``p``'s total minus the other's in ``before``'s round, read in ``after`` (also once that round is over)."""
    totals = after.results[len(before.results)].totals if len(after.results) > len(before.results) else after.totals()
    return totals[p] - totals[1 - p]


@pytest.mark.parametrize("options", MODES)
def test_gain_is_what_a_play_changes_in_the_round_lead(options: dict[str, Any]) -> None:
    """gain() reads from the cards what a support card or the ability adds to its player's lead in the round (items,
    places replacing places, events with conditions, boosts, saps, a cleared place: R7-R12), exactly what the
    engine's totals show after the play. Only putting back a place from the discard pile (a choice) counts 0."""
    checked = 0
    for st in states(options, range(40)):
        if st.to_act is None or st.phase is not Phase.PLAY:
            continue
        p = st.acting
        m = margin(st, p)[0]
        for action in st.legal_actions()[1:]:
            effects = GAME.cards.ability_effects[st.current[p]] if action.kind is Kind.ABILITY else ()
            if any(kind == EffectKind.SWAP_PLACE for kind, _n in effects):
                continue
            after = st.clone()
            after.apply(action)
            assert lead_in_round(st, after, p) - m == gain(st, p, action), (action.text(), st.current, st.stat)
            checked += 1
    assert checked > 500


def test_margin_reads_the_totals_and_the_tie_on_charm() -> None:
    """margin(): the lead in the round and which way a tie goes on the printed Charm (R12)."""
    st = start([[HEARTH_KEEPER, 14, 24], [DUCHESS_FIREFLY, 8, 5]], hands=[[4], [6]], piles=[[]])
    play(st, "stat heat")  # Heat 40 against 38; Charm 40 against 42
    assert margin(st, 0) == (2, -1)
    assert margin(st, 1) == (-2, 1)


def test_the_sensible_player_passes_while_it_wins_the_round() -> None:
    st = start([[HEARTH_KEEPER, 14, 24], [DUCHESS_FIREFLY, 8, 5]], hands=[[4, 1], [SPARKLER_WAND, 6]], piles=[[]])
    play(st, "stat heat", "pass")  # seat 1 chooses Heat (38 against 40) and passes
    assert st.to_act == 0
    assert {play_or_pass(st, Rng(seed)).text() for seed in range(20)} == {"pass"}


def test_the_sensible_player_plays_a_card_that_wins_the_round() -> None:
    """Behind, it plays one of the cards that make it win the round, or the ability discarding a useless card."""
    st = start([[DUCHESS_FIREFLY, 8, 5], [HEARTH_KEEPER, 14, 24]], hands=[[6, 1, 12], [SPARKLER_WAND, 2]], piles=[[]])
    play(st, "stat heat")  # seat 0 chooses Heat: 38 against 40
    assert st.to_act == 0
    chosen = {play_or_pass(st, Rng(seed)).text() for seed in range(40)}
    assert chosen == {"play S6", "play S12", "ability S1"}  # +5 Heat item, +10 Heat place, the ability (+15)


def test_the_sensible_player_discards_its_least_useful_card_for_the_ability() -> None:
    st = start([[DUCHESS_FIREFLY, 8, 5], [HEARTH_KEEPER, 14, 24]], hands=[[1, 6], [4, 2]], piles=[[]])
    play(st, "stat heat", "pass", "play S4")  # seat 1: 40 + 10 = 50 against 38
    assert st.to_act == 0
    assert {play_or_pass(st, Rng(seed)).text() for seed in range(20)} == {"ability S1"}  # +15 wins; S6 is kept


def test_the_sensible_player_that_cannot_win_plays_what_helps_most_else_passes() -> None:
    st = start([[DUCHESS_FIREFLY, 8, 5], [HEARTH_KEEPER, 14, 24]], hands=[[1, 6, 3], [4, 2, 9]], piles=[[]])
    play(st, "stat heat", "pass", "play S4", "play S6", "ability S2")  # 43 against 65
    assert st.to_act == 0
    assert {play_or_pass(st, Rng(seed)).text() for seed in range(20)} == {"ability S1", "ability S3"}  # +15
    st = start([[DUCHESS_FIREFLY, 8, 5], [HEARTH_KEEPER, 14, 24]], hands=[[1, 3, 11], [4, 2, 9]], piles=[[]])
    play(st, "stat heat", "ability S3", "ability S2")  # 53 against 55; Spark cards left
    assert st.to_act == 0
    assert {play_or_pass(st, Rng(seed)).text() for seed in range(20)} == {"pass"}


def test_the_chooser_picks_the_stat_its_character_leads_in_most_counting_the_place() -> None:
    st = start([[DUCHESS_FIREFLY, 8, 5], [HEARTH_KEEPER, 14, 24]], hands=[[1], [2]], piles=[[]])
    assert st.to_act == 0
    assert st.phase is Phase.STAT
    assert best_stat(st, 0) == CHARM  # Spark 40-40, Heat 38-40, Charm 42-40
    assert best_stat(st, 1) == HEAT
    placed = start([[DUCHESS_FIREFLY, 8, 5], [HEARTH_KEEPER, 14, 24]], hands=[[1], [2]], piles=[[]],
                   place=(FIREWORK_FAIR, 0))
    assert best_stat(placed, 0) == SPARK  # its own Spark +10 place: 50 against 40
    assert best_stat(placed, 1) == HEAT


@pytest.mark.parametrize("options", MODES)
def test_playouts_with_the_policy_are_legal_and_finish_matches(options: dict[str, Any]) -> None:
    """The policy answers every decision of a match (draft, line-up, stat, plays, choices, tie-break) with one of
    the legal actions."""
    for seed in range(30):
        st = GAME.new_match(options, seed)
        rng = Rng(seed)
        while st.to_act is not None:
            action = playout_action(st, rng)
            assert action in st.legal_actions()
            st.apply(action)
