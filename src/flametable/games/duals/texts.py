"""Flamecraft Duals in a player's language: tokens (a colour and a letter each), cards, actions, narration,
outcomes.

Everything here turns public facts (a :class:`~flametable.games.duals.view.DualsView`, actions, the game's data)
into text, in the language of the :class:`~flametable.texts.translator.Translator` it is given (held by
:class:`DualsWords`, or a parameter); no rules are decided here. Texts are rich :class:`~rich.text.Text` so
tokens keep their colour inside translated sentences (:func:`fmt`): ``.plain`` gives the bare words, and the
spans name each token's style.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from flametable.core.i18n import N_
from flametable.core.outcome import Outcome
from flametable.games.duals.actions import DualsAction, Kind
from flametable.games.duals.data import DualsData
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import NUM_TYPES, TYPE_KEYS, Reason, Step, TokenType
from flametable.games.duals.view import DualsView
from flametable.texts.commands import (
    NEEDS_ABILITY,
    NEEDS_CARD,
    NEEDS_SPACE,
    NEEDS_SPACES,
    NEEDS_TOKEN,
    UNKNOWN_ABILITY,
    UNKNOWN_TOKEN,
    Commands,
    other_languages,
)
from flametable.texts.log import Reader
from flametable.texts.translator import Translator

# One letter per type and one colour; Buddy is a star. The letters are English (``TYPE_LETTERS``, the JSON dump's);
# each language has its own (:func:`type_letters`), so that a letter reads as the type's name.
TYPE_LETTERS = ("B", "C", "M", "I", "P", "L")
TYPE_STYLES = ("bright_yellow", "bright_cyan", "bright_red", "bright_blue", "bright_magenta", "bright_green")
BUDDY_LETTER = "*"
BUDDY_STYLE = "bright_white"

TYPE_NAMES = {
    TokenType.BREAD: N_("bread"),
    TokenType.CRYSTAL: N_("crystal"),
    TokenType.MEAT: N_("meat"),
    TokenType.IRON: N_("iron"),
    TokenType.POTION: N_("potion"),
    TokenType.PLANT: N_("plant"),
}
ABILITIES = {
    TokenType.BREAD: N_("draw a token and place it; you may FIRE UP that token too"),
    TokenType.CRYSTAL: N_("draw 3 tokens, place 1 (it does not FIRE UP), the others go back into the bag"),
    TokenType.MEAT: N_("move one top token next to it to any space with room"),
    TokenType.IRON: N_("move one or two top tokens next to it, each by one space"),
    TokenType.POTION: N_("swap two top tokens anywhere on the board"),
    TokenType.PLANT: N_("use the ability of a top token next to it, where that token stands"),
}
BUDDY_TEXT = N_("no ability; when scoring it counts as any type, chosen for each card on its own")
PHASES = {
    Step.PLACE: N_("PLAY: place the token"),
    Step.FIRE: N_("PLAY: FIRE UP the token or not"),
    Step.TAKE: N_("crystal: keep one of the drawn tokens"),
    Step.MEAT: N_("meat: move a token"),
    Step.IRON: N_("iron: move tokens by one space"),
    Step.POTION: N_("potion: swap two tokens"),
    Step.PLANT: N_("plant: use a neighbour's ability"),
    Step.SCORE: N_("SCORE: score cards, spend a coin or finish"),
    Step.BOTTOM: N_("coin: put cards back under the deck"),
    Step.OVER: N_("the match is over"),
}


def fmt(template: str, **values: object) -> Text:
    """``template.format(**values)`` as a :class:`Text`, keeping the style of every value that is a Text."""
    out = Text()
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if literal:
            out.append(literal)
        if name is None:
            continue
        value = values[name]
        if isinstance(value, Text):
            out.append_text(value)
        elif conversion == "r":
            out.append(repr(value))
        else:
            out.append(format(value, spec or ""))
    return out


def phase_text(tr: Translator, phase: Step) -> str:
    return tr.translate(PHASES[phase])


def can_coin(view: DualsView) -> bool:
    """Whether the seat to act may spend a coin now: from its legal actions when the view has them, else from
    the public facts (a coin left, none spent this turn)."""
    if view.legal:
        return any(a.kind is Kind.COIN for a in view.legal)
    return view.to_act is not None and not view.coin_used and view.seats[view.to_act].coins > 0


def task_text(tr: Translator, view: DualsView) -> str:
    """The decision pending, short (the board's header): :func:`phase_text`, but a FIRE UP that cannot be skipped
    and a SCORE without a coin to spend say so."""
    if view.phase is Step.FIRE and not view.fire_optional:
        return tr.gettext("plant: FIRE UP the token it uses")
    if view.phase is Step.SCORE and not can_coin(view):
        return tr.gettext("SCORE: score cards or finish")
    return phase_text(tr, view.phase)


def type_name(tr: Translator, t: int) -> str:
    return tr.translate(TYPE_NAMES[TokenType(t)])


def ability_text(tr: Translator, t: int) -> str:
    return tr.translate(ABILITIES[TokenType(t)])


def type_letters(tr: Translator) -> tuple[str, ...]:
    """The letter of each type on the board in the language of ``tr``: one capital each, all different, read as
    the type's name there (the name's initial where it can be)."""
    return (
        # Translators: the one capital letter of a type on the board, shown beside its name ("B bread"); the six
        # letters must all be different, ideally each the initial of the type's name
        tr.pgettext("token letter", "B"),
        # Translators: the letter of the crystal type on the board ("C crystal")
        tr.pgettext("token letter", "C"),
        # Translators: the letter of the meat type on the board ("M meat")
        tr.pgettext("token letter", "M"),
        # Translators: the letter of the iron type on the board ("I iron")
        tr.pgettext("token letter", "I"),
        # Translators: the letter of the potion type on the board ("P potion")
        tr.pgettext("token letter", "P"),
        # Translators: the letter of the plant type on the board ("L plant": P is the potion's)
        tr.pgettext("token letter", "L"),
    )


class DualsWords:
    """Labels of one data set's tokens, spaces and cards in the language of ``tr``."""

    def __init__(self, tr: Translator, data: DualsData) -> None:
        self.tr = tr
        self.data = data
        self.names = data.board.names
        self.type_letters = type_letters(tr)

    @property
    def lang(self) -> str:
        return self.tr.lang

    # ------------------------------------------------------------------ tokens

    def types_of(self, kind: int) -> tuple[int, ...]:
        """The types a token kind shows (one for an artisan, two for a dual, none listed for Buddy)."""
        if kind == self.data.buddy:
            return ()
        return tuple(self.data.kind_abilities[kind])

    def letters(self, kind: int) -> str:
        if kind == self.data.buddy:
            return BUDDY_LETTER
        return "".join(self.type_letters[t] for t in self.types_of(kind))

    def glyph(self, kind: int, top: bool = True) -> Text:
        """The token's letters in its colours: upper case and bold on top of a stack, lower case and dim under it."""
        out = Text()
        if kind == self.data.buddy:
            out.append(BUDDY_LETTER, style=BUDDY_STYLE + (" bold" if top else " dim"))
            return out
        for t in self.types_of(kind):
            letter = self.type_letters[t]
            out.append(letter if top else letter.lower(), style=TYPE_STYLES[t] + (" bold" if top else " dim"))
        return out

    def kind_name(self, kind: int) -> str:
        if kind == self.data.buddy:
            # Translators: the wild token of the Buddy variant
            return self.tr.gettext("Buddy")
        return "+".join(type_name(self.tr, t) for t in self.types_of(kind))

    def token(self, kind: int) -> Text:
        """``M meat`` with the letter in colour."""
        out = self.glyph(kind)
        out.append(" " + self.kind_name(kind))
        return out

    def tokens(self, kinds: Sequence[int]) -> Text:
        return Text(", ").join(self.token(k) for k in kinds)

    # ------------------------------------------------------------------ spaces and cards

    def space(self, s: int) -> Text:
        return Text(self.names[s], style="bold")

    def top(self, view: DualsView, s: int) -> Text:
        """The top token of space ``s`` (empty: a dash)."""
        stack = view.board[s]
        return self.token(stack[-1]) if stack else Text("—")

    def card(self, number: int) -> str:
        card = self.data.card(number)
        label = f"K{number}"
        if card.name:
            label += " " + self.tr.pick(card.name)
        return label

    def card_vp(self, number: int) -> str:
        return self.tr.gettext("{card} ({vp} VP)").format(card=self.card(number), vp=self.data.card(number).vp)


# ------------------------------------------------------------------ the menu


def describe_option(action: DualsAction, view: DualsView, words: DualsWords) -> Text:
    """A legal action as a menu line for the seat to act."""
    _ = words.tr.gettext
    kind, a, b = action.kind, action.a, action.b
    me = view.seat if view.seat is not None else view.to_act or 0
    if kind is Kind.DONE:
        if view.phase is Step.IRON:
            return Text(_("Stop: the iron moves only one token"))
        if view.last_chance:
            return Text(_("Finish: the match ends"))
        return Text(_("Finish scoring (REFRESH: draw up to 2 cards; then the other player's turn)"))
    if kind is Kind.SKIP:
        return fmt(_("Do not FIRE UP {token}"), token=words.top(view, view.src) if view.src >= 0 else Text(""))
    if kind is Kind.COIN:
        coins = view.seats[me].coins
        return fmt(_("Spend a coin (you have {n}): draw 2 cards, then put 2 of your hand at the bottom of the deck"),
                   n=coins)
    if kind is Kind.PLACE:
        stack = view.board[a]
        if not stack:
            return fmt(_("Place {token} on {space}"), token=words.token(view.held), space=words.space(a))
        return fmt(_("Place {token} on {space}, on top of {top} (stack of {height})"), token=words.token(view.held),
                   space=words.space(a), top=words.token(stack[-1]), height=len(stack) + 1)
    if kind is Kind.FIRE:
        return fmt(_("FIRE UP {ability}: {text}"), ability=words.token(a), text=ability_text(words.tr, a))
    if kind is Kind.TAKE:
        return fmt(_("Keep {token} and place it"), token=words.token(a))
    if kind is Kind.USE:
        return fmt(_("Use {token} on {space}"), token=words.top(view, a), space=words.space(a))
    if kind is Kind.MOVE:
        return fmt(_("Move {token} from {start} to {end}"), token=words.top(view, a), start=words.space(a),
                   end=words.space(b))
    if kind is Kind.SWAP:
        return fmt(_("Swap {first} on {space1} with {second} on {space2}"), first=words.top(view, a),
                   space1=words.space(a), second=words.top(view, b), space2=words.space(b))
    if kind is Kind.SCORE:
        return fmt(_("Score {card}"), card=words.card_vp(a))
    return fmt(_("Put {card} at the bottom of the deck"), card=words.card(a))


def short_option(action: DualsAction, view: DualsView, words: DualsWords) -> Text:
    """A compact menu entry for long menus (potion swaps, meat moves): spaces and tokens only."""
    kind, a, b = action.kind, action.a, action.b
    if kind is Kind.MOVE:
        return fmt("{token} {start}→{end}", token=words.glyph(view.board[a][-1]), start=words.names[a],
                   end=words.names[b])
    if kind is Kind.SWAP:
        return fmt("{first} {space1}⇄{space2} {second}", first=words.glyph(view.board[a][-1]),
                   space1=words.names[a], space2=words.names[b], second=words.glyph(view.board[b][-1]))
    if kind is Kind.PLACE:
        return fmt("{space}", space=words.names[a])
    return describe_option(action, view, words)


# ------------------------------------------------------------------ narration


def describe_public(player: str, action: DualsAction, before: DualsView, words: DualsWords,
                    own: bool = False) -> Text:
    """What everyone at the table sees of ``player``'s action (``before``: a view from just before it).

    The card put back under the deck stays private (D10) unless ``own``."""
    _ = words.tr.gettext
    kind, a, b = action.kind, action.a, action.b
    if kind is Kind.DONE:
        if before.phase is Step.IRON:
            return fmt(_("{player} stops the iron after one move."), player=player)
        return fmt(_("{player} finishes scoring."), player=player)
    if kind is Kind.SKIP:
        return fmt(_("{player} does not FIRE UP {token}."), player=player,
                   token=words.top(before, before.src) if before.src >= 0 else Text(""))
    if kind is Kind.COIN:
        return fmt(_("{player} spends a coin: draws 2 cards, then puts 2 at the bottom of the deck."), player=player)
    if kind is Kind.PLACE:
        return fmt(_("{player} places {token} on {space}."), player=player, token=words.token(before.held),
                   space=words.space(a))
    if kind is Kind.FIRE:
        src = before.src
        if src < 0:  # pragma: no cover - a FIRE decision always has its token
            return fmt(_("{player} fires up {ability}."), player=player, ability=type_name(words.tr, a))
        top = before.board[src][-1]
        if len(words.types_of(top)) > 1:
            return fmt(_("{player} fires up {token} on {space}, with its {ability} ability."), player=player,
                       token=words.token(top), space=words.space(src), ability=type_name(words.tr, a))
        return fmt(_("{player} fires up {token} on {space}."), player=player, token=words.token(top),
                   space=words.space(src))
    if kind is Kind.TAKE:
        rest = list(before.drawn)
        if a in rest:
            rest.remove(a)
        if rest:
            return fmt(_("{player} keeps {token} from the crystal's draw; {others} go back into the bag."),
                       player=player, token=words.token(a), others=words.tokens(rest))
        return fmt(_("{player} keeps {token} from the crystal's draw."), player=player, token=words.token(a))
    if kind is Kind.USE:
        return fmt(_("{player}'s plant uses {token} on {space}."), player=player, token=words.top(before, a),
                   space=words.space(a))
    if kind is Kind.MOVE:
        return fmt(_("{player} moves {token} from {start} to {end}."), player=player, token=words.top(before, a),
                   start=words.space(a), end=words.space(b))
    if kind is Kind.SWAP:
        return fmt(_("{player} swaps {first} on {space1} with {second} on {space2}."), player=player,
                   first=words.top(before, a), space1=words.space(a), second=words.top(before, b),
                   space2=words.space(b))
    if kind is Kind.SCORE:
        return fmt(_("{player} scores {card}."), player=player, card=words.card_vp(a))
    if own:
        return fmt(_("{player} puts {card} at the bottom of the deck."), player=player, card=words.card(a))
    return fmt(_("{player} puts a card at the bottom of the deck."), player=player)


def first_player_text(view: DualsView, words: DualsWords, names: Sequence[str]) -> Text:
    """D3: the first-player draws, public."""
    _ = words.tr.gettext
    out = Text()
    for i, (t0, t1) in enumerate(view.first_draws):
        if i:
            out.append(" ")
        out.append_text(fmt(_("{first} draws {token1}, {second} draws {token2}."), first=names[0],
                            token1=words.token(t0), second=names[1], token2=words.token(t1)))
        if i + 1 < len(view.first_draws):
            out.append(" " + _("Equal on the FIRE UP order: both draw again."))
    out.append(" ")
    out.append(_("{player} starts (higher on the FIRE UP order); the tokens go back into the bag.").format(
        player=names[view.first_player]))
    return out


def outcome_text(tr: Translator, outcome: Outcome, view: DualsView, names: Sequence[str]) -> str:
    """The result with its tie-breaks (D9)."""
    _ = tr.gettext
    v0 = outcome.scores[0]
    n0, n1 = (len(s.pile) for s in view.seats)
    if outcome.winner is None:
        return tr.ngettext("Shared victory: {vp} VP and {n} scored card each.",
                        "Shared victory: {vp} VP and {n} scored cards each.", n0).format(vp=v0, n=n0)
    w = outcome.winner
    vp, other_vp = outcome.scores[w], outcome.scores[1 - w]
    if outcome.reason == Reason.MORE_CARDS:
        cards, other = (n0, n1) if w == 0 else (n1, n0)
        return _("Equal on {vp} VP: {player} wins with more scored cards ({cards} against {other}).").format(
            vp=vp, player=names[w], cards=cards, other=other)
    return _("{player} wins with {vp} VP against {other_vp}.").format(player=names[w], vp=vp, other_vp=other_vp)


def outcome_for(tr: Translator, outcome: Outcome, seat: int) -> str:
    _ = tr.gettext
    if outcome.winner is None:
        return _("You share the victory.")
    return _("You win!") if outcome.winner == seat else _("You lose.")


# ------------------------------------------------------------------ what the engine did on its own


def step_lines(prev: DualsView, view: DualsView, actor: int, action: DualsAction | None, observer: int | None,
               words: DualsWords, names: Sequence[str]) -> list[Text]:
    """What ``observer`` (a seat, or None for everyone) is told when ``actor`` played ``action``, from its views
    before and after: the action (the observer's own too, so that it sees what it chose), the turn ending by
    itself when nothing is left to do, the reserve going into the bag (D7), the end being triggered and a last
    chance with nothing to do (D8). ``action`` is None when the observer may not know it: the card put back
    under the deck (D10). :func:`step_story` adds the turn that begins after the step."""
    lines, in_new_turn = _step_parts(prev, view, actor, action, observer, words, names)
    return lines + in_new_turn


def step_story(prev: DualsView, view: DualsView, actor: int, action: DualsAction | None, observer: int | None,
               words: DualsWords, names: Sequence[str]) -> list[Text]:
    """Everything ``observer`` is told of a step (the log's and the terminal's narration): :func:`step_lines`,
    then the turn that begins after it (:func:`turn_start_lines`), the end triggered in that turn (by the token
    that begins it, D8) told after its draw, so that its "this turn" is the turn just begun."""
    lines, in_new_turn = _step_parts(prev, view, actor, action, observer, words, names)
    if view.outcome is None and view.turn_number != prev.turn_number:
        lines += turn_start_lines(view, words, names)
    return lines + in_new_turn


def _step_parts(prev: DualsView, view: DualsView, actor: int, action: DualsAction | None, observer: int | None,
                words: DualsWords, names: Sequence[str]) -> tuple[list[Text], list[Text]]:
    """:func:`step_lines` in two parts: what is told of the turn of ``prev``, and what happened in a turn that
    began after it (the end triggered there)."""
    _ = words.tr.gettext
    lines: list[Text] = []
    in_new_turn: list[Text] = []
    if action is None:
        lines.append(Text(_("{player} puts a card at the bottom of the deck.").format(player=names[actor])))
    else:
        lines.append(describe_public(names[actor], action, prev, words, own=actor == observer))
    turn_over = view.outcome is not None or view.turn_number != prev.turn_number
    finished = action is not None and action.kind is Kind.DONE and prev.phase is Step.SCORE
    if turn_over and not finished:
        lines.append(Text(turn_end_text(prev, words.tr, names)))
    if prev.reserve and not view.reserve:
        lines.append(Text(_("The bag was empty: the reserve tokens went into the bag, shuffled."),  # D7
                          style="bold"))
    if view.end_triggered and not prev.end_triggered:
        new_turn = view.turn_number != prev.turn_number and not view.last_chance and view.outcome is None
        (in_new_turn if new_turn else lines).append(end_text(view, words.tr, names))
    if view.outcome is not None and not prev.last_chance:
        # the match is over, so the view's turn is the last chance's, skipped (D8)
        lines.append(Text(_("{player} has nothing to score and no coin to spend: the last chance is skipped and the "
                            "match ends.").format(player=names[view.turn]), style="bold yellow"))
    return lines, in_new_turn


def turn_end_text(view: DualsView, tr: Translator, names: Sequence[str]) -> str:
    """The turn of ``view`` (a view of its last decision) ended by itself: its player has nothing more to score
    and cannot spend a coin, having none left or having spent one this turn already (once a turn)."""
    player = names[view.turn]
    if view.coin_used and view.seats[view.turn].coins > 0:
        return tr.gettext("{player} has nothing more to score and has already spent a coin this turn: the turn "
                          "ends.").format(player=player)
    return tr.gettext("{player} has nothing more to score and no coin to spend: the turn ends.").format(
        player=player)


def end_seats(view: DualsView) -> tuple[int, int]:
    """D8, from a view of the end triggered: (the seat whose turn triggered it, the seat of the last chance).

    The engine is then either still in the turn that triggered the end (a draw during the turn, or the draw of
    the token that begins it), or already in the opponent's last chance (the REFRESH emptied the deck, or the
    rest of the turn went by itself); a match over ends with the last chance, its view still says so."""
    last = view.turn if view.last_chance else 1 - view.turn
    return 1 - last, last


def end_text(view: DualsView, tr: Translator, names: Sequence[str]) -> Text:
    """D8: why the end is triggered, and what is left, told from the first view that shows it triggered (the
    view after the step that triggered it: :func:`end_seats`)."""
    _ = tr.gettext
    trigger, last = end_seats(view)
    deck = view.deck_size == 0
    if view.last_chance:  # the turn that triggered the end is over already
        if deck:
            text = _("The shop deck is empty: the end is triggered. {player}'s turn is over; {other} gets a last "
                     "chance.")
        else:
            text = _("The bag is empty: the end is triggered. {player}'s turn is over; {other} gets a last chance.")
    elif deck:
        text = _("The shop deck is empty: the end is triggered. {player} finishes this turn, then {other} "
                 "gets a last chance.")
    else:
        text = _("The bag is empty: the end is triggered. {player} finishes this turn, then {other} gets a "
                 "last chance.")
    return Text(text.format(player=names[trigger], other=names[last]), style="bold yellow")


def turn_start_lines(view: DualsView, words: DualsWords, names: Sequence[str]) -> list[Text]:
    """A new turn: its title, then what its player draws (or may still do, in the last chance)."""
    _ = words.tr.gettext
    player = names[view.turn]
    if view.last_chance:
        title = _("Turn {n} · {player}: last chance").format(n=view.turn_number, player=player)
    else:
        title = _("Turn {n} · {player}").format(n=view.turn_number, player=player)
    lines = [Text(f"── {title} ──", style="bold")]
    if view.last_chance:
        lines.append(Text(_("{player} may only score cards and spend a coin; then the match ends.").format(
            player=player)))
    elif view.held >= 0:
        lines.append(fmt(_("{player} draws {token} from the bag."), player=player, token=words.token(view.held)))
    else:
        lines.append(Text(_("{player} has nothing left to draw: no token to place.").format(player=player)))
    return lines


# ------------------------------------------------------------------ the match log


class DualsLog:
    """Flamecraft Duals' match log (:class:`~flametable.texts.log.MatchLog`): what the terminal's narrator tells,
    as plain lines: the first-player draws and the first turn, each step and the turn that begins after it
    (:func:`step_story`), the result."""

    def __init__(self, game: DualsGame) -> None:
        self.data = game.data

    def start(self, reader: Reader, view: DualsView) -> list[str]:
        words = DualsWords(reader.tr, self.data)
        lines = [first_player_text(view, words, reader.names)]
        lines += turn_start_lines(view, words, reader.names)
        return [line.plain for line in lines]

    def step(self, reader: Reader, before: DualsView, after: DualsView, actor: int,
             action: DualsAction | None) -> list[str]:
        words = DualsWords(reader.tr, self.data)
        return [line.plain for line in step_story(before, after, actor, action, reader.audience, words,
                                                  reader.names)]

    def end(self, reader: Reader, view: DualsView, outcome: Outcome) -> list[str]:
        lines = [outcome_text(reader.tr, outcome, view, reader.names)]
        if reader.audience is not None:
            lines.append(outcome_for(reader.tr, outcome, reader.audience))
        return lines


# A colour hint per type for a browser (the terminal's TYPE_STYLES as web colours, dark enough for white letters
# and light enough apart); a token also carries its letter, so the colour is never the only signal.
TYPE_COLOURS = ("#a86b00", "#00758a", "#b3261e", "#2f5fb3", "#8e2f8e", "#2e7d32")
BUDDY_COLOUR = "#555555"


def facts(game: Any, tr: Translator) -> dict[str, Any]:
    """What a browser needs to draw this game's pieces in ``tr``'s language (the registry's ``facts`` piece): the
    board's spaces (names as in the notation, axial coordinates, neighbours, the inner ring), the six types (name,
    letter, colour hint, ability), every token kind by its notation key (letters, name, types), the shop cards
    (pattern cells as axial offsets, VP, name, STARBURST) and the words of each step. Public data only."""
    data: DualsData = game.data
    words = DualsWords(tr, data)
    board = data.board
    spaces = [{"name": name, "q": q, "r": r, "inner": s in board.inner,
               "neighbours": [board.names[n] for n in board.adj[s]]}
              for s, (name, (q, r)) in enumerate(zip(board.names, board.coords, strict=True))]
    types = [{"key": t.key, "name": type_name(tr, t), "letter": words.type_letters[t], "colour": TYPE_COLOURS[t],
              "ability": ability_text(tr, t)} for t in TokenType]
    kinds: dict[str, dict[str, Any]] = {}
    for k, key in enumerate(data.kind_names):
        kinds[key] = {"letters": words.letters(k), "name": words.kind_name(k),
                      "types": [TokenType(t).key for t in words.types_of(k)],
                      "colours": [TYPE_COLOURS[t] for t in words.types_of(k)] or [BUDDY_COLOUR]}
    cards = [{"number": c.number, "label": words.card(c.number), "name": tr.pick(c.name) if c.name else None,
              "vp": c.vp, "starburst": c.starburst,
              "cells": [{"q": cell.dq, "r": cell.dr, "type": TokenType(cell.type).key if cell.type >= 0 else None,
                         "var": cell.var or None} for cell in c.cells]}
             for c in data.cards]
    steps = {step.name.lower(): phase_text(tr, step) for step in Step}
    return {"game": "duals", "spaces": spaces, "types": types, "kinds": kinds, "buddy_letter": BUDDY_LETTER,
            "cards": cards, "steps": steps,
            "fire_forced": tr.gettext("plant: FIRE UP the token it uses"),
            "score_no_coin": tr.gettext("SCORE: score cards or finish")}


# ------------------------------------------------------------------ what a player types

def duals_verbs(tr: Translator) -> dict[Kind, str]:
    """Flamecraft Duals' command words in the language of ``tr``."""
    return {
        # Translators: a Flamecraft Duals command word, typed by the player (one word, lower case, different from
        # the others); stop scoring, or stop the iron after one move
        Kind.DONE: tr.pgettext("Flamecraft Duals command", "done"),
        # Translators: Flamecraft Duals command word: do not FIRE UP the token just placed
        Kind.SKIP: tr.pgettext("Flamecraft Duals command", "skip"),
        # Translators: Flamecraft Duals command word: spend a coin
        Kind.COIN: tr.pgettext("Flamecraft Duals command", "coin"),
        # Translators: Flamecraft Duals command word: place the token on a space ("place c3")
        Kind.PLACE: tr.pgettext("Flamecraft Duals command", "place"),
        # Translators: Flamecraft Duals command word: FIRE UP one ability of the token ("fire meat")
        Kind.FIRE: tr.pgettext("Flamecraft Duals command", "fire"),
        # Translators: Flamecraft Duals command word: crystal, keep one of the drawn tokens ("take meat")
        Kind.TAKE: tr.pgettext("Flamecraft Duals command", "take"),
        # Translators: Flamecraft Duals command word: plant, use the ability of the token on a space ("use b2")
        Kind.USE: tr.pgettext("Flamecraft Duals command", "use"),
        # Translators: Flamecraft Duals command word: move a top token ("move b2 c3")
        Kind.MOVE: tr.pgettext("Flamecraft Duals command", "move"),
        # Translators: Flamecraft Duals command word: potion, swap two top tokens ("swap a1 e3")
        Kind.SWAP: tr.pgettext("Flamecraft Duals command", "swap"),
        # Translators: Flamecraft Duals command word: score a card of the hand ("score K12")
        Kind.SCORE: tr.pgettext("Flamecraft Duals command", "score"),
        # Translators: Flamecraft Duals command word: put a card at the bottom of the deck ("bottom K12")
        Kind.BOTTOM: tr.pgettext("Flamecraft Duals command", "bottom"),
    }


def duals_commands(words: DualsWords) -> Commands:
    """Flamecraft Duals' words in the language of ``words``: the command words, the abilities (``asado`` for
    ``meat``) and the tokens a crystal draws (``pan+cristal`` for ``bread+crystal``); the words of the other
    languages are read too."""
    verbs, args = _duals_words(words)
    needs = {Kind.PLACE.word: NEEDS_SPACE, Kind.USE.word: NEEDS_SPACE, Kind.MOVE.word: NEEDS_SPACES,
             Kind.SWAP.word: NEEDS_SPACES, Kind.FIRE.word: NEEDS_ABILITY,
             Kind.TAKE.word: NEEDS_TOKEN, Kind.SCORE.word: NEEDS_CARD, Kind.BOTTOM.word: NEEDS_CARD}
    others = [_duals_words(DualsWords(o, words.data)) for o in other_languages(words.tr)]
    return Commands(words.tr, verbs, args, needs,
                    {Kind.FIRE.word: UNKNOWN_ABILITY, Kind.TAKE.word: UNKNOWN_TOKEN}, others=others)


def _duals_words(words: DualsWords) -> tuple[dict[str, str], dict[str, str]]:
    tr = words.tr
    verbs = {kind.word: word for kind, word in duals_verbs(tr).items()}
    data = words.data
    args = {TYPE_KEYS[t]: type_name(tr, t).lower() for t in range(NUM_TYPES)}
    for kind, name in enumerate(data.kind_names):
        args[name] = words.kind_name(kind).lower()
        if "+" in name:  # a dual, typed in either order
            first, _, second = name.partition("+")
            local_first, _, local_second = args[name].partition("+")
            args[f"{second}+{first}"] = f"{local_second}+{local_first}"
    return verbs, args
