"""Flamecraft Duals behind the common protocol: the game's facts and the factory of matches (with setups).

The seeded setup follows the rules text in order: shuffle the shop deck, each player draws 2 cards (seat 0
first) and has 3 coins; the first player is drawn per D3; then one artisan of each type goes at random on
the inner ring, one of each type to the reserve and the rest (24 artisans, 6 duals, and Buddy in the Buddy
variant, D11) into the bag, shuffled. The first player's turn starts with their token draw.

D3 extension: the first-player draw happens at setup step 5, before step 7 takes Buddy out of the bag and
before steps 8-9 take the inner-ring and reserve tokens: each player draws from every token (Buddy
included, in either mode); all drawn tokens go back.

Explicit setup (tests, records, puzzles); every key is optional::

    setup = {
      "board": {"c3": ["bread", "meat+bread"]},   # stacks per space, bottom first; other spaces empty
      "bag": ["meat", "potion+plant"],            # the bag, first drawn first (returned tokens go in at random)
      "reserve": ["bread", "crystal"],            # default: empty
      "deck": [12, 5, 30],                        # shop cards, top first
      "hands": [[1, 2], [3, 4]],
      "coins": [3, 3],                            # default 3 each
      "first": 0,                                 # whose turn starts the match (no D3 draw)
      "scores": [[7], []],                        # score piles
    }

Tokens and cards an explicit setup does not list are out of the match; none may appear more often than the
data has them (Buddy only in the Buddy variant), no card twice. A setup is the start of a turn, so it holds only
what a match can reach there: hands of at most 2 cards (REFRESH draws up to 2; the coin draws 2 and puts 2 back),
at most 3 coins each (setup step 2; coins are only ever spent), ``first`` the integer 0 or 1. Small decks and
empty hands are positions a match reaches (late, or at its end), so they are kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flametable.core.errors import RecordError
from flametable.core.i18n import N_, Phrase
from flametable.core.protocol import GameBase
from flametable.core.record import seat_value
from flametable.core.rng import Rng
from flametable.games.duals.actions import ActionSpace, DualsAction, Kind
from flametable.games.duals.data import DualsData, builtin_duals_data, load_duals_data
from flametable.games.duals.rules import HAND_SIZE, NUM_TYPES, RULES_VERSION, STACK_LIMIT, START_COINS, DualsOptions
from flametable.games.duals.state import DualsState

if TYPE_CHECKING:
    from pathlib import Path


class DualsGame(GameBase):
    """Flamecraft Duals with one data set (board, tokens, shop deck)."""

    name = "duals"
    rules_version = RULES_VERSION

    def __init__(self, data: DualsData | Path | str | None = None) -> None:
        """``data``: a loaded data set, the path of a data file, or None for the built-in data."""
        if data is None:
            data = builtin_duals_data()
        elif not isinstance(data, DualsData):
            data = load_duals_data(data)
        self.data = data
        self.actions = ActionSpace(self.data)
        self.num_actions = self.actions.num_actions
        data = self.data
        # The tables every state of this game shares (the state's GAME fields).
        open_cache: dict[int, tuple[list[int], list[DualsAction]]] = {}
        self._tables: dict[str, Any] = {
            "data": data,
            "actions": self.actions,
            "neighbours": data.board.adj,
            "abilities": tuple(tuple(sorted(a)) for a in data.kind_abilities),
            "kind_types": data.matcher.kind_types,
            "open_cache": open_cache,
        }
        # The seeded deal's fixed parts: every token (D3's draw), the bag's contents (D2), the draw's ranks.
        self._pool = [k for k in range(data.num_kinds) for _ in range(data.supply[k])]
        self._bag = [t for t in range(NUM_TYPES) for _ in range(data.artisans_per_type - 2)]
        self._bag += range(NUM_TYPES, NUM_TYPES + len(data.duals))
        self._ranks = tuple(data.rank_key(k) for k in range(data.num_kinds))

    def content_id(self) -> tuple[str, str]:
        return self.data.id, self.data.hash

    def action_from_text(self, text: str) -> DualsAction:
        return self.actions.from_text(text)

    def action_from_id(self, action_id: int) -> DualsAction:
        return self.actions.from_id(action_id)

    def new_match(
        self,
        options: Mapping[str, Any] | DualsOptions | None = None,
        seed: int = 0,
        setup: Mapping[str, Any] | None = None,
    ) -> DualsState:
        opts = DualsOptions.from_json(options)
        data = self.data
        if opts.buddy and not data.buddy_tokens:
            # D11: the Buddy variant puts the data's Buddy token into the bag
            raise RecordError(N_("the data {data!r} has no Buddy token for the Buddy variant"), data=data.id)
        st = self.blank(opts.buddy, Rng(seed))
        if setup is not None:
            _apply_setup(st, setup)
        else:
            self._deal(st)
        st.index_board()
        st._start_turn(st.first)
        st._settle()
        return st

    def blank(self, buddy: bool, rng: Rng) -> DualsState:
        """A state of this game before anything is dealt, every field at its empty value: ``new_match`` and the
        determiniser start from it and fill in what they know."""
        return DualsState.blank(buddy=buddy, rng=rng, stacks=[()] * self.data.board.size, **self._tables)

    def _deal(self, st: DualsState) -> None:
        data = self.data
        rng = st.rng
        deck = list(range(1, len(data.cards) + 1))
        rng.shuffle(deck)
        for p in (0, 1):
            for _ in range(HAND_SIZE):
                if deck:
                    st.hands[p].append(deck.pop())
        st.deck = deck
        # D3: each player draws a token; the higher FIRE UP rank starts; equal: both go back, draw again.
        pool = self._pool
        ranks = self._ranks
        draws: list[tuple[int, int]] = []
        while True:
            i = rng.below(len(pool))
            j = rng.below(len(pool) - 1)
            if j >= i:
                j += 1
            t0, t1 = pool[i], pool[j]
            draws.append((t0, t1))
            r0, r1 = ranks[t0], ranks[t1]
            if r0 != r1:
                st.first = 0 if r0 > r1 else 1
                break
        st.first_draws = tuple(draws)
        # D2: one artisan of each type at random on the inner ring, one of each as the reserve, the rest in
        # the bag.
        types = list(range(NUM_TYPES))
        rng.shuffle(types)
        for s, t in zip(data.board.inner, types, strict=True):
            st.stacks[s] = (t,)
        st.reserve = list(range(NUM_TYPES))
        bag = self._bag[:]
        if st.buddy:
            bag += [data.buddy] * data.buddy_tokens
        rng.shuffle(bag)
        st.bag = bag

    def public_action(self, action: DualsAction) -> bool:
        """Whether the other player and spectators may know ``action`` once played (D10): every decision is
        public but which card of the hand goes to the bottom of the deck after the coin (``bottom``)."""
        return action.kind != Kind.BOTTOM

    def public_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """What everyone may know of a match's options before it ends: all of them (the Buddy variant)."""
        return DualsOptions.from_json(options).to_json()


def _int_list(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RecordError(N_("{field} must be a list of integers, got {value!r}"), field=f"setup.{what}", value=value)
    return list(value)


def _apply_setup(st: DualsState, setup: Mapping[str, Any]) -> None:
    known = {"board", "bag", "reserve", "deck", "hands", "coins", "first", "scores"}
    unknown = set(setup) - known
    if unknown:
        raise RecordError(N_("{field}: unknown field(s) {fields}"), field="setup", fields=", ".join(sorted(unknown)))
    data = st.data
    counts = [0] * data.num_kinds

    def tokens(value: Any, what: str) -> list[int]:
        if not isinstance(value, list):
            raise RecordError(N_("{field} must be a list of token names, got {value!r}"), field=f"setup.{what}",
                              value=value)
        out = []
        for name in value:
            k = data.kind_of(name) if isinstance(name, str) else -1
            if k < 0:
                raise RecordError(N_("{field}: unknown token {value!r} (known: {known})"), field=f"setup.{what}",
                                  value=name, known=", ".join(data.kind_names))
            if k == data.buddy and not st.buddy:  # D11
                raise RecordError(N_("{field}: Buddy plays only in the Buddy variant"), field=f"setup.{what}")
            counts[k] += 1
            out.append(k)
        return out

    board = setup.get("board") or {}
    if not isinstance(board, Mapping):
        raise RecordError(N_("{field} must be an object like {example}"), field="setup.board",
                          example='{"c3": ["bread", "meat"]}')
    for name, stack in board.items():
        s = data.board.index.get(name, -1)
        if s < 0:
            raise RecordError(N_("{field}: no space {space!r} on the board"), field="setup.board", space=name)
        kinds = tokens(stack, f"board.{name}")
        if len(kinds) > STACK_LIMIT:
            raise RecordError(N_("{field}: at most {most} tokens per space, got {n}"), field=f"setup.board.{name}",
                              most=STACK_LIMIT, n=len(kinds))
        st.stacks[s] = tuple(kinds)
    st.bag = list(reversed(tokens(setup.get("bag", []), "bag")))  # the engine draws from the end
    st.reserve = tokens(setup.get("reserve", []), "reserve")
    for k, n in enumerate(counts):
        if n > data.supply[k]:
            raise RecordError(N_("{field}: {n} {token} tokens, the data has {supply}"), field="setup", n=n,
                              token=data.kind_names[k], supply=data.supply[k])

    m = len(data.cards)
    deck = _int_list(setup.get("deck", []), "deck")
    hands = setup.get("hands", [[], []])
    scores = setup.get("scores", [[], []])
    for key, rows in (("hands", hands), ("scores", scores)):
        if not isinstance(rows, list) or len(rows) != 2:
            raise RecordError(N_("{field} needs one list per player (2), got {value!r}"), field=f"setup.{key}",
                              value=rows)
    hand_rows = [_int_list(hands[p], f"hands[{p}]") for p in (0, 1)]
    for p, row in enumerate(hand_rows):
        if len(row) > HAND_SIZE:  # REFRESH draws up to 2; the coin draws 2, then puts 2 back
            raise RecordError(N_("{field}: a hand holds at most {most} cards when a turn starts, got {n}"),
                              field=f"setup.hands[{p}]", most=HAND_SIZE, n=len(row))
    score_rows = [_int_list(scores[p], f"scores[{p}]") for p in (0, 1)]
    every = [*deck, *hand_rows[0], *hand_rows[1], *score_rows[0], *score_rows[1]]
    for c in every:
        if not 1 <= c <= m:
            raise RecordError(N_("{field}: {numbers} are 1..{last}, got {value!r}"), field="setup",
                              numbers=Phrase(N_("card numbers")), last=m, value=c)
    dup = sorted({c for c in every if every.count(c) > 1})
    if dup:
        raise RecordError(N_("{field}: card(s) {cards} appear more than once"), field="setup", cards=dup)
    st.deck = list(reversed(deck))  # top first in the setup, top last in the engine
    st.hands = hand_rows
    st.piles = score_rows
    coins = setup.get("coins", [START_COINS, START_COINS])
    if (not isinstance(coins, list) or len(coins) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in coins)):
        raise RecordError(N_("{field} must be two non-negative integers, got {value!r}"), field="setup.coins",
                          value=coins)
    for p, c in enumerate(coins):
        if c > START_COINS:  # setup step 2 gives 3; a coin is only ever spent
            raise RecordError(N_("{field}: a player has at most {most} coins, got {n}"), field=f"setup.coins[{p}]",
                              most=START_COINS, n=c)
    st.coins = list(coins)
    st.first = seat_value(setup.get("first", 0), "setup.first")
