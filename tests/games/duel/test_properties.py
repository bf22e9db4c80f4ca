"""Property tests of the Flame Duel engine over random matches.

* 1,000 seeded random-bot matches per mode finish, and every record replays to the identical state.
* Hypothesis draws the seed and every choice: determinism (replayed or cloned mid-way), legality
  (every legal action applies, every other one of the 187 raises ``IllegalAction`` and changes nothing),
  and invariants (plays per round, hand sizes, conservation of the support cards, notation).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flametable.bots.base import RandomBot
from flametable.core.errors import IllegalAction
from flametable.core.protocol import legal_action_mask
from flametable.core.record import MatchRecord, replay, start
from flametable.core.rng import Rng
from flametable.games.duel.actions import ACTIONS, NUM_ACTIONS, DuelAction, Kind
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import Phase, Reason
from flametable.games.duel.state import DuelState
from flametable.service import new_record, play

GAME = DuelGame()
NUM_SUPPORTS = len(GAME.cards.supports)
MODES: dict[str, dict[str, Any]] = {
    "shared-random": {"mode": "shared", "pick": "random"},
    "shared-draft": {"mode": "shared", "pick": "draft"},
    "decks": {"mode": "decks"},
}
MATCHES_PER_MODE = 1000


# ---------------------------------------------------------------------------------------------- helpers


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def snapshot(state: DuelState) -> dict[str, Any]:
    """Every field of the state (public and private), as immutable values; the rng by its state."""
    out: dict[str, Any] = {}
    for name in DuelState.__slots__:
        if name == "cards":
            continue
        value = getattr(state, name)
        out[name] = value.state if name == "rng" else _freeze(value)
    return out


def views(state: DuelState) -> tuple[Any, Any, Any]:
    return state.view(None), state.view(0), state.view(1)


def bot_deciders(seed: int) -> list[Any]:
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    return [bots[0].choose, bots[1].choose]


def play_random(options: dict[str, Any], seed: int) -> tuple[MatchRecord, DuelState]:
    record = new_record(GAME, options, seed, ["bot:random", "bot:random"])
    state = GAME.new_match(options, seed)
    play(state, bot_deciders(seed), record)
    return record, state


def replay_state(record: MatchRecord) -> DuelState:
    """The final state of a record, replayed action by action from its text notation."""
    state = start(GAME, record)
    assert isinstance(state, DuelState)
    for text in record.actions:
        state.apply(GAME.action_from_text(text))
    return state


def drive(state: DuelState, choices: Sequence[int], fallback: int, limit: int | None = None,
          on_state: Any = None) -> list[DuelAction]:
    """Play from ``state``: the i-th decision takes ``choices[i]`` modulo the number of legal actions
    (then a seeded generator); stop after ``limit`` actions or at the end. Returns the actions played."""
    rng = Rng(fallback)
    played: list[DuelAction] = []
    while state.to_act is not None and (limit is None or len(played) < limit):
        legal = state.legal_actions()
        i = len(played)
        pick = choices[i] % len(legal) if i < len(choices) else rng.below(len(legal))
        action = legal[pick]
        state.apply(action)
        played.append(action)
        if on_state is not None:
            on_state(state)
    return played


def support_groups(state: DuelState) -> list[Counter[int]]:
    """Where every support card is, per deck (one shared deck, or one deck per seat)."""
    events_by = [[s for p, s in state.events if p == q] for q in (0, 1)]
    place = [state.place] if state.place else []
    if state.shared:
        everything = [*state.piles[0], *state.hands[0], *state.hands[1], *state.discards[0], *state.discards[1],
                      *state.items[0], *state.items[1], *events_by[0], *events_by[1], *place]
        return [Counter(everything)]
    return [
        Counter([*state.piles[q], *state.hands[q], *state.discards[q], *state.items[q], *events_by[q],
                 *(place if state.place_owner == q else [])])
        for q in (0, 1)
    ]


def check_invariants(state: DuelState, decks: list[Counter[int]]) -> None:
    over = state.phase is Phase.OVER
    assert (state.to_act is None) == over == (state.outcome is not None)
    if not over:
        legal = state.legal_actions()
        assert legal, f"no legal action for seat {state.to_act} in phase {state.phase.name}"
        assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
        assert state.view(state.to_act).legal == tuple(legal)
        mask = legal_action_mask(state, NUM_ACTIONS)
        assert sum(mask) == len(legal)
    for q in (0, 1):
        assert 0 <= state.plays[q] <= 2  # R6: at most 2 plays per round
        assert all(1 <= s <= NUM_SUPPORTS for s in state.hands[q]), state.hands[q]
        assert not Counter(state.revealed[q]) - Counter(state.hands[q]), "a revealed card is not in the hand"
        assert 0 <= state.looked_at[q] <= len(state.pile(q))
        assert 0 <= state.wins[q] <= 2
    # The plays of this round, counted from the public log, match the counters (R6: at most 2, ability once).
    if state.phase in (Phase.PLAY, Phase.CHOICE):
        for q in (0, 1):
            plays = [a for seat, a, _auto in state.log if seat == q and a.kind in (Kind.PLAY, Kind.ABILITY)]
            assert len(plays) == state.plays[q]
            assert sum(a.kind is Kind.ABILITY for a in plays) == int(state.ability_used[q]) <= 1
    # Conservation: no support card appears or disappears (R2, R8, R13).
    assert support_groups(state) == decks


def initial_decks(state: DuelState) -> list[Counter[int]]:
    groups = support_groups(state)
    if state.shared:
        assert groups == [Counter(range(1, NUM_SUPPORTS + 1))]
    else:
        for group in groups:
            assert 8 <= sum(group.values()) <= 12
            assert all(n == 1 for n in group.values())
    return groups


# --------------------------------------------------------------------------- 1,000 matches per mode


@pytest.mark.parametrize("options", list(MODES.values()), ids=list(MODES))
def test_random_matches_finish_and_replay_identically(options: dict[str, Any]) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(MATCHES_PER_MODE):
        record, state = play_random(options, seed)
        assert state.outcome is not None
        assert record.result == state.outcome.to_json()
        reasons[str(state.outcome.reason)] += 1
        # JSON round trip
        loaded = MatchRecord.from_json(json.loads(record.dumps()), f"seed {seed}")
        assert loaded == record
        # replay: same outcome, same number of steps
        report = replay(GAME, loaded)
        assert report.ok, f"seed {seed}: {report}"
        assert report.outcome == state.outcome
        assert report.steps == len(record.actions)
        # and the very same final state, public and private
        again = replay_state(loaded)
        assert snapshot(again) == snapshot(state), f"seed {seed}: replayed state differs"
        assert views(again) == views(state), f"seed {seed}: replayed views differ"
    # The bots do reach more than the commonest ending (else this test would prove little).
    assert reasons[Reason.TWO_WINS] > 0
    assert reasons[Reason.TIEBREAK] + reasons[Reason.TIED_MATCH] > 0, reasons


# ------------------------------------------------------------------------------- hypothesis properties

MODE_OPTIONS = st.sampled_from(list(MODES.values()))
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
CHOICES = st.lists(st.integers(min_value=0, max_value=63), max_size=80)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=35, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(options=MODE_OPTIONS, seed=SEEDS, choices=CHOICES)
def test_same_seed_and_actions_give_the_same_states(options: dict[str, Any], seed: int,
                                                    choices: list[int]) -> None:
    first = GAME.new_match(options, seed)
    seen: list[tuple[Any, Any, Any]] = [views(first)]
    played = drive(first, choices, seed, on_state=lambda s: seen.append(views(s)))
    assert first.outcome is not None

    second = GAME.new_match(options, seed)
    assert views(second) == seen[0]
    for i, action in enumerate(played, start=1):
        second.apply(GAME.action_from_text(action.text()))
        assert views(second) == seen[i], f"step {i} ({action.text()}) differs"
    assert snapshot(second) == snapshot(first)
    assert second.outcome == first.outcome

    record = new_record(GAME, options, seed, ["a", "b"])
    record.actions = [a.text() for a in played]
    record.result = first.outcome.to_json()
    report = replay(GAME, MatchRecord.from_json(json.loads(record.dumps())))
    assert report.ok, report
    assert report.outcome == first.outcome
    assert snapshot(replay_state(record)) == snapshot(first)


@FAST
@given(options=MODE_OPTIONS, seed=SEEDS, choices=CHOICES, split=st.integers(min_value=0, max_value=60))
def test_clone_mid_way_continues_identically_and_independently(options: dict[str, Any], seed: int,
                                                                choices: list[int], split: int) -> None:
    original = GAME.new_match(options, seed)
    head = drive(original, choices, seed, limit=split)
    rest = choices[len(head):]
    before = snapshot(original)
    before_views = views(original)

    copy = original.clone()
    assert snapshot(copy) == before
    assert views(copy) == before_views
    drive(copy, rest, seed + 1)
    # Playing on the clone did not touch the original.
    assert snapshot(original) == before
    assert views(original) == before_views

    copy_after = snapshot(copy)
    drive(original, rest, seed + 1)
    # ... nor does playing on the original touch the clone, and both ended the same.
    assert snapshot(copy) == copy_after
    assert snapshot(original) == copy_after
    assert views(original) == views(copy)
    assert original.outcome == copy.outcome
    assert original.outcome is not None


@SLOW
@given(options=MODE_OPTIONS, seed=SEEDS, choices=CHOICES)
def test_every_legal_action_applies_and_every_other_raises(options: dict[str, Any], seed: int,
                                                           choices: list[int]) -> None:
    state = GAME.new_match(options, seed)
    decks = initial_decks(state)

    def check(s: DuelState) -> None:
        check_invariants(s, decks)
        if s.to_act is None:
            return
        legal = set(s.legal_actions())
        for action in legal:
            trial = s.clone()
            trial.apply(action)  # never raises
            check_invariants(trial, decks)
        # Every other action raises IllegalAction and leaves the state as it was.
        trial = s.clone()
        before = snapshot(trial)
        for action in ACTIONS:
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as info:
                trial.apply(action)
            assert str(info.value)
        assert snapshot(trial) == before, "a rejected action changed the state"

    check(state)
    drive(state, choices, seed, on_state=check)
    # Once over, nothing applies.
    for action in ACTIONS[::7]:
        with pytest.raises(IllegalAction):
            state.apply(action)


@FAST
@given(options=MODE_OPTIONS, seed=SEEDS, choices=CHOICES)
def test_round_bookkeeping(options: dict[str, Any], seed: int, choices: list[int]) -> None:
    """Per round: each seat plays at most 2 times, the ability at most once; hands never go negative;
    rounds are numbered 1, 2, 3 (4 = tie-break); the outcome's scores are the round wins."""
    state = GAME.new_match(options, seed)
    plays: Counter[tuple[int, int]] = Counter()
    abilities: Counter[tuple[int, int]] = Counter()
    rng = Rng(seed)
    i = 0
    while state.to_act is not None:
        legal = state.legal_actions()
        action = legal[choices[i] % len(legal) if i < len(choices) else rng.below(len(legal))]
        i += 1
        round_no, seat = state.round_no, state.to_act
        state.apply(action)
        if action.kind in (Kind.PLAY, Kind.ABILITY):
            plays[(round_no, seat)] += 1
        if action.kind is Kind.ABILITY:
            abilities[(round_no, seat)] += 1
        for q in (0, 1):
            assert all(1 <= s <= NUM_SUPPORTS for s in state.hands[q]), state.hands[q]
            assert state.plays[q] <= 2
    assert all(n <= 2 for n in plays.values()), plays
    assert all(n <= 1 for n in abilities.values()), abilities
    results = state.results
    assert [r.number for r in results] == list(range(1, len(results) + 1))
    assert 2 <= len(results) <= 4
    outcome = state.outcome
    assert outcome is not None
    wins = tuple(sum(r.winner == q for r in results) for q in (0, 1))
    assert outcome.scores == wins


# ------------------------------------------------------------------------------------------- notation


def test_action_table_is_complete() -> None:
    assert len(ACTIONS) == NUM_ACTIONS == GAME.num_actions == 187
    assert [a.id for a in ACTIONS] == list(range(NUM_ACTIONS))
    assert len({a.text() for a in ACTIONS}) == NUM_ACTIONS


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.text())
def test_notation_round_trips(action: DuelAction) -> None:
    text = action.text()
    assert GAME.action_from_text(text) == action
    assert GAME.action_from_text(text.upper()) == action
    assert GAME.action_from_text(f"  {text.lower()}  ") == action
    assert GAME.action_from_id(action.id) == action
    assert DuelAction.of(action.kind, action.arg) == action


@pytest.mark.parametrize(
    "text",
    ["", "   ", "play", "play S", "play S0", "play S22", "play C3", "play S-1", "play S1 S2", "pick C0", "pick C34",
     "stat fire", "stat", "jump S1", "passs", "pass now", "play S3.0", "line S3", "take C2",
     "play S²", "pass 1", "pass C7"],
)
def test_bad_notation_raises_illegal_action(text: str) -> None:
    with pytest.raises(IllegalAction):
        GAME.action_from_text(text)


@pytest.mark.parametrize("action_id", [-1, NUM_ACTIONS, 10**6])
def test_bad_action_id_raises_illegal_action(action_id: int) -> None:
    with pytest.raises(IllegalAction):
        GAME.action_from_id(action_id)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(
    st.text(max_size=12),
    st.builds(lambda w, a: f"{w} {a}", st.sampled_from([k.word for k in Kind]),
              st.one_of(st.text(max_size=5), st.from_regex(r"[SCsc]?[0-9²¹٣]{1,3}", fullmatch=True))),
))
def test_any_text_reads_as_an_action_or_raises_illegal_action(text: str) -> None:
    """Reading notation never fails with anything but IllegalAction (replay relies on it), and what it
    reads is an action of the kind the text names."""
    try:
        action = GAME.action_from_text(text)
    except IllegalAction:
        return
    assert action.kind.word.upper() == text.split()[0].upper(), f"{text!r} was read as {action.text()!r}"
    assert GAME.action_from_text(action.text()) == action


@FAST
@given(options=MODE_OPTIONS, seed=SEEDS, choices=CHOICES)
def test_played_actions_round_trip_through_notation_and_ids(options: dict[str, Any], seed: int,
                                                           choices: list[int]) -> None:
    state = GAME.new_match(options, seed)
    for action in drive(state, choices, seed):
        assert GAME.action_from_text(action.text()) == action
        assert GAME.action_from_id(action.id) == action
