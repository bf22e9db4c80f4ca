"""Flame Duel in a player's language: card labels, action descriptions, narration and outcomes.

Everything here turns public facts (card numbers from a view, actions, results) into text, in the language
of the :class:`~flametable.texts.translator.Translator` it is given (held by :class:`CardWords`, or a
parameter); no rules are decided here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flametable.core.i18n import N_
from flametable.core.outcome import Outcome
from flametable.core.schema import List
from flametable.games.duel.actions import PASS, DuelAction, Kind
from flametable.games.duel.cards import DECK, CardSet, Stat, SupportKind
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import PHASE_TEXT, Phase, Reason
from flametable.games.duel.view import DRAW, DuelView, RoundResult
from flametable.texts.commands import NEEDS_CARD, NEEDS_STAT, UNKNOWN_STAT, Commands, other_languages
from flametable.texts.log import Reader
from flametable.texts.translator import Translator
from flametable.texts.words import reason_text


class CardWords:
    """Labels of one card set's cards in the language of ``tr``."""

    def __init__(self, tr: Translator, cards: CardSet) -> None:
        self.tr = tr
        self.cards = cards

    @property
    def lang(self) -> str:
        return self.tr.lang

    def character(self, number: int) -> str:
        return f"C{number} {self.tr.pick(self.cards.character(number).name)}"

    def character_stats(self, number: int) -> str:
        c = self.cards.character(number)
        return " · ".join(f"{stat_name(self.tr, s)} {c.stat(s)}" for s in Stat)

    def ability(self, number: int) -> str:
        return self.tr.pick(self.cards.character(number).ability)

    def support(self, number: int) -> str:
        return f"S{number} {self.tr.pick(self.cards.support(number).name)}"

    def support_detail(self, number: int) -> str:
        s = self.cards.support(number)
        return f"{kind_name(self.tr, s.kind)} · {stat_name(self.tr, s.stat)} {s.bonus:+d}"

    def support_text(self, number: int) -> str:
        return self.tr.pick(self.cards.support(number).text)

    def equips_to(self, number: int) -> str:
        return ", ".join(f"C{c}" for c in sorted(self.cards.support(number).equips_to))


def describe_option(action: DuelAction, words: CardWords, current: int, lineup_len: int) -> str:
    """A legal action as a menu line for the seat that takes it (``current``: its character this round)."""
    _ = words.tr.gettext
    kind, arg = action.kind, action.arg
    if kind is Kind.PASS:
        return _("Pass")
    if kind is Kind.PLAY:
        return _("Play {card} ({detail})").format(card=words.support(arg), detail=words.support_detail(arg))
    if kind is Kind.ABILITY:
        return _("Trigger {character}'s ability (+15), discarding {card}").format(
            character=words.character(current), card=words.support(arg))
    if kind is Kind.STAT:
        return _("Compete on {stat}").format(stat=stat_name(words.tr, arg))
    if kind is Kind.PICK:
        return _("Pick {character}").format(character=words.character(arg))
    if kind is Kind.LINE:
        return _("Put {character} in position {position} of your line-up").format(
            character=words.character(arg), position=lineup_len + 1)
    if kind is Kind.CHAMPION:
        return _("Play {character} in the tie-break round").format(character=words.character(arg))
    if kind is Kind.TAKE:
        return _("Take {card} from your discard pile into your hand").format(card=words.support(arg))
    return _("Put the place {card} from your discard pile on the table").format(card=words.support(arg))


def describe_public(player: str, action: DuelAction, words: CardWords, character: int = 0,
                    auto: bool = False) -> str:
    """What everyone at the table sees of ``player``'s action (a line-up or tie-break pick stays secret)."""
    _ = words.tr.gettext
    kind, arg = action.kind, action.arg
    if kind is Kind.PASS:
        if auto:
            return _("{player} passes (no plays left or no cards).").format(player=player)
        return _("{player} passes.").format(player=player)
    if kind is Kind.PLAY:
        return _("{player} plays {card} ({detail}).").format(player=player, card=words.support(arg),
                                                            detail=words.support_detail(arg))
    if kind is Kind.ABILITY:
        if character:
            return _("{player} discards {card} to trigger {character}'s ability (+15).").format(
                player=player, card=words.support(arg), character=words.character(character))
        return _("{player} discards {card} to trigger their ability (+15).").format(
            player=player, card=words.support(arg))
    if kind is Kind.STAT:
        return _("{player} chooses {stat} for this round.").format(player=player, stat=stat_name(words.tr, arg))
    if kind is Kind.PICK:
        return _("{player} picks {character}.").format(player=player, character=words.character(arg))
    if kind is Kind.LINE:
        return _("{player} lines up a character.").format(player=player)
    if kind is Kind.CHAMPION:
        return _("{player} chooses a character for the tie-break round.").format(player=player)
    if kind is Kind.TAKE:
        return _("{player} takes {card} from their discard pile into their hand.").format(
            player=player, card=words.support(arg))
    return _("{player} puts the place {card} from their discard pile on the table.").format(
        player=player, card=words.support(arg))


def log_entry(action: DuelAction, words: CardWords, auto: bool) -> str:
    """A short line for the round's log table (who did it is in another column)."""
    _ = words.tr.gettext
    kind, arg = action.kind, action.arg
    if kind is Kind.PASS:
        return _("Passed (automatically)") if auto else _("Passed")
    if kind is Kind.PLAY:
        return _("Played {card} ({detail})").format(card=words.support(arg), detail=words.support_detail(arg))
    if kind is Kind.ABILITY:
        return _("Triggered the ability (+15), discarding {card}").format(card=words.support(arg))
    if kind is Kind.TAKE:
        return _("Took {card} back from the discard pile").format(card=words.support(arg))
    if kind is Kind.SWAP:
        return _("Put the place {card} from the discard pile on the table").format(card=words.support(arg))
    return action.text()


def round_title(tr: Translator, number: int) -> str:
    _ = tr.gettext
    if number > 3:
        return _("Tie-break round")
    return _("Round {n} of 3").format(n=number)


def round_result(result: RoundResult, names: Sequence[str], words: CardWords) -> str:
    """``Round 1 · Heat: C3 ... 55 – C4 ... 40. Player 1 wins the round.``"""
    tr = words.tr
    _ = tr.gettext
    head = _("{round} · {stat}: {first} {total1} – {second} {total2}.").format(
        round=round_title(tr, result.number), stat=stat_name(tr, result.stat),
        first=words.character(result.characters[0]), total1=result.totals[0],
        second=words.character(result.characters[1]), total2=result.totals[1])
    if result.winner == DRAW:
        return head + " " + _("The round is a draw: the two flames hug it out.")
    tail = _("{player} wins the round.").format(player=names[result.winner])
    if result.by_charm:
        tail += " " + _("(Equal totals: the higher printed Charm wins.)")
    return head + " " + tail


def round_winner(tr: Translator, result: RoundResult, names: Sequence[str]) -> str:
    _ = tr.gettext
    if result.winner == DRAW:
        # Translators: the "winner" of a drawn round
        return _("Draw")
    text = names[result.winner]
    return text + " " + _("(by Charm)") if result.by_charm else text


def outcome_text(tr: Translator, outcome: Outcome, names: Sequence[str]) -> str:
    _ = tr.gettext
    score = f"{outcome.scores[0]}–{outcome.scores[1]}"
    if outcome.winner is None:
        return _("The match is a tie ({reason}). Round wins: {score}.").format(
            reason=reason_text(tr, outcome.reason), score=score)
    return _("{player} wins the match ({reason}). Round wins: {score}.").format(
        player=names[outcome.winner], reason=reason_text(tr, outcome.reason), score=score)


def outcome_for(tr: Translator, outcome: Outcome, seat: int) -> str:
    """The line for the player at ``seat``."""
    _ = tr.gettext
    if outcome.winner is None:
        return _("Nobody wins this time.")
    return _("You win!") if outcome.winner == seat else _("You lose.")


# ------------------------------------------------------------------ narration

ROUND_PHASES = (Phase.STAT, Phase.PLAY, Phase.CHOICE)


def step_lines(prev: DuelView, view: DuelView, actor: int, action: DuelAction | None, observer: int | None,
               words: CardWords, names: Sequence[str]) -> list[str]:
    """What ``observer`` (a seat, or None for everyone) is told when ``actor`` played ``action``, from its views
    before and after: the action (the observer's own too, so that it sees what it chose), the moves made for the
    seats (automatic passes, also those that end a round), the place going away (a character's ability) and
    the rounds that ended. ``action`` is None when the observer may not know it (a line-up or tie-break pick, R3
    and R14): only which decision it was is told."""
    _ = words.tr.gettext
    lines: list[str] = []
    own = actor == observer
    ended = len(view.results) > len(prev.results)
    # the round's log goes on in ``view`` unless a round ended and the next one began (then it starts anew)
    log_kept = view.round_number == prev.round_number and (not ended or view.outcome is not None)
    if action is None:
        if prev.phase is Phase.CHAMPION:
            lines.append(_("{player} chooses a character for the tie-break round.").format(player=names[actor]))
        else:
            lines.append(_("{player} lines up a character.").format(player=names[actor]))
    elif own and action.kind is Kind.LINE:
        lines.append(_("{player} lines up {character}.").format(player=names[actor],
                                                                character=words.character(action.arg)))
    elif own and action.kind is Kind.CHAMPION:
        lines.append(_("{player} chooses {character} for the tie-break round.").format(
            player=names[actor], character=words.character(action.arg)))
    elif action.kind in (Kind.STAT, Kind.PICK, Kind.LINE, Kind.CHAMPION):
        lines.append(describe_public(names[actor], action, words))
    elif not log_kept:
        lines.append(describe_public(names[actor], action, words, prev.seats[actor].character))
        lines += [describe_public(names[seat], PASS, words, auto=True) for seat in closing_passes(prev, actor, action)]
    if log_kept:
        for entry in view.log[len(prev.log):]:
            lines.append(describe_public(names[entry.seat], entry.action, words,
                                         view.seats[entry.seat].character, entry.auto))
    if prev.place and not view.place and prev.place_owner is not None:
        lines.append(_("The place {card} leaves the table for {player}'s discard pile.").format(
            card=words.support(prev.place), player=names[prev.place_owner]))
    for result in view.results[len(prev.results):]:
        lines.append(round_result(result, names, words))
    return lines


def closing_passes(prev: DuelView, actor: int, action: DuelAction) -> list[int]:
    """The seats whose automatic passes ended a round's play right after ``actor``'s ``action`` (R6), in order:
    two passes in a row end it, and after a play the count starts again; the engine passes for the other seat
    first. (The round's log is gone once the next round begins, so they are counted here.)"""
    after = prev.passes + 1 if action.kind is Kind.PASS else 0
    return [1 - actor if i % 2 == 0 else actor for i in range(max(0, 2 - after))]


def round_started(prev: DuelView | None, view: DuelView) -> bool:
    """Whether a round begins with ``view`` (``prev``: the view before the step, None at the start)."""
    if view.outcome is not None or view.phase not in ROUND_PHASES:
        return False
    return prev is None or view.round_number != prev.round_number or prev.phase not in ROUND_PHASES


def round_start_text(view: DuelView, words: CardWords, names: Sequence[str]) -> str:
    """``Round 1 of 3: Player 1 flips C3 …, Player 2 flips C4 …. Player 1 chooses the stat.``"""
    _ = words.tr.gettext
    a, b = (s.character for s in view.seats)
    chooser = names[view.chooser] if view.chooser is not None else ""
    return _("{round}: {first} flips {c1}, {second} flips {c2}. {chooser} chooses the stat.").format(
        round=round_title(words.tr, view.round_number), first=names[0], c1=words.character(a), second=names[1],
        c2=words.character(b), chooser=chooser)


# ------------------------------------------------------------------ the match log


class DuelLog:
    """Flame Duel's match log (:class:`~flametable.texts.log.MatchLog`): what the terminal's narrator tells, as
    plain lines: the round that starts with its flipped characters, each step (:func:`step_lines`), the result."""

    def __init__(self, game: DuelGame) -> None:
        self.cards = game.cards

    def start(self, reader: Reader, view: DuelView) -> list[str]:
        if round_started(None, view):
            return [round_start_text(view, CardWords(reader.tr, self.cards), reader.names)]
        return []

    def step(self, reader: Reader, before: DuelView, after: DuelView, actor: int,
             action: DuelAction | None) -> list[str]:
        words = CardWords(reader.tr, self.cards)
        lines = step_lines(before, after, actor, action, reader.audience, words, reader.names)
        if round_started(before, after):
            lines.append(round_start_text(after, words, reader.names))
        return lines

    def end(self, reader: Reader, view: DuelView, outcome: Outcome) -> list[str]:
        lines = [outcome_text(reader.tr, outcome, reader.names)]
        if reader.audience is not None:
            lines.append(outcome_for(reader.tr, outcome, reader.audience))
        return lines


STAT_SYMBOLS = {Stat.SPARK: "✦", Stat.HEAT: "▲", Stat.CHARM: "♥"}
"""A symbol for each stat, shown next to its name so that colour is never the only signal."""


def deck_sizes() -> dict[str, list[int]]:
    """How many characters and supports an own deck holds, as the game's deck schema declares them (R2)."""
    sizes = {}
    for key in ("characters", "supports"):
        sized = DECK.required[key]
        if not isinstance(sized, List) or sized.max is None:  # pragma: no cover - the schema declares both sizes
            raise TypeError(f"the deck schema's {key} is not a sized list")
        sizes[key] = [sized.min, sized.max]
    return sizes


def facts(game: Any, tr: Translator) -> dict[str, Any]:
    """What a browser needs to draw Flame Duel's cards in ``tr``'s language (the registry's ``facts`` piece): the
    card set (characters with their stats and ability, supports with kind, stat, bonus, whom they equip to and their
    text), the stats (key, name, symbol) and kinds by key, and the words of the table as templates with ``{name}``
    parameters (the same messages the terminal shows), which the browser fills. Data only: no rule is decided."""
    _ = tr.gettext
    cards: CardSet = game.cards
    words = CardWords(tr, cards)
    return {
        "game": "duel",
        "lang": tr.lang,
        "name": tr.pick(cards.name),
        "stats": [{"key": s.key, "name": stat_name(tr, s), "symbol": STAT_SYMBOLS[s]} for s in Stat],
        "kinds": {k.key: kind_name(tr, k) for k in SupportKind},
        "characters": [
            {"number": c.number, "name": tr.pick(c.name), "spark": c.spark, "heat": c.heat, "charm": c.charm,
             "ability": words.ability(c.number), "label": words.character(c.number),
             "stats_text": words.character_stats(c.number)}
            for c in cards.characters
        ],
        "supports": [
            {"number": s.number, "name": tr.pick(s.name), "kind": s.kind.key, "stat": s.stat.key, "bonus": s.bonus,
             "equips_to": sorted(s.equips_to), "text": words.support_text(s.number), "label": words.support(s.number),
             "detail": words.support_detail(s.number)}
            for s in cards.supports
        ],
        "deck": deck_sizes(),
        "phases": {p.name.lower(): tr.translate(PHASE_TEXT[p]) for p in Phase},
        "reasons": {str(r): reason_text(tr, r) for r in Reason},
        "words": {
            # the table's words and templates, in the terminal's messages (texts/duel.py, cli/duel_render.py)
            "round": _("Round {n} of 3"),
            "tiebreak": _("Tie-break round"),
            "stat": _("Stat: {stat}"),
            "chooser": _("Chooser: {player}"),
            "turn": _("Turn: {player} — {task}"),
            "place": _("Place on the table: {card} ({detail}), owned by {player}"),
            "no_place": _("Place on the table: none"),
            "total": _("Total this round"),
            "modifiers": _("Effect modifiers"),
            "items": _("Items this round"),
            "plays_left": _("Plays left"),
            "ability": _("Ability"),
            "ability_text": _("Ability: {text}"),
            "used": _("used"),
            "not_used": _("not used"),
            "hand": _("Hand"),
            "your_hand": _("Your hand"),
            "hand_empty": _("Your hand is empty."),
            "known_in_hand": _("Known in hand"),
            "draw_pile": _("Draw pile"),
            "draw_pile_shared": _("Draw pile (shared)"),
            "discard": _("Discard pile"),
            "round_wins": _("Round wins"),
            "this_round": _("This round"),
            "nothing_yet": _("Nothing played yet this round."),
            "character": _("Character"),
            "flipped": _("flipped"),
            "face_down": _("face down"),
            "equips_to": _("Equips to: {characters}"),
            "cards": tr.ngettext("{n} card", "{n} cards", 1),
            "cards_plural": tr.ngettext("{n} card", "{n} cards", 2),
            "draw": _("Draw"),
            "by_charm": _("(by Charm)"),
            "pass": _("Pass"),
            "play": _("Play {card} ({detail})"),
            "ability_option": _("Trigger {character}'s ability (+15), discarding {card}"),
            "stat_option": _("Compete on {stat}"),
            "pick": _("Pick {character}"),
            "line": _("Put {character} in position {position} of your line-up"),
            "champion": _("Play {character} in the tie-break round"),
            "take": _("Take {card} from your discard pile into your hand"),
            "swap": _("Put the place {card} from your discard pile on the table"),
            "log_passed": _("Passed"),
            "log_passed_auto": _("Passed (automatically)"),
            "log_played": _("Played {card} ({detail})"),
            "log_ability": _("Triggered the ability (+15), discarding {card}"),
            "log_took": _("Took {card} back from the discard pile"),
            "log_swap": _("Put the place {card} from the discard pile on the table"),
            "log_stat": _("{player} chooses {stat} for this round."),
        },
    }


STAT_NAMES = {Stat.SPARK: N_("Spark"), Stat.HEAT: N_("Heat"), Stat.CHARM: N_("Charm")}
KIND_NAMES = {SupportKind.ITEM: N_("Item"), SupportKind.PLACE: N_("Place"), SupportKind.EVENT: N_("Event")}


def stat_name(tr: Translator, stat: int) -> str:
    return tr.translate(STAT_NAMES[Stat(stat)])


def kind_name(tr: Translator, kind: SupportKind) -> str:
    return tr.translate(KIND_NAMES[kind])


def phase_text(tr: Translator, phase: Phase) -> str:
    """What the seat to act is expected to do, from the engine's own (N_-marked) phase texts."""
    return tr.translate(PHASE_TEXT[phase])


# ------------------------------------------------------------------ what a player types

def duel_verbs(tr: Translator) -> dict[Kind, str]:
    """Flame Duel's command words in the language of ``tr`` (the notation's first word, translated)."""
    return {
        # Translators: a Flame Duel command word, typed by the player (one word, lower case, different from the
        # others); pass your turn
        Kind.PASS: tr.pgettext("Flame Duel command", "pass"),
        # Translators: Flame Duel command word: play a support card ("play S7")
        Kind.PLAY: tr.pgettext("Flame Duel command", "play"),
        # Translators: Flame Duel command word: trigger the character's ability, discarding a card ("ability S7")
        Kind.ABILITY: tr.pgettext("Flame Duel command", "ability"),
        # Translators: Flame Duel command word: choose the round's stat ("stat heat")
        Kind.STAT: tr.pgettext("Flame Duel command", "stat"),
        # Translators: Flame Duel command word: draft a character ("pick C12")
        Kind.PICK: tr.pgettext("Flame Duel command", "pick"),
        # Translators: Flame Duel command word: put a character next in the line-up ("line C12")
        Kind.LINE: tr.pgettext("Flame Duel command", "line"),
        # Translators: Flame Duel command word: choose the character of the tie-break round ("champion C12")
        Kind.CHAMPION: tr.pgettext("Flame Duel command", "champion"),
        # Translators: Flame Duel command word: take a card back from the discard pile ("take S4")
        Kind.TAKE: tr.pgettext("Flame Duel command", "take"),
        # Translators: Flame Duel command word: put a place from the discard pile on the table ("swap S9")
        Kind.SWAP: tr.pgettext("Flame Duel command", "swap"),
    }


def _duel_words(tr: Translator) -> tuple[dict[str, str], dict[str, str]]:
    verbs = {kind.word: word for kind, word in duel_verbs(tr).items()}
    stats = {stat.key: stat_name(tr, stat).lower() for stat in Stat}
    return verbs, stats


def duel_commands(tr: Translator) -> Commands:
    """Flame Duel's words in the language of ``tr``: the command words and the stats (``calor`` for ``heat``);
    the words of the other languages are read too."""
    verbs, stats = _duel_words(tr)
    needs = {kind.word: NEEDS_CARD for kind in Kind if kind not in (Kind.PASS, Kind.STAT)}
    needs[Kind.STAT.word] = NEEDS_STAT
    return Commands(tr, verbs, stats, needs, {Kind.STAT.word: UNKNOWN_STAT},
                    {stat.key: Kind.STAT.word for stat in Stat}, [_duel_words(o) for o in other_languages(tr)])
