"""Flame Duel behind the common protocol: the game's facts and the factory of matches (with setups)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flametable.core.errors import RecordError
from flametable.core.i18n import N_, Phrase
from flametable.core.protocol import GameBase
from flametable.core.record import seat_value
from flametable.core.rng import Rng
from flametable.games.duel.actions import NUM_ACTIONS, DuelAction, Kind
from flametable.games.duel.cards import (
    NUM_CHARACTERS,
    NUM_SUPPORTS,
    CardSet,
    Deck,
    EffectKind,
    SupportKind,
    builtin_card_set,
    parse_deck,
)
from flametable.games.duel.rules import (
    DRAFT_PHASE,
    DRAFT_PICK,
    HAND_SIZE,
    LINEUP_PHASE,
    MAX_PLAYS,
    ROUNDS,
    RULES_VERSION,
    SHARED_MODE,
    DuelOptions,
    Mode,
    Phase,
)
from flametable.games.duel.state import DuelState

_ALL_CHARS = list(range(1, NUM_CHARACTERS + 1))
_ALL_SUPPORTS = list(range(1, NUM_SUPPORTS + 1))
_CHARACTER_NUMBERS = Phrase(N_("character numbers"))
_SUPPORT_NUMBERS = Phrase(N_("support card numbers"))
MOST_SUPPORTS = 12  # R2: an own deck holds 8 to 12 support cards


class DuelGame(GameBase):
    """Flame Duel with one card set."""

    name = "duel"
    rules_version = RULES_VERSION
    num_actions = NUM_ACTIONS
    engine = "python"  # which engine plays the matches (NativeDuelGame's is "native"): flametable bench says it

    def __init__(self, cards: CardSet | None = None) -> None:
        self.cards = cards if cards is not None else builtin_card_set()

    def content_id(self) -> tuple[str, str]:
        return self.cards.id, self.cards.hash

    def action_from_text(self, text: str) -> DuelAction:
        return DuelAction.from_text(text)

    def action_from_id(self, action_id: int) -> DuelAction:
        return DuelAction.from_id(action_id)

    def new_match(
        self,
        options: Mapping[str, Any] | DuelOptions | None = None,
        seed: int = 0,
        setup: Mapping[str, Any] | None = None,
    ) -> DuelState:
        opts = DuelOptions.from_json(options)
        rng = Rng(seed)
        st = DuelState.blank(self.cards, opts.mode is SHARED_MODE, opts.pick is DRAFT_PICK, rng)
        if setup is not None:
            st.rng = Rng(seed ^ 0x5EED)
            _apply_setup(st, opts, setup)
            return st
        st.first_picker = rng.coin()
        if st.shared:
            pile = _ALL_SUPPORTS[:]
            rng.shuffle(pile)
            st.piles = [pile]
            if st.draft:
                st.phase = DRAFT_PHASE
                st.acting = st.first_picker
            else:
                dealt = rng.sample(_ALL_CHARS, 6)
                st.characters = [sorted(dealt[:3]), sorted(dealt[3:])]
                st.phase = LINEUP_PHASE
                st.acting = 0
        else:
            decks = [d if d is not None else random_deck(rng) for d in opts.decks]
            st.characters = [sorted(decks[0].characters), sorted(decks[1].characters)]
            st.piles = []
            for d in decks:
                pile = list(d.supports)
                rng.shuffle(pile)
                st.piles.append(pile)
            st.phase = LINEUP_PHASE
            st.acting = 0
        return st

    def public_action(self, action: DuelAction) -> bool:
        """Whether the other player and spectators may know ``action`` once played (R15): every decision is
        public but where a character goes in the secret line-up (R3) and the tie-break pick (R14), which the
        flip shows when the round starts."""
        return action.kind != Kind.LINE and action.kind != Kind.CHAMPION

    def public_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """What everyone may know of a match's options before it ends: the mode and how characters are picked.
        Own decks stay secret (R2: each player builds theirs; the opponent learns it card by card)."""
        opts = DuelOptions.from_json(options)
        return {"mode": str(opts.mode), "pick": str(opts.pick)}

    def swapped_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options of a rematch where the players swap seats: each player keeps their own deck."""
        opts = DuelOptions.from_json(options)
        return DuelOptions(opts.mode, opts.pick, (opts.decks[1], opts.decks[0])).to_json()

    def brought_options(self, options: Mapping[str, Any] | None, seed: int, seat: int,
                        brought: Any) -> dict[str, Any] | None:
        """Own decks (R2): each player brings theirs, the one joining too. ``brought`` (a deck's JSON, checked as
        the creator's is: the same errors, at ``options.decks[SEAT]``; None: a random deck) becomes ``seat``'s;
        the other seat keeps the deck it was dealt with the match's seed (a random one made explicit: its
        characters were in its player's view). A random deck is the one the seed deals: the options unchanged.
        None in shared mode: there is nothing to bring."""
        opts = DuelOptions.from_json(options)
        if opts.mode is SHARED_MODE:
            return None
        if brought is None:
            return dict(options or {})
        dealt = DuelGame.new_match(self, opts, seed)  # the Python deal (a native game's is the same)
        decks = [Deck(tuple(sorted(dealt.characters[p])), tuple(sorted(dealt.piles[p]))) for p in (0, 1)]
        mine = parse_deck(brought, f"options.decks[{seat}]")
        return DuelOptions(opts.mode, opts.pick, (mine, decks[1]) if seat == 0 else (decks[0], mine)).to_json()


def random_deck(rng: Rng) -> Deck:
    """A random valid own deck (R2): 3 characters, 8 to 12 supports."""
    chars = rng.sample(_ALL_CHARS, 3)
    sups = rng.sample(_ALL_SUPPORTS, 8 + rng.below(5))
    return Deck(tuple(sorted(chars)), tuple(sorted(sups)))


def most_in_hand(cards: CardSet) -> int:
    """The most support cards a hand can hold when a round starts: 3 dealt (R4), one drawn at each of the three
    clean-ups before the tie-break round (R13), and what plays can add: a play spends a card (the support played,
    or the one discarded for the ability, R11) and its table effects (R10) may draw or take back cards, so each
    of the 2 plays of a round (R6) adds at most that gain less one. With the built-in cards no play adds."""
    gain = 0
    for effects in (*(c.effects for c in cards.characters), *(s.effects for s in cards.supports)):
        taken = sum(e.n if e.kind is EffectKind.DRAW else 1 for e in effects
                    if e.kind in (EffectKind.DRAW, EffectKind.RECOVER))
        gain = max(gain, taken - 1)
    return HAND_SIZE + ROUNDS * (1 + MAX_PLAYS * gain)


def _ints(setup: Mapping[str, Any], key: str, hi: int, numbers: Phrase) -> list[list[int]] | None:
    if key not in setup or setup[key] is None:
        return None
    value = setup[key]
    if not isinstance(value, list) or not all(isinstance(v, list) for v in value):
        raise RecordError(N_("{field} must be a list of lists of {numbers}"), field=f"setup.{key}", numbers=numbers)
    for i, row in enumerate(value):
        for v in row:
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= hi:
                raise RecordError(N_("{field}: {numbers} are 1..{last}, got {value!r}"), field=f"setup.{key}[{i}]",
                                  numbers=numbers, last=hi, value=v)
    return [list(row) for row in value]


def _apply_setup(st: DuelState, opts: DuelOptions, setup: Mapping[str, Any]) -> None:
    """An explicit setup instead of the seeded deal: line-ups (or characters), hands, piles, discards."""
    known = {"lineups", "characters", "hands", "piles", "discards", "place", "first_picker"}
    unknown = set(setup) - known
    if unknown:
        raise RecordError(N_("{field}: unknown field(s) {fields}"), field="setup", fields=", ".join(sorted(unknown)))
    lineups = _ints(setup, "lineups", NUM_CHARACTERS, _CHARACTER_NUMBERS)
    chars = _ints(setup, "characters", NUM_CHARACTERS, _CHARACTER_NUMBERS)
    hands = _ints(setup, "hands", NUM_SUPPORTS, _SUPPORT_NUMBERS)
    piles = _ints(setup, "piles", NUM_SUPPORTS, _SUPPORT_NUMBERS)
    discards = _ints(setup, "discards", NUM_SUPPORTS, _SUPPORT_NUMBERS)
    n_piles = 1 if st.shared else 2
    if piles is None:
        raise RecordError(N_("{field} is required (top card first)"), field="setup.piles")
    if len(piles) != n_piles:
        raise RecordError(N_("{field} needs {need} pile(s) in the mode {mode!r}, got {n}"), field="setup.piles",
                          need=n_piles, mode=opts.mode.value, n=len(piles))
    for key, rows in (("lineups", lineups), ("characters", chars), ("hands", hands), ("discards", discards)):
        if rows is not None and len(rows) != 2:
            raise RecordError(N_("{field} needs one list per player (2), got {value!r}"), field=f"setup.{key}",
                              value=rows)
    if lineups is not None and chars is not None:
        raise RecordError(N_("{field}: give either {one} or {other}, not both"), field="setup", one="lineups",
                          other="characters")
    who = lineups or chars
    first_picker = seat_value(setup.get("first_picker", 0), "setup.first_picker")
    st.first_picker = first_picker
    st.phase = Phase.LINEUP
    st.acting = 0
    if who is None:
        if not (st.shared and st.draft):
            raise RecordError(N_("{field} needs {one} or {other} (unless the characters are drafted)"), field="setup",
                              one="lineups", other="characters")
        st.phase = Phase.DRAFT
        st.acting = first_picker
    else:
        for i, row in enumerate(who):
            if len(row) != 3 or len(set(row)) != 3:
                raise RecordError(N_("{field}: player {player} needs {need} different characters, got {value!r}"),
                                  field="setup", player=i + 1, need=3, value=row)
        if st.shared and set(who[0]) & set(who[1]):
            raise RecordError(N_("{field}: in the mode {mode!r} no character can be with both players"),
                              field="setup", mode=Mode.SHARED.value)
        st.characters = [sorted(r) for r in who]
    hands_given = hands if hands is not None else [[], []]
    disc = discards if discards is not None else [[], []]
    place = setup.get("place")
    place_card = 0
    if place is not None:
        if not isinstance(place, dict) or set(place) != {"card", "owner"}:
            raise RecordError(N_("{field} must be an object like {example}"), field="setup.place",
                              example='{"card": N, "owner": 0|1}')
        place_card = place["card"]
        if type(place_card) is not int or not 1 <= place_card <= NUM_SUPPORTS:
            raise RecordError(N_("{field}: {numbers} are 1..{last}, got {value!r}"), field="setup.place.card",
                              numbers=_SUPPORT_NUMBERS, last=NUM_SUPPORTS, value=place_card)
        owner = seat_value(place["owner"], "setup.place.owner")
        if st.cards.support_kind[place_card] is not SupportKind.PLACE:  # only a place stays on the table (R8)
            raise RecordError(N_("{field}: {card} is not a place card"), field="setup.place", card=f"S{place_card}")
        st.place, st.place_owner = place_card, owner
    # No support card twice within one deck (R2): shared mode has one deck, own decks one each.
    groups = [[*hands_given[0], *hands_given[1], *piles[0], *disc[0], *disc[1]]] if st.shared else [
        [*hands_given[p], *piles[p], *disc[p]] for p in (0, 1)
    ]
    if place_card:
        groups[0 if st.shared else st.place_owner].append(place_card)
    for i, group in enumerate(groups):
        dup = sorted({s for s in group if group.count(s) > 1})
        if dup and st.shared:
            raise RecordError(N_("{field}: support card(s) {cards} appear twice in the shared deck"), field="setup",
                              cards=dup)
        if dup:
            raise RecordError(N_("{field}: support card(s) {cards} appear twice in player {player}'s deck"),
                              field="setup", cards=dup, player=i + 1)
    if not st.shared:
        for i, group in enumerate(groups):
            if len(group) > MOST_SUPPORTS:  # R2: hand, pile, discards and an owned place are all of one deck
                raise RecordError(N_("{field}: player {player}'s deck would hold {n} support cards, at most {most}"),
                                  field="setup", player=i + 1, n=len(group), most=MOST_SUPPORTS)
        _agree_with_decks(opts, who, groups)
    # R4: nothing is drawn before the line-ups are done; then a round starts (see most_in_hand).
    most = most_in_hand(st.cards) if lineups is not None else HAND_SIZE
    for p, hand in enumerate(hands_given):
        if len(hand) > most:
            raise RecordError(N_("{field}: a hand holds at most {most} cards at this point of a match, got {n}"),
                              field=f"setup.hands[{p}]", most=most, n=len(hand))
    st.piles = [list(reversed(p)) for p in piles]  # top first in the setup, top last in the engine
    st.discards = [list(d) for d in disc]
    st.hands = [list(h) for h in hands_given]
    if lineups is not None:
        st.lineups = [list(r) for r in lineups]
        if hands is None:
            for p in (0, 1):
                for _ in range(HAND_SIZE):
                    st._draw(p)
        st._start_round()
    # otherwise the given hands are topped up to 3 cards once the line-ups are done (R4)


def _agree_with_decks(opts: DuelOptions, who: list[list[int]] | None, groups: list[list[int]]) -> None:
    """Own decks declared in the options (R2) must be the decks the setup deals out: the same 3 characters and
    the same support cards (hand, pile, discards and an owned place together), or the record is refused."""
    for p, deck in enumerate(opts.decks):
        if deck is None:
            continue
        other = f"options.decks[{p}]"
        if who is not None and sorted(who[p]) != sorted(deck.characters):
            raise RecordError(N_("{field}: player {player}'s characters {given} are not those of {other} "
                                 "({declared})"), field="setup", player=p + 1, given=sorted(who[p]), other=other,
                              declared=sorted(deck.characters))
        if sorted(groups[p]) != sorted(deck.supports):
            raise RecordError(N_("{field}: player {player}'s support cards {given} are not those of {other} "
                                 "({declared})"), field="setup", player=p + 1, given=sorted(groups[p]), other=other,
                              declared=sorted(deck.supports))
