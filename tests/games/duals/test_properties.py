"""Property tests of the Flamecraft Duals engine over random matches.

* 1,000 seeded random-bot matches without Buddy and 1,000 with it finish, and every record replays to the
  identical state.
* Hypothesis draws the seed and every choice: determinism (replayed or cloned mid-way), legality (every
  legal action applies, every other action id raises ``IllegalAction`` and changes nothing), conservation
  of tokens and cards, and the views' non-interference (D10).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flametable.bots.base import RandomBot
from flametable.core.engine import REQUIRED, Copy
from flametable.core.errors import IllegalAction
from flametable.core.protocol import legal_action_mask
from flametable.core.record import MatchRecord, replay, start
from flametable.core.rng import Rng
from flametable.games.duals.rules import Reason
from flametable.games.duals.state import FIELDS, DualsState
from flametable.service import new_record, play

from .scripted import DATA, GAME

MATCHES = 1000
# the game's tables (shared, given to blank) and the caches
_SHARED = {f.name for f in FIELDS if f.copy is Copy.CACHE or (f.copy is Copy.SHARED and f.empty is REQUIRED)}
_SHARED.add("_legal")
CARDS = list(range(1, len(DATA.cards) + 1))


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def snapshot(state: DualsState) -> dict[str, Any]:
    """Every field of the state (public and private) as immutable values; the rng by its state."""
    out: dict[str, Any] = {name: _freeze(getattr(state, name)) for name in DualsState.__slots__
                           if name not in _SHARED and name != "rng"}
    out["rng"] = state.rng.state
    out["legal"] = tuple(a.id for a in state.legal_actions())
    return out


def play_random(options: dict[str, Any], seed: int) -> tuple[MatchRecord, DualsState]:
    record = new_record(GAME, options, seed, ["bot:random", "bot:random"])
    state = GAME.new_match(options, seed)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    play(state, [bots[0].choose, bots[1].choose], record)
    return record, state


@pytest.mark.parametrize("buddy", [False, True])
def test_random_matches_finish_and_replay_identically(buddy: bool) -> None:
    reasons = set()
    for seed in range(MATCHES):
        record, state = play_random({"buddy": buddy}, seed)
        assert state.outcome is not None
        assert state.to_act is None
        assert state.legal_actions() == []
        reasons.add(state.outcome.reason)
        again = MatchRecord.from_json(json.loads(record.dumps()))
        report = replay(GAME, again)  # checks every action and the stored result
        assert report.ok, report
        assert report.steps == len(record.actions)
        if seed % 10 == 0:  # and, for one match in ten, every field of the final state
            replayed = start(GAME, again)
            assert isinstance(replayed, DualsState)
            for text in again.actions:
                replayed.apply(GAME.action_from_text(text))
            assert snapshot(replayed) == snapshot(state)
    assert Reason.MOST_VP in reasons


def _play_on(state: DualsState, choices: list[int], seed: int, finish: bool = True,
             seen: list[DualsState] | None = None) -> DualsState:
    """Play ``choices`` (indexes into the legal actions), then, with ``finish``, random actions seeded by
    ``seed`` to the end of the match (a list of choices rarely lasts a whole match); ``seen`` collects clones."""
    rng = Rng(seed)

    def moves() -> Any:
        yield from choices
        while finish:
            yield None

    for c in moves():
        if state.to_act is None:
            break
        legal = state.legal_actions()
        state.apply(legal[(c if c is not None else rng.below(len(legal))) % len(legal)])
        if seen is not None:
            seen.append(state.clone())
    return state


def _walk(seed: int, choices: list[int], buddy: bool = False, finish: bool = True,
          ) -> tuple[DualsState, list[DualsState]]:
    """A seeded match played by ``_play_on``; also return the states met, first and last included."""
    state = GAME.new_match({"buddy": buddy}, seed)
    seen = [state.clone()]
    return _play_on(state, choices, seed, finish, seen), seen


seeds = st.integers(0, 2**40)
choice_lists = st.lists(st.integers(0, 10_000), min_size=0, max_size=160)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, choices=choice_lists, buddy=st.booleans())
def test_determinism(seed: int, choices: list[int], buddy: bool) -> None:
    a, _ = _walk(seed, choices, buddy)
    b, _ = _walk(seed, choices, buddy)
    assert snapshot(a) == snapshot(b)
    # A clone taken half-way and played on gives the same state as the original.
    assert a.to_act is None  # played to the end
    half = len(choices) // 2
    c, _ = _walk(seed, choices[:half], buddy, finish=False)
    d = c.clone()
    for state in (c, d):
        _play_on(state, choices[half:], seed)
    assert snapshot(c) == snapshot(d) == snapshot(a)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, choices=choice_lists, buddy=st.booleans(), probe=st.integers(0, 10_000))
def test_legal_actions_apply_and_others_raise(seed: int, choices: list[int], buddy: bool, probe: int) -> None:
    _, seen = _walk(seed, choices, buddy)
    for state in (seen[probe % len(seen)], seen[-1]):
        legal = state.legal_actions()
        ids = [a.id for a in legal]
        assert ids == sorted(set(ids))
        assert (state.to_act is None) == (not legal)
        assert legal_action_mask(state, GAME.num_actions) == [i in ids for i in range(GAME.num_actions)]
        before = snapshot(state)
        for action in legal:
            clone = state.clone()
            clone.apply(action)
            assert clone.token_count() == state.token_count()
        for i in range(GAME.num_actions):
            if i in ids:
                continue
            with pytest.raises(IllegalAction):
                state.apply(GAME.action_from_id(i))
        assert snapshot(state) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, choices=choice_lists, buddy=st.booleans())
def test_conservation_and_invariants(seed: int, choices: list[int], buddy: bool) -> None:
    _, seen = _walk(seed, choices, buddy)
    tokens = seen[0].token_count()
    assert tokens == [6] * 6 + [1] * 6 + [1 if buddy else 0]
    for state in seen:
        assert state.token_count() == tokens
        assert all(len(s) <= 3 for s in state.stacks)
        assert sorted([*state.deck, *state.hands[0], *state.hands[1], *state.piles[0], *state.piles[1]]) == CARDS
        assert all(0 <= c <= 3 for c in state.coins)
        for p in (0, 1):
            assert set(state.known_bottom[p]) <= set(state.deck)
        if state.to_act is not None:
            for action in state.legal_actions():
                assert GAME.action_from_text(action.text()) == action


def _perturb_hidden(state: DualsState, seat: int | None, salt: int) -> DualsState:
    """A clone whose hidden parts (for ``seat``) differ: the bag order, the deck order (but for the cards
    the seat put at the bottom), the opponent's hand (swapped with unknown deck cards) and the rng."""
    other = state.clone()
    rng = Rng(salt)
    rng.shuffle(other.bag)
    known = set(other.known_bottom[seat]) if seat is not None else set()
    free = [i for i, c in enumerate(other.deck) if c not in known]
    cards = [other.deck[i] for i in free]
    hidden_hands = [p for p in (0, 1) if p != seat]
    for p in hidden_hands:  # swap hidden hand cards with hidden deck cards
        hand = other.hands[p]
        for j in range(len(hand)):
            if cards and rng.coin():
                k = rng.below(len(cards))
                hand[j], cards[k] = cards[k], hand[j]
    rng.shuffle(cards)
    for i, c in zip(free, cards, strict=True):
        other.deck[i] = c
    for p in hidden_hands:  # the opponent's own knowledge of the bottom follows the cards it knows
        other.known_bottom[p] = [c for c in other.known_bottom[p] if c in other.deck]
    other.rng = Rng(salt ^ 0xABCDEF)
    other._match_cache = {}
    return other


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, choices=choice_lists, salt=st.integers(0, 2**32))
def test_views_do_not_show_hidden_information(seed: int, choices: list[int], salt: int) -> None:
    """D10: "Hidden: deck order and bag draw order" and the opponent's hand: perturbing them (in a clone)
    leaves the view unchanged."""
    _, seen = _walk(seed, choices)
    assert seen[-1].to_act is None  # the last chance and the end are seen too
    for state in [*seen[:: max(1, len(seen) // 6)], seen[-1]]:
        for seat in (None, 0, 1):
            other = _perturb_hidden(state, seat, salt)
            assert other.view(seat) == state.view(seat)
