"""Flame Duel actions: small immutable values with a text notation and a stable integer id.

Notation (case-insensitive on input, canonical on output)::

    pass                 pass (R6)
    play S7              play support card 7 from your hand
    ability S7           trigger your character's ability, discarding support card 7 (R11)
    stat spark           choose the round's stat: spark | heat | charm (R5)
    pick C12             draft character 12 (R2, draft)
    line C12             put character 12 next in your secret line-up (R3)
    champion C12         play character 12 in the tie-break round (R14, tied Charm only)
    take S4              take support card 4 from your discard pile into your hand (effect "recover")
    swap S9              put place 9 from your discard pile on the table (effect "swap_place")

Ids are laid out kind by kind in the order above: 0 is ``pass``, then 21 ``play``, 21 ``ability``,
3 ``stat``, 33 ``pick``, 33 ``line``, 33 ``champion``, 21 ``take``, 21 ``swap``: 187 in all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from flametable.core.errors import IllegalAction
from flametable.core.i18n import N_
from flametable.games.duel.cards import NUM_CHARACTERS, NUM_SUPPORTS, Stat


class Kind(IntEnum):
    PASS = 0
    PLAY = 1
    ABILITY = 2
    STAT = 3
    PICK = 4
    LINE = 5
    CHAMPION = 6
    TAKE = 7
    SWAP = 8

    @property
    def word(self) -> str:
        return self.name.lower()


# The members as module globals for the engine's hot paths (issue 26): on Python 3.11 reading `Kind.X` is a
# lookup through the enum's metaclass, several times slower than reading a global.
PASS_KIND, PLAY_KIND, ABILITY_KIND, STAT_KIND, PICK_KIND, LINE_KIND, CHAMPION_KIND, TAKE_KIND, SWAP_KIND = Kind


_SIZES = {
    Kind.PASS: 1,
    Kind.PLAY: NUM_SUPPORTS,
    Kind.ABILITY: NUM_SUPPORTS,
    Kind.STAT: 3,
    Kind.PICK: NUM_CHARACTERS,
    Kind.LINE: NUM_CHARACTERS,
    Kind.CHAMPION: NUM_CHARACTERS,
    Kind.TAKE: NUM_SUPPORTS,
    Kind.SWAP: NUM_SUPPORTS,
}
_CARD_NUMBER = re.compile(r"[0-9]{1,4}")  # ASCII digits only, and few: int() of 5,000 digits raises ValueError
_SUPPORT_KINDS = {Kind.PLAY, Kind.ABILITY, Kind.TAKE, Kind.SWAP}
_OFFSET: dict[Kind, int] = {}
_total = 0
for _k in Kind:
    _OFFSET[_k] = _total
    _total += _SIZES[_k]
NUM_ACTIONS = _total


@dataclass(frozen=True, slots=True)
class DuelAction:
    """``kind`` and its argument: a support number, a character number or a :class:`Stat` value."""

    kind: Kind
    arg: int
    id: int

    def text(self) -> str:
        if self.kind is Kind.PASS:
            return "pass"
        if self.kind is Kind.STAT:
            return f"stat {Stat(self.arg).key}"
        prefix = "S" if self.kind in _SUPPORT_KINDS else "C"
        return f"{self.kind.word} {prefix}{self.arg}"

    def __str__(self) -> str:
        return self.text()

    @staticmethod
    def of(kind: Kind, arg: int = 0) -> DuelAction:
        return ACTIONS[_OFFSET[kind] + (arg if kind is Kind.STAT or kind is Kind.PASS else arg - 1)]

    @staticmethod
    def from_id(action_id: int) -> DuelAction:
        if not isinstance(action_id, int) or not 0 <= action_id < NUM_ACTIONS:
            raise IllegalAction(N_("No action has id {id} (ids are 0 to {last})."), id=action_id,
                                last=NUM_ACTIONS - 1)
        return ACTIONS[action_id]

    @staticmethod
    def from_text(text: str) -> DuelAction:
        words = text.strip().lower().split()
        if words == ["pass"]:
            return PASS
        if len(words) != 2 or words[0] == "pass":
            raise IllegalAction(N_("Cannot read the action {text!r}."), text=text)
        word, arg = words
        try:
            kind = Kind[word.upper()]
        except KeyError:
            raise IllegalAction(N_("Unknown action {word!r} in {text!r}."), word=word, text=text) from None
        if kind is Kind.STAT:
            try:
                return DuelAction.of(kind, Stat.from_key(arg))
            except KeyError:
                raise IllegalAction(N_("Unknown stat {word!r}: use spark, heat or charm."), word=arg) from None
        prefix = "s" if kind in _SUPPORT_KINDS else "c"
        limit = NUM_SUPPORTS if kind in _SUPPORT_KINDS else NUM_CHARACTERS
        digits = arg[1:] if arg.startswith(prefix) else arg
        if not _CARD_NUMBER.fullmatch(digits) or not 1 <= int(digits) <= limit:
            raise IllegalAction(
                N_("{word!r} needs a card {prefix}1 to {prefix}{limit}, got {arg!r}."),
                word=word, prefix=prefix.upper(), limit=limit, arg=arg,
            )
        return DuelAction.of(kind, int(digits))


def _build() -> tuple[DuelAction, ...]:
    out: list[DuelAction] = []
    for kind in Kind:
        first = 0 if kind in (Kind.PASS, Kind.STAT) else 1
        for arg in range(first, first + _SIZES[kind]):
            out.append(DuelAction(kind, arg, len(out)))
    return tuple(out)


ACTIONS: tuple[DuelAction, ...] = _build()
PASS = ACTIONS[0]
PLAY = (PASS, *ACTIONS[_OFFSET[Kind.PLAY] : _OFFSET[Kind.PLAY] + NUM_SUPPORTS])  # PLAY[s]
ABILITY = (PASS, *ACTIONS[_OFFSET[Kind.ABILITY] : _OFFSET[Kind.ABILITY] + NUM_SUPPORTS])
STAT = ACTIONS[_OFFSET[Kind.STAT] : _OFFSET[Kind.STAT] + 3]  # STAT[stat]
PICK = (PASS, *ACTIONS[_OFFSET[Kind.PICK] : _OFFSET[Kind.PICK] + NUM_CHARACTERS])
LINE = (PASS, *ACTIONS[_OFFSET[Kind.LINE] : _OFFSET[Kind.LINE] + NUM_CHARACTERS])
CHAMPION = (PASS, *ACTIONS[_OFFSET[Kind.CHAMPION] : _OFFSET[Kind.CHAMPION] + NUM_CHARACTERS])
TAKE = (PASS, *ACTIONS[_OFFSET[Kind.TAKE] : _OFFSET[Kind.TAKE] + NUM_SUPPORTS])
SWAP = (PASS, *ACTIONS[_OFFSET[Kind.SWAP] : _OFFSET[Kind.SWAP] + NUM_SUPPORTS])
