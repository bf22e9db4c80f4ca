"""What a player types, in the player's language: each game's command words, read back into the engine's notation,
and each action written the way the player would type it.

The notation is the engine's (``pick C12``, ``stat heat``, ``place c3``, ``fire meat``): language-neutral, the same
in records and events. A player types the words of their language (``elegir C12``, ``estadística calor``,
``colocar c3``, ``activar carne``), the English words, or a mix of both; accents and capitals do not matter. Card
numbers (``C12``, ``S7``, ``K12``) and board spaces (``c3``) are the same in every language. Menus and prompts show
each action with the words of the player's language (:meth:`Commands.spoken`).

A word that needs something after it (``place`` without a space) and a word that is not a command get a sentence
in the player's language saying what to type, with an example from the options at hand.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from flametable.bots.registry import HUMAN
from flametable.core.errors import FlametableError, IllegalAction, Ngettext, Translate
from flametable.core.i18n import LANGUAGES, N_
from flametable.core.protocol import Action
from flametable.texts.translator import Translator

A = TypeVar("A", bound=Action)
K = TypeVar("K", bound=Hashable)


def fold(word: str) -> str:
    """A typed word as it is compared: lower case, without accents (``Estadística`` and ``estadistica`` agree)."""
    decomposed = unicodedata.normalize("NFD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def card_named(query: str, cards: Iterable[tuple[K, Mapping[str, str]]]) -> K | None:
    """The card (its key, of ``cards``: key and name in each language) whose name in any language is ``query``, or
    else the only one whose name has it; compared as typed words are (:func:`fold`: ``bebe volcan`` is Bebé
    Volcán), spaces too. None when it names no card, or several."""
    typed = " ".join(fold(query).split())
    if not typed:
        return None
    names = [(key, [" ".join(fold(text).split()) for text in name.values()]) for key, name in cards]
    for whole in (True, False):
        found = {key for key, texts in names if any(typed == text if whole else typed in text for text in texts)}
        if len(found) == 1:
            return found.pop()
        if found:
            return None
    return None


def no_card_called(tr: Translator, query: str, example: str) -> str:
    """What a player who asked to see a card that does not exist is told (both games' ``card`` command)."""
    _ = tr.gettext
    return _("No card is called {query!r}: type {card} and a card's number or name, like {card} {example}.").format(
        query=query, card=_("card"), example=example)


def seat_words(tr: Translator) -> dict[str, str]:
    """The words of a seat (``--p1 human``, ``bot:hard``) in the language of ``tr``: the seat's word or bot's
    name -> this language's word (``hard``: ``difícil``)."""
    return {
        # Translators: a seat typed by the player (--p1 human): a person plays it (one word, lower case)
        HUMAN: tr.pgettext("seat", "human"),
        # Translators: a bot's name typed by the player after bot: (--p2 bot:random); one word, lower case, different
        # from the other bots' names; the bot that plays a legal action at random
        "random": tr.pgettext("seat", "random"),
        # Translators: a bot's name (bot:greedy): the bot that takes what looks best right now
        "greedy": tr.pgettext("seat", "greedy"),
        # Translators: a bot's name (bot:planner): the bot that plans its whole turn
        "planner": tr.pgettext("seat", "planner"),
        # Translators: a bot's level (bot:easy)
        "easy": tr.pgettext("seat", "easy"),
        # Translators: a bot's level (bot:medium)
        "medium": tr.pgettext("seat", "medium"),
        # Translators: a bot's level (bot:hard)
        "hard": tr.pgettext("seat", "hard"),
    }


def seat_spec(typed: str) -> str:
    """The seat a player typed, in the words of any language, capitals and accents aside (``humano``,
    ``bot:difícil``, ``BOT:Dificil``), as the seats are written (``human``, ``bot:hard``); a seat of no known
    words (``bot:ismcts:500``, ``bot:wizard``) is left as typed."""
    words = _lookup(*({local: word for word, local in seat_words(Translator.for_language(lang)).items()}
                      for lang in LANGUAGES), {word: word for word in seat_words(Translator.for_language("en"))})
    kind, colon, rest = fold(typed.strip()).partition(":")
    if not colon:
        return HUMAN if words.get(kind) == HUMAN else typed
    name, more, tail = rest.partition(":")
    bot = words.get(name)
    if kind != "bot" or bot is None or bot == HUMAN:
        return typed
    return f"bot:{bot}{more}{tail}"


def spoken_seat(tr: Translator, spec: str) -> str:
    """A seat as a player of ``tr``'s language types it (``bot:hard``: ``bot:difícil``)."""
    words = seat_words(tr)
    if spec in words:
        return words[spec]
    kind, colon, rest = spec.partition(":")
    name, more, tail = rest.partition(":")
    return f"{kind}{colon}{words.get(name, name)}{more}{tail}" if kind == "bot" else spec


def _lookup(*tables: Mapping[str, str]) -> dict[str, str]:
    """Folded typed word -> the notation's word, from tables of typed word -> notation word; a typed word that
    would mean two things (a translation equal to another English word) is an error of the catalogue."""
    out: dict[str, str] = {}
    for table in tables:
        for typed, notation in table.items():
            key = fold(typed)
            if out.setdefault(key, notation) != notation:
                raise ValueError(f"the word {typed!r} means both {out[key]!r} and {notation!r}")
    return out


class Commands:
    """One game's words for a player of ``tr``'s language: typed text into notation, actions into typed text."""

    tr: Translator
    verbs: dict[str, str]  # notation word -> this language's word
    args: dict[str, str]  # notation argument -> this language's word (those that are words: stats, types, tokens)
    needs: dict[str, str]  # notation word -> the message for it typed alone (N_-marked, {word} and {example})
    unknown: dict[str, str]  # notation word taking a word argument -> the message for an unknown one ({choices})

    alone: dict[str, str]  # notation argument -> the word it goes with when typed alone (``heat``: ``stat``)

    def __init__(self, tr: Translator, verbs: Mapping[str, str], args: Mapping[str, str],
                 needs: Mapping[str, str], unknown: Mapping[str, str], alone: Mapping[str, str] | None = None,
                 others: Sequence[tuple[Mapping[str, str], Mapping[str, str]]] = ()) -> None:
        """``verbs`` and ``args``: notation word -> this language's word; ``others``: the same two tables in the
        other languages, whose words are read too."""
        self.tr = tr
        self.verbs = dict(verbs)
        self.args = dict(args)
        self.needs = dict(needs)
        self.unknown = dict(unknown)
        self.alone = dict(alone or {})
        tables = [(verbs, args), *others]
        self._verb = _lookup({w: w for w in verbs}, *({local: w for w, local in v.items()} for v, _ in tables))
        self._arg = _lookup({w: w for w in args}, *({local: w for w, local in a.items()} for _, a in tables))

    # ------------------------------------------------------------------ actions as the player types them

    def spoken(self, action: Action) -> str:
        """``action`` as a player of this language types it (``elegir C12``, ``colocar c3``)."""
        word, *args = action.text().split()
        return " ".join([self.verbs.get(word, word), *(self.args.get(arg, arg) for arg in args)])

    # ------------------------------------------------------------------ typed text into notation

    def notation(self, text: str) -> str:
        """The notation of what the player typed: command words and argument words of either language become the
        engine's; anything else is left as typed (the engine then says what is wrong with it)."""
        words = text.split()
        if not words:
            return text
        verb = self._verb.get(fold(words[0]))
        if verb is None:
            arg = self._arg.get(fold(words[0]))
            if len(words) == 1 and arg in self.alone:
                return f"{self.alone[arg]} {arg}"
            return text
        return " ".join([verb, *(self._arg.get(fold(w), w) for w in words[1:])])

    def read(self, text: str, legal: Sequence[A], action_from_text: Callable[[str], A]) -> A:
        """The action the player typed (words of either language), or :class:`IllegalAction` saying, in the words
        the player typed, what is wrong. ``legal`` gives the examples of what a word needs."""
        notation = self.bare(text, legal) or self.notation(text)
        words = notation.split()
        if len(words) == 1 and words[0] in self.needs:
            examples = [a for a in legal if a.text().split()[0] == words[0]]
            if not examples:
                raise IllegalAction(NOT_NOW, word=text.strip())
            raise IllegalAction(self.needs[words[0]], word=text.strip(), example=self.spoken(examples[0]))
        if len(words) == 2 and words[0] in self.unknown and words[1] not in self.args:
            options = [a for a in legal if a.text().split()[0] == words[0]]
            if not options:
                raise IllegalAction(NOT_NOW, word=text.split()[0])
            raise IllegalAction(self.unknown[words[0]], word=text.split()[1],
                                choices=", ".join(self.spoken(a).partition(" ")[2] for a in options))
        try:
            return action_from_text(notation)
        except IllegalAction as exc:
            said = self._in_typed_words(exc, text)
            if not words or words[0] not in self.verbs:  # no command word of any language
                raise NotUnderstood(said) from None
            raise said from None

    def bare(self, text: str, legal: Sequence[A]) -> str | None:
        """The notation of an argument typed alone when it names one legal action (``heat`` for ``stat heat``,
        ``c3`` for ``place c3``), else None."""
        typed = " ".join(self._arg.get(fold(w), fold(w)) for w in text.split())
        if not typed:
            return None
        found = [a for a in legal if a.text().lower().partition(" ")[2] == typed]
        return found[0].text() if len(found) == 1 else None

    def _in_typed_words(self, exc: IllegalAction, text: str) -> IllegalAction:
        """The engine's reason with the player's own words in it (it names the notation's)."""
        params: dict[str, Any] = dict(exc.params)
        typed = text.split()
        if "text" in params:
            params["text"] = text.strip()
        if "word" in params and typed and self._verb.get(fold(typed[0])) == params["word"]:
            params["word"] = typed[0]
        return IllegalAction(exc.reason, **params)


SEE_OPTIONS = N_("Type {help} to see your options.")


class NotUnderstood(IllegalAction):
    """What the player typed begins with no command word: the engine's reason, then where the options are
    (``?``)."""

    def __init__(self, exc: IllegalAction) -> None:
        super().__init__(exc.reason, **exc.params)

    def translated(self, translate: Translate, ngettext: Ngettext | None = None) -> str:
        return (super().translated(translate, ngettext) + " "
                + FlametableError(SEE_OPTIONS, help="?").translated(translate, ngettext))


# What a command word typed alone needs, with an example of the options at hand.
NEEDS_CARD = N_("{word!r} needs a card: for example {example}.")
NEEDS_STAT = N_("{word!r} needs a stat: for example {example}.")
NEEDS_SPACE = N_("{word!r} needs a space: for example {example}.")
NEEDS_SPACES = N_("{word!r} needs two spaces: for example {example}.")
NEEDS_ABILITY = N_("{word!r} needs an ability: for example {example}.")
NEEDS_TOKEN = N_("{word!r} needs a token: for example {example}.")
NOT_NOW = N_("{word!r} is not one of your options now.")
# A word argument that is none of the words of its kind, with the ones to type.
UNKNOWN_STAT = N_("Unknown stat {word!r}: type one of {choices}.")
UNKNOWN_ABILITY = N_("Unknown ability {word!r}: type one of {choices}.")
UNKNOWN_TOKEN = N_("Unknown token {word!r}: type one of {choices}.")


def other_languages(tr: Translator) -> list[Translator]:
    """Translators of the other languages, whose command words a player may type too."""
    return [Translator.for_language(lang) for lang in LANGUAGES if lang != tr.lang]
