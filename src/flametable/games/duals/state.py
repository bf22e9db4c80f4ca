"""The Flamecraft Duals rules engine: one match in progress (no I/O, no clock, no global randomness).

Spaces, token kinds and cards are integer-coded (see :mod:`flametable.games.duals.data`). A stack is a tuple of
token kinds, bottom first; the bag is a list drawn from its end; the shop deck is a list whose top is its
end. Chance (bag draws, the deck, tokens returned to the bag) comes from the :class:`Rng` kept in the state.
Every rule is cited by its number (D1-D11 in ``shared/rules/RULINGS.md``) or as "FAQ" for the rules text.

A turn (PLAY, SCORE, REFRESH) is a sequence of decisions (:class:`~flametable.games.duals.rules.Step`):

* PLAY: the engine draws a token (D7 if the bag is empty) and the player places it (``place``), then fires it
  (``fire T``, one ability of a dual, D6) or not (``skip``). An ability's choices follow: bread draws a token
  to place and maybe fire; crystal draws 3, the player keeps one (``take``) and places it, the others go back
  into the bag at random places; meat and iron ``move``, potion ``swap``; a plant picks an adjacent token (``use``)
  whose ability is then fired where it stands (``fire T``, no ``skip``).
* SCORE: ``score`` matching cards one at a time, in any order and rotation (D5), then ``done``.
* REFRESH: the engine draws the player's hand up to 2 cards.
* ``coin`` may be spent once per turn at any decision of the turn before the refresh (FAQ); it draws 2
  cards and asks for 2 ``bottom`` decisions, then the interrupted decision resumes.

For speed the state is a handful of small lists and ints (``clone`` copies them, no deepcopy); the lane bits
of the top tokens (:mod:`flametable.games.duals.pattern`) and the set of full spaces are kept up to date on every
placement, move and swap, and legal actions come from tables (the place actions per set of full spaces,
shared by every state of the game; which cards match, once per board position).

Each field is declared once (its type and :func:`~flametable.core.engine.slot`: how it is copied, its blank
value, the view field it is read back from); ``__slots__``, :meth:`DualsState.blank`, :meth:`DualsState.clone`
and the determiniser follow the declarations (:mod:`flametable.core.engine`, shared with Flame Duel).
``apply`` plays an action through one handler per step (``_on_place`` ... ``_on_score``, ``_on_coin`` and
``_on_bottom`` before them at any step). :func:`observe` makes the views (D10).

Decisions the engine makes where the rules leave room (each extends the ruling named):

* D6: ``fire T`` is offered only when that ability can do something now ("an ability with nothing legal to
  do does nothing", so firing it would be the same as ``skip``); once fired, an ability must do its part
  (meat one move, iron at least one move, potion one swap, plant one ``use``; iron's second move is optional,
  ``done`` keeps it). Swapping two tokens of the same kind changes nothing and is not offered.
* D6 (chains): within one FIRE UP chain each token fires at most once: a plant cannot use a token that
  already fired in the chain (its position is remembered; nothing moves existing tokens until the chain's
  last ability). So plant chains end, and a dual never gives both abilities in a turn (FAQ).
* D6 (iron): the second token may be the one the first uncovered, but not the first token again.
* D7: crystal draws its 3 tokens one at a time, so the reserve enters in the middle when the bag runs out;
  with bag and reserve both empty it draws what there is. Tokens returned to the bag go in at random places.
* D8: the end is triggered by any draw during the match (the turn's token, bread, crystal, the refresh, the
  coin) that leaves the bag or the deck empty, and stays triggered even if crystal returns tokens. The
  setup's draws do not trigger it. A turn that finds bag and reserve empty places nothing and triggers it.
  The last chance is a SCORE phase for the other player with the coin and no refresh.
* A decision with a single legal action is made by the engine (a forced ``skip`` or ``done``, the only kind
  crystal drew, the last card to put back): records and agents only see real choices.
* Coin: each ``bottom`` puts the card under the deck, so the second card chosen ends at the very bottom; the
  player knows where they are (D10). A coin with an empty deck draws nothing but still puts cards back.
"""

from __future__ import annotations

from typing import Any, NoReturn

from flametable.core.engine import Copy, EngineState, blank_of, engine_state, fields_of, slot, step_table
from flametable.core.errors import IllegalAction
from flametable.core.i18n import N_, Phrase
from flametable.core.outcome import Outcome
from flametable.core.rng import Rng
from flametable.games.duals.actions import ActionSpace, DualsAction, Kind
from flametable.games.duals.data import DualsData
from flametable.games.duals.rules import (
    COIN_BOTTOM,
    COIN_DRAW,
    CRYSTAL_DRAW,
    HAND_SIZE,
    STACK_LIMIT,
    START_COINS,
    TYPE_KEYS,
    Reason,
    Step,
    TokenType,
)
from flametable.games.duals.view import DualsView, SeatInfo

# Plain ints for the hot paths.
PLACE, FIRE, TAKE, MEAT, IRON, POTION, PLANT, SCORE, BOTTOM, OVER = (int(s) for s in Step)
BREAD_T, CRYSTAL_T, MEAT_T, IRON_T, POTION_T, PLANT_T = (int(t) for t in TokenType)
K_DONE, K_SKIP, K_COIN, K_PLACE, K_FIRE, K_TAKE, K_USE, K_MOVE, K_SWAP, K_SCORE, K_BOTTOM = (int(k) for k in Kind)
_STEP_FOR_TYPE = (PLACE, TAKE, MEAT, IRON, POTION, PLANT)  # bread draws a token to place
LIMIT = STACK_LIMIT


@engine_state
class DualsState(EngineState):
    """A Flamecraft Duals match. Mutates in place; :meth:`clone` copies a few small lists.

    Every field is declared once, below, with :func:`~flametable.core.engine.slot` (how a clone copies it, its
    value in a blank state, none: ``blank`` is given it, and the view field it is read back from): ``__slots__``,
    :meth:`blank`, :meth:`clone` and the determiniser's copying from a view are all made from these declarations
    (:data:`FIELDS`)."""

    # The game's data and tables, shared by all its states.
    data: DualsData = slot(Copy.SHARED)
    actions: ActionSpace = slot(Copy.SHARED)
    # each space's adjacent spaces, ascending
    neighbours: tuple[tuple[int, ...], ...] = slot(Copy.SHARED)
    # each token kind's abilities, ascending
    abilities: tuple[tuple[int, ...], ...] = slot(Copy.SHARED)
    # the types each token kind shows (D5)
    kind_types: tuple[tuple[int, ...], ...] = slot(Copy.SHARED)
    # full_spaces -> (the spaces with room, their place actions)
    open_cache: dict[int, tuple[list[int], list[DualsAction]]] = slot(Copy.SHARED)

    # The table.
    buddy: bool = slot(Copy.SHARED, False, "buddy")  # the Buddy variant (D11)
    # per space, bottom first (at most 3, D6)
    stacks: list[tuple[int, ...]] = slot(Copy.LIST, [], "board")
    # token kinds; the next draw is the last one (the order is hidden, the contents are in the view)
    bag: list[int] = slot(Copy.LIST, [])
    # one artisan of each type until it enters the bag (D7)
    reserve: list[int] = slot(Copy.LIST, [], "reserve")
    deck: list[int] = slot(Copy.LIST, [])  # shop cards, top at the end (hidden)
    hands: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    piles: list[list[int]] = slot(Copy.PER_SEAT, [[], []])  # score piles
    coins: list[int] = slot(Copy.LIST, [START_COINS, START_COINS])
    # the cards each seat put at the bottom and still in the deck (D10)
    known_bottom: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    rng: Rng = slot(Copy.CLONE)
    first: int = slot(Copy.SHARED, 0, "first_player")  # the first player (D3)
    # the D3 draws, public
    first_draws: tuple[tuple[int, int], ...] = slot(Copy.SHARED, (), "first_draws")

    # The turn.
    turn: int = slot(Copy.SHARED, 0, "turn")  # the seat whose turn it is (and who acts)
    turn_number: int = slot(Copy.SHARED, 0, "turn_number")  # 1-based, the last chance included
    step: int = slot(Copy.SHARED, 0, "step")  # a Step
    # the space of the token firing (FIRE and the ability steps), -1 otherwise
    firing_space: int = slot(Copy.SHARED, -1, "src")
    held: int = slot(Copy.SHARED, -1, "held")  # the token kind to place (PLACE), -1 otherwise
    drawn: list[int] = slot(Copy.LIST, [], "drawn")  # crystal: the drawn tokens not (yet) kept
    # the placed token may FIRE UP (the turn's token, bread's), not crystal's
    fire_after: bool = slot(Copy.SHARED, True, "fire_after")
    # ``skip`` allowed: false when a plant uses the token
    fire_optional: bool = slot(Copy.SHARED, True, "fire_optional")
    # bits (space * 3 + height) of the tokens fired in this chain (D6); the view lists them as positions
    fired: int = slot(Copy.SHARED, 0)
    # where the iron's first move went, -1 before it
    iron_destination: int = slot(Copy.SHARED, -1, "iron_dest")
    coin_used: bool = slot(Copy.SHARED, False, "coin_used")
    # cards still to put at the bottom after ``coin``
    bottom_left: int = slot(Copy.SHARED, 0, "bottom_left")
    ended: bool = slot(Copy.SHARED, False, "end_triggered")  # the end is triggered (D8)
    last: bool = slot(Copy.SHARED, False, "last_chance")  # the opponent's last chance (D8)

    # Summaries of the board, kept up to date on every change (index_board works them out afresh).
    full_spaces: int = slot(Copy.SHARED, 0)  # bit s set: space s holds 3 tokens
    # per type, the lane bits of the spaces whose top token shows it (pattern.Lanes)
    top_lanes: list[int] = slot(Copy.LIST, [])
    # card -> matches the board: replaced (never cleared) whenever the board changes, so clones share it until
    # either one's board changes
    _match_cache: dict[int, bool] = slot(Copy.CACHE, {})
    # never mutated in place: replaced after every action
    _legal: list[DualsAction] = slot(Copy.SHARED, [])
    _outcome: Outcome | None = slot(Copy.SHARED, None, "outcome")

    @staticmethod
    def blank(**given: Any) -> DualsState:
        """A state before anything is dealt: the fields ``given`` (every GAME and RNG field, and any other),
        the others at their declared empty values (lists fresh); a missing GAME or RNG field or an unknown name
        raises ``TypeError``. ``DualsGame.new_match`` and the determiniser start here."""
        return _blank(**given)

    # ------------------------------------------------------------------ protocol

    @property
    def to_act(self) -> int | None:
        return None if self.step == OVER else self.turn

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def phase(self) -> Step:
        """The decision pending (``BOTTOM`` while the coin's cards are put back)."""
        return Step.BOTTOM if self.bottom_left else Step(self.step)

    def clone(self) -> DualsState:
        """An independent copy (the lists copied, the game's tables shared)."""
        raise NotImplementedError  # pragma: no cover - replaced by engine_state

    def legal_actions(self) -> list[DualsAction]:
        """The seat to act's legal actions, in id order (empty once over)."""
        return self._legal[:]

    def apply(self, action: DualsAction) -> None:
        """Play ``action`` for the seat to act; raises :class:`IllegalAction` (changing nothing) if not legal."""
        self._do(action, True)
        self._settle()

    def view(self, seat: int | None) -> DualsView:
        return observe(self, seat)

    # ------------------------------------------------------------------ facts

    def points(self, seat: int) -> int:
        """Victory points now: scored cards plus 1 per unspent coin, 0 per coin with STARBURST (D9)."""
        vp = self.data.vp
        pile = self.piles[seat]
        total = sum(vp[c] for c in pile)
        if not self.data.starburst.intersection(pile):
            total += self.coins[seat]
        return total

    def matching(self, seat: int) -> list[int]:
        """The cards of ``seat``'s hand that match the board now (D5), ascending."""
        return [c for c in sorted(self.hands[seat]) if self._matches(c)]

    def _matches(self, card: int) -> bool:
        mc = self._match_cache
        found = mc.get(card)
        if found is None:
            pat = self.data.matcher.patterns[card - 1]
            if pat.anchor >= 0:
                found = pat.matches_has(self.top_lanes)
            else:
                mask = self.data.kind_mask
                found = pat.matches_masks([mask[st[-1]] if st else 0 for st in self.stacks])
            mc[card] = found
        return found

    def _opens(self) -> tuple[list[int], list[DualsAction]]:
        """The spaces with room for a token, and their ``place`` actions (cached by the full spaces)."""
        full = self.full_spaces
        found = self.open_cache.get(full)
        if found is None:
            opens = [s for s in range(len(self.stacks)) if not full >> s & 1]
            place = self.actions.PLACE
            found = self.open_cache[full] = (opens, [place[s] for s in opens])
        return found

    # ------------------------------------------------------------------ the board

    def _push(self, s: int, k: int) -> None:
        """Put token ``k`` on top of space ``s`` (which has room)."""
        st = self.stacks[s]
        has = self.top_lanes
        if st:
            wb = ~self.data.matcher.lanes.wbit[s]
            for t in self.kind_types[st[-1]]:
                has[t] &= wb
            if len(st) == LIMIT - 1:
                self.full_spaces |= 1 << s
        wb = self.data.matcher.lanes.wbit[s]
        for t in self.kind_types[k]:
            has[t] |= wb
        self.stacks[s] = (*st, k)
        self._match_cache = {}

    def _pop(self, s: int) -> int:
        """Take the top token off space ``s`` (which has one)."""
        st = self.stacks[s]
        k = st[-1]
        has = self.top_lanes
        wb = self.data.matcher.lanes.wbit[s]
        nb = ~wb
        for t in self.kind_types[k]:
            has[t] &= nb
        if len(st) == LIMIT:
            self.full_spaces &= ~(1 << s)
        if len(st) > 1:
            for t in self.kind_types[st[-2]]:
                has[t] |= wb
        self.stacks[s] = st[:-1]
        self._match_cache = {}
        return k

    def index_board(self) -> None:
        """Work out the board's summaries (full spaces, top tokens by type) from the stacks."""
        self.full_spaces = sum(1 << s for s, stack in enumerate(self.stacks) if len(stack) >= LIMIT)
        self.top_lanes = self.data.matcher.tops(self.stacks).has

    def token_count(self) -> list[int]:
        """How many tokens of each kind are in play (board, bag, reserve, held, drawn): conserved."""
        counts = [0] * self.data.num_kinds
        for st in self.stacks:
            for k in st:
                counts[k] += 1
        for k in (*self.bag, *self.reserve, *self.drawn):
            counts[k] += 1
        if self.held >= 0:
            counts[self.held] += 1
        return counts

    # ------------------------------------------------------------------ draws (D7, D8)

    def _draw_token(self) -> int:
        """Draw a token from the bag; an empty bag first takes the reserve, shuffled (D7). -1 if none."""
        bag = self.bag
        if not bag:
            if not self.reserve:
                return -1
            bag.extend(self.reserve)
            self.reserve.clear()
            self.rng.shuffle(bag)
        k = bag.pop()
        if not bag:
            self.ended = True  # D8: a draw emptied the bag
        return k

    def _to_bag(self, k: int) -> None:
        bag = self.bag
        bag.insert(self.rng.below(len(bag) + 1), k)

    def _draw_card(self, p: int) -> None:
        deck = self.deck
        if not deck:
            return  # D8: a draw from an empty deck draws nothing
        c = deck.pop()
        self.hands[p].append(c)
        for kb in self.known_bottom:
            if c in kb:
                kb.remove(c)
        if not deck:
            self.ended = True  # D8: a draw emptied the shop deck

    # ------------------------------------------------------------------ turn flow

    def _start_turn(self, p: int) -> None:
        self.turn = p
        self.turn_number += 1
        self.coin_used = False
        self.fired = 0
        self.iron_destination = -1
        k = self._draw_token()
        if k < 0:  # nothing left to draw anywhere (explicit setups only)
            self.ended = True
            self.step = SCORE
            return
        self.held = k
        self.fire_after = True
        self.step = PLACE

    def _end_chain(self) -> None:
        """The FIRE UP chain is over: the SCORE phase."""
        self.step = SCORE
        self.firing_space = -1
        self.fired = 0
        self.iron_destination = -1

    def _end_score(self) -> None:
        p = self.turn
        if self.last:
            self._finish()
            return
        hand = self.hands[p]
        while len(hand) < HAND_SIZE and self.deck:  # REFRESH
            self._draw_card(p)
        if self.ended:  # D8: the opponent's last chance: score and coin only
            self.turn = 1 - p
            self.turn_number += 1
            self.last = True
            self.coin_used = False
            self.step = SCORE
            return
        self._start_turn(1 - p)

    def _finish(self) -> None:
        """D9: most VP; equal, more scored cards; equal again, a shared victory."""
        v0, v1 = self.points(0), self.points(1)
        n0, n1 = len(self.piles[0]), len(self.piles[1])
        if v0 != v1:
            winner: int | None = 0 if v0 > v1 else 1
            reason = Reason.MOST_VP
        elif n0 != n1:
            winner = 0 if n0 > n1 else 1
            reason = Reason.MORE_CARDS
        else:
            winner = None
            reason = Reason.SHARED
        self.step = OVER
        self.bottom_left = 0
        self._outcome = Outcome(winner, reason, (v0, v1))

    def _settle(self) -> None:
        """Compute the next decision's legal actions; make single-option decisions for the player."""
        while self.step != OVER:
            acts = self._compute_legal()
            if len(acts) != 1:
                if not acts:  # pragma: no cover - every step keeps at least one option
                    raise RuntimeError(f"no legal action at step {Step(self.step).name}")  # pragma: no mutate
                self._legal = acts
                return
            self._do(acts[0], False)
        self._legal = []

    # ------------------------------------------------------------------ abilities (D6)

    def _can(self, t: int, s: int, fired: int) -> bool:
        """Whether ability ``t`` fired from space ``s`` has anything legal to do."""
        if t <= CRYSTAL_T:
            return bool(self.bag) or bool(self.reserve)
        stacks = self.stacks
        adj = self.neighbours
        if t == MEAT_T:
            opens = self._opens()[0]  # never empty: the data has fewer tokens than the board has room (D1, D2)
            only = opens[0] if len(opens) == 1 else -1  # the token cannot move onto its own space
            return any(stacks[a] and a != only for a in adj[s])
        if t == IRON_T:
            for a in adj[s]:
                if stacks[a]:
                    for b in adj[a]:
                        if len(stacks[b]) < LIMIT:
                            return True
            return False
        if t == POTION_T:
            first = -1
            for st in stacks:
                if st:
                    k = st[-1]
                    if first < 0:
                        first = k
                    elif k != first:
                        return True
            return False
        # PLANT: an adjacent top token not yet fired in this chain whose ability can do something.
        f = fired | (1 << (s * 3 + len(stacks[s]) - 1))
        abil = self.abilities
        for a in adj[s]:
            st = stacks[a]
            if st and not (f >> (a * 3 + len(st) - 1)) & 1:
                for t2 in abil[st[-1]]:
                    if self._can(t2, a, f):
                        return True
        return False

    def _iron_options(self) -> list[DualsAction]:
        stacks = self.stacks
        adj = self.neighbours
        moved = self.iron_destination
        move = self.actions.MOVE
        out: list[DualsAction] = []
        for a in adj[self.firing_space]:
            if stacks[a] and a != moved:
                row = move[a]
                out += [row[b] for b in adj[a] if len(stacks[b]) < LIMIT]
        return out

    def _fire(self, t: int) -> None:
        src = self.firing_space
        self.fired |= 1 << (src * 3 + len(self.stacks[src]) - 1)
        if t == BREAD_T:
            k = self._draw_token()
            if k < 0:  # pragma: no cover - fire bread is offered only with tokens to draw
                self._end_chain()
                return
            self.held = k
            self.fire_after = True
            self.step = PLACE
        elif t == CRYSTAL_T:
            drawn = []
            for _ in range(CRYSTAL_DRAW):
                k = self._draw_token()
                if k < 0:
                    break
                drawn.append(k)
            self.drawn = drawn
            self.step = TAKE
        else:
            self.step = _STEP_FOR_TYPE[t]

    def _move(self, a: int, b: int) -> None:
        self._push(b, self._pop(a))

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[DualsAction]:
        A = self.actions
        p = self.turn
        if self.bottom_left:
            bottom = A.BOTTOM
            return [bottom[c] for c in sorted(self.hands[p])]
        coin = not self.coin_used and self.coins[p] > 0
        step = self.step
        stacks = self.stacks
        out: list[DualsAction]
        if step == SCORE:
            out = [A.DONE, A.COIN] if coin else [A.DONE]
            hand = self.hands[p]
            if hand:
                score = A.SCORE
                for c in sorted(hand):
                    if self._matches(c):
                        out.append(score[c])
            return out
        if step == PLACE:
            place = self._opens()[1]
            return [A.COIN, *place] if coin else place  # shared with the facts: never mutated
        if step == FIRE:
            src = self.firing_space
            out = [A.SKIP] if self.fire_optional else []
            if coin:
                out.append(A.COIN)
            fire = A.FIRE
            fired = self.fired
            for t in self.abilities[stacks[src][-1]]:
                if self._can(t, src, fired):
                    out.append(fire[t])
            return out
        out = [A.COIN] if coin else []
        if step == MEAT:
            opens = self._opens()[0]
            move = A.MOVE
            for a in self.neighbours[self.firing_space]:
                if stacks[a]:
                    row = move[a]
                    out += [row[b] for b in opens if b != a]
        elif step == IRON:
            if self.iron_destination >= 0:
                out.insert(0, A.DONE)
            out += self._iron_options()
        elif step == POTION:
            tops = [(s, st[-1]) for s, st in enumerate(stacks) if st]
            swap = A.SWAP
            for i, (a, ka) in enumerate(tops):
                row = swap[a]
                out += [row[b] for b, kb in tops[i + 1 :] if kb != ka]
        elif step == PLANT:
            src = self.firing_space
            fired = self.fired
            abil = self.abilities
            use = A.USE
            for a in self.neighbours[src]:
                st = stacks[a]
                if st and not (fired >> (a * 3 + len(st) - 1)) & 1:
                    for t in abil[st[-1]]:
                        if self._can(t, a, fired):
                            out.append(use[a])
                            break
        elif step == TAKE:
            take = A.TAKE
            out += [take[k] for k in sorted(set(self.drawn))]
        return out

    # ------------------------------------------------------------------ applying actions

    def _do(self, action: DualsAction, check: bool) -> None:
        """Play ``action``; with ``check``, raise :class:`IllegalAction` before changing anything.

        The coin's cards to put back interrupt any step, the coin may be spent at any step; otherwise the
        pending step's handler plays the action (one handler per :class:`Step`, in :data:`_ON_STEP`)."""
        step = self.step
        if step == OVER:
            raise IllegalAction(N_("The match is over."))
        if self.bottom_left:
            self._on_bottom(action, check)
        elif action.kind == K_COIN:
            self._on_coin(check)
        else:
            _ON_STEP[step](self, action, check)

    def _on_bottom(self, action: DualsAction, check: bool) -> None:
        """``bottom K``: a card of the hand goes under the deck, where its owner knows it is (D10)."""
        if action.kind != K_BOTTOM:
            self._not_now(action)
        c = action.a
        p = self.turn
        hand = self.hands[p]
        if check and c not in hand:
            raise IllegalAction(N_("{card} is not in your hand."), card=f"K{c}")
        hand.remove(c)
        self.deck.insert(0, c)
        self.known_bottom[p].append(c)
        self.bottom_left -= 1

    def _on_coin(self, check: bool) -> None:
        """``coin``: once per turn (FAQ), draw 2 cards, then put 2 of the hand back at the bottom."""
        p = self.turn
        if check:
            if self.coin_used:
                raise IllegalAction(N_("You can spend a coin only once per turn."))
            if self.coins[p] <= 0:
                raise IllegalAction(N_("You have no coins left."))
        self.coins[p] -= 1
        self.coin_used = True
        for _ in range(COIN_DRAW):
            self._draw_card(p)
        self.bottom_left = min(COIN_BOTTOM, len(self.hands[p]))

    def _on_score(self, action: DualsAction, check: bool) -> None:
        """SCORE: ``score K`` a matching card (D5), or ``done``."""
        kind = action.kind
        if kind == K_SCORE:
            c = action.a
            p = self.turn
            hand = self.hands[p]
            if check:
                if c not in hand:
                    raise IllegalAction(N_("{card} is not in your hand."), card=f"K{c}")
                if not self._matches(c):
                    raise IllegalAction(N_("{card} does not match the board in any rotation."), card=f"K{c}")
            hand.remove(c)
            self.piles[p].append(c)
        elif kind == K_DONE:
            self._end_score()
        else:
            self._not_now(action)

    def _on_place(self, action: DualsAction, check: bool) -> None:
        """PLACE: ``place S``; the turn's or bread's token may then FIRE UP, crystal's may not (FAQ)."""
        if action.kind != K_PLACE:
            self._not_now(action)
        s = action.a
        if check and len(self.stacks[s]) >= LIMIT:
            raise IllegalAction(N_("Space {space} already holds 3 tokens."), space=self._name(s))
        self._push(s, self.held)
        self.held = -1
        if self.fire_after:
            self.firing_space = s
            self.fire_optional = True
            self.step = FIRE
        else:  # crystal: the other drawn tokens go back into the bag; no FIRE UP (FAQ)
            for k in self.drawn:
                self._to_bag(k)
            self.drawn = []
            self._end_chain()

    def _on_fire(self, action: DualsAction, check: bool) -> None:
        """FIRE: ``fire T`` one ability of the token (D6), or ``skip`` unless a plant uses it."""
        kind = action.kind
        if kind == K_FIRE:
            t = action.a
            if check:
                src = self.firing_space
                k = self.stacks[src][-1]
                if t not in self.abilities[k]:
                    raise IllegalAction(N_("The {token} token has no {ability} ability."),
                                        token=Phrase(self.data.kind_names[k]), ability=Phrase(TYPE_KEYS[t]))
                if not self._can(t, src, self.fired):
                    raise IllegalAction(N_("The {ability} ability has nothing to do here."),
                                        ability=Phrase(TYPE_KEYS[t]))
            self._fire(t)
        elif kind == K_SKIP:
            if not self.fire_optional:
                raise IllegalAction(N_("The plant uses this token: choose one of its abilities."))
            self._end_chain()
        else:
            self._not_now(action)

    def _on_take(self, action: DualsAction, check: bool) -> None:
        """TAKE: crystal keeps one of the drawn tokens, to place without FIRE UP (FAQ)."""
        if action.kind != K_TAKE:
            self._not_now(action)
        k = action.a
        if check and k not in self.drawn:
            raise IllegalAction(N_("No {token} token was drawn."), token=Phrase(self.data.kind_names[k]))
        self.drawn.remove(k)
        self.held = k
        self.fire_after = False
        self.step = PLACE

    def _on_meat(self, action: DualsAction, check: bool) -> None:
        """MEAT: ``move A B`` an adjacent top token onto any space with room (D6)."""
        if action.kind != K_MOVE:
            self._not_now(action)
        a, b = action.a, action.b
        if check:
            self._check_from(a)
            self._check_room(b)
        self._move(a, b)
        self._end_chain()

    def _on_iron(self, action: DualsAction, check: bool) -> None:
        """IRON: ``move A B`` an adjacent top token by one space, then a second one or ``done`` (D6)."""
        kind = action.kind
        if kind == K_MOVE:
            a, b = action.a, action.b
            if check:
                self._check_from(a)
                if a == self.iron_destination:
                    raise IllegalAction(N_("The iron moves two different tokens: this one has moved."))
                if b not in self.data.board.adjacent[a]:
                    raise IllegalAction(N_("The iron moves a token by one space: {to} is not next to {space}."),
                                        to=self._name(b), space=self._name(a))
                self._check_room(b)
            self._move(a, b)
            if self.iron_destination >= 0:
                self._end_chain()
            else:
                self.iron_destination = b
                if not self._iron_options():
                    self._end_chain()
        elif kind == K_DONE and self.iron_destination >= 0:
            self._end_chain()
        else:
            self._not_now(action)

    def _on_potion(self, action: DualsAction, check: bool) -> None:
        """POTION: ``swap A B`` two top tokens of different kinds (D6)."""
        if action.kind != K_SWAP:
            self._not_now(action)
        a, b = action.a, action.b
        stacks = self.stacks
        if check:
            if not stacks[a] or not stacks[b]:
                raise IllegalAction(N_("There is no token on {space}."), space=self._name(a if not stacks[a] else b))
            if stacks[a][-1] == stacks[b][-1]:
                raise IllegalAction(N_("Swapping two {token} tokens changes nothing."),
                                    token=Phrase(self.data.kind_names[stacks[a][-1]]))
        ka, kb = self._pop(a), self._pop(b)
        self._push(a, kb)
        self._push(b, ka)
        self._end_chain()

    def _on_plant(self, action: DualsAction, check: bool) -> None:
        """PLANT: ``use A``: the adjacent top token, not yet fired in the chain, fires where it stands (D6)."""
        if action.kind != K_USE:
            self._not_now(action)
        a = action.a
        if check:
            self._check_from(a)
            st = self.stacks[a]
            if (self.fired >> (a * 3 + len(st) - 1)) & 1:
                raise IllegalAction(N_("The token on {space} has already fired in this chain."),
                                    space=self._name(a))
            if not any(self._can(t, a, self.fired) for t in self.abilities[st[-1]]):
                raise IllegalAction(N_("The token on {space} has no ability that can do something."),
                                    space=self._name(a))
        self.firing_space = a
        self.fire_optional = False
        self.step = FIRE

    def _name(self, s: int) -> str:
        return self.data.board.names[s]

    def _check_from(self, a: int) -> None:
        """A token the firing token's ability may take: the top token of an adjacent space (D6, FAQ)."""
        if a not in self.data.board.adjacent[self.firing_space]:
            raise IllegalAction(N_("{space} is not next to the firing token on {src}."), space=self._name(a),
                                src=self._name(self.firing_space))
        if not self.stacks[a]:
            raise IllegalAction(N_("There is no token on {space}."), space=self._name(a))

    def _check_room(self, b: int) -> None:
        if len(self.stacks[b]) >= LIMIT:
            raise IllegalAction(N_("Space {space} already holds 3 tokens: no stack ever exceeds 3."),  # FAQ, D6
                                space=self._name(b))

    def _not_now(self, action: DualsAction) -> NoReturn:
        raise IllegalAction(N_("{action} is not possible now: {expected}."), action=action.text(),
                            expected=EXPECTED[self.phase])


def observe(st: DualsState, seat: int | None) -> DualsView:
    """What ``seat`` (None: a spectator) may see of ``st`` (D10); see :mod:`flametable.games.duals.view`."""
    if seat is not None and seat != 0 and seat != 1:
        raise ValueError(f"seat must be 0, 1 or None, got {seat!r}")
    bag = [0] * st.data.num_kinds
    for k in st.bag:
        bag[k] += 1
    piles = st.piles
    hands = st.hands
    coins = st.coins
    info0 = SeatInfo(coins[0], len(hands[0]), tuple(piles[0]), st.points(0))
    info1 = SeatInfo(coins[1], len(hands[1]), tuple(piles[1]), st.points(1))
    hand: tuple[int, ...] = ()
    matching: tuple[int, ...] = ()
    bottom_known: tuple[tuple[int, int], ...] = ()
    legal: tuple[DualsAction, ...] = ()
    to_act = st.to_act
    if seat is not None:
        hand = tuple(sorted(hands[seat]))
        matching = tuple(st.matching(seat))
        known = st.known_bottom[seat]
        if known:
            deck = st.deck
            bottom_known = tuple(sorted(((c, deck.index(c)) for c in known), key=lambda x: x[1]))
        if to_act == seat:
            legal = tuple(st._legal)
    return DualsView(
        seat,
        to_act,
        st.turn,
        st.turn_number,
        st.phase,
        st.last,
        st.ended,
        tuple(st.stacks),
        tuple(bag),
        len(st.bag),
        tuple(sorted(st.reserve)),
        st.held,
        tuple(sorted(st.drawn)),
        st.firing_space,
        _positions(st.fired),
        st.iron_destination,
        st.coin_used,
        st.bottom_left,
        len(st.deck),
        st.first,
        st.first_draws,
        (info0, info1),
        hand,
        matching,
        bottom_known,
        legal,
        st.outcome,
        Step(st.step),
        st.fire_after,
        st.fire_optional,
        st.buddy,
        st.data,
    )


def _positions(fired: int) -> tuple[tuple[int, int], ...]:
    """The (space, level) pairs of the bits ``space * 3 + level`` set in ``fired``, in order."""
    out = []
    bit = 0
    while fired:
        if fired & 1:
            out.append(divmod(bit, LIMIT))
        fired >>= 1
        bit += 1
    return tuple(out)


FIELDS = fields_of(DualsState)
"""The state's fields as declared (name, copy, empty value, view field)."""
_blank = blank_of(DualsState)

# The handler of each step, indexed by the Step's value (BOTTOM and OVER are handled before the dispatch).
_ON_STEP = step_table(Step, {
    Step.PLACE: DualsState._on_place,
    Step.FIRE: DualsState._on_fire,
    Step.TAKE: DualsState._on_take,
    Step.MEAT: DualsState._on_meat,
    Step.IRON: DualsState._on_iron,
    Step.POTION: DualsState._on_potion,
    Step.PLANT: DualsState._on_plant,
    Step.SCORE: DualsState._on_score,
})

EXPECTED = {
    Step.PLACE: Phrase(N_("place the token on a space")),
    Step.FIRE: Phrase(N_("fire up the token or skip")),
    Step.TAKE: Phrase(N_("keep one of the tokens the crystal drew")),
    Step.MEAT: Phrase(N_("move a token next to the meat")),
    Step.IRON: Phrase(N_("move a token next to the iron by one space")),
    Step.POTION: Phrase(N_("swap two top tokens")),
    Step.PLANT: Phrase(N_("use the ability of a token next to the plant")),
    Step.SCORE: Phrase(N_("score a card, spend a coin or finish")),
    Step.BOTTOM: Phrase(N_("put a card of your hand at the bottom of the deck")),
    Step.OVER: Phrase(N_("the match is over")),
}
