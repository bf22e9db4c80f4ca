"""The Flame Duel card set (R1): data shipped as TOML, validated on load, integer-coded for the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from pathlib import Path
from typing import Any

from flametable.core.data import FILE, WHOLE_ENTRY, Reader, content_hash, load_data, load_toml
from flametable.core.errors import DataError
from flametable.core.i18n import LANGUAGES, N_
from flametable.core.schema import Int, List, Obj, Str, Text, validate

NUM_CHARACTERS = 33
NUM_SUPPORTS = 21
BUILTIN_SET = "cards.toml"


class Stat(IntEnum):
    SPARK = 0
    HEAT = 1
    CHARM = 2

    @property
    def key(self) -> str:
        return self.name.lower()

    @classmethod
    def from_key(cls, key: str) -> Stat:
        return cls[key.upper()]


class SupportKind(IntEnum):
    ITEM = 0
    PLACE = 1
    EVENT = 2

    @property
    def key(self) -> str:
        return self.name.lower()


class EffectKind(IntEnum):
    """The table-effect vocabulary (R10)."""

    DRAW = 0  # draw n cards
    PEEK = 1  # look at the top n cards of your draw pile
    RECOVER = 2  # take a card of your choice from your discard pile into your hand
    SWAP_PLACE = 3  # put a place from your discard pile on the table (you own it)
    CLEAR_PLACE = 4  # the place on the table goes to its owner's discard pile
    BOOST = 5  # +n to your total this round
    SAP = 6  # -n to your opponent's total this round

    @property
    def key(self) -> str:
        return self.name.lower()


# The members as module globals for the engine's hot paths (issue 26): on Python 3.11 reading `EffectKind.X` is a
# lookup through the enum's metaclass, several times slower than reading a global.
DRAW_EFFECT, PEEK_EFFECT, RECOVER_EFFECT, SWAP_PLACE_EFFECT, CLEAR_PLACE_EFFECT, BOOST_EFFECT, SAP_EFFECT = EffectKind
ITEM_CARD, PLACE_CARD, EVENT_CARD = SupportKind

_NEEDS_N = {EffectKind.DRAW, EffectKind.PEEK, EffectKind.BOOST, EffectKind.SAP}


@dataclass(frozen=True, slots=True)
class Effect:
    kind: EffectKind
    n: int = 0


@dataclass(frozen=True, slots=True)
class Character:
    number: int
    name: dict[str, str]
    spark: int
    heat: int
    charm: int
    ability: dict[str, str]
    effects: tuple[Effect, ...]

    def stat(self, stat: Stat) -> int:
        return (self.spark, self.heat, self.charm)[stat]


@dataclass(frozen=True, slots=True)
class Support:
    number: int
    kind: SupportKind
    stat: Stat
    bonus: int
    name: dict[str, str]
    text: dict[str, str]
    effects: tuple[Effect, ...]
    equips_to: frozenset[int] = frozenset()
    printed_at_most: int | None = None
    printed_at_least: int | None = None


@dataclass(frozen=True)
class CardSet:
    id: str
    version: int
    name: dict[str, str]
    characters: tuple[Character, ...]  # index = number - 1
    supports: tuple[Support, ...]  # index = number - 1
    hash: str
    source: str
    # Integer-coded tables for the engine's hot paths, indexed by card number (slot 0 unused).
    printed: tuple[tuple[int, int, int], ...] = field(repr=False, default=())
    charm: tuple[int, ...] = field(repr=False, default=())
    support_kind: tuple[SupportKind, ...] = field(repr=False, default=())
    support_effects: tuple[tuple[tuple[int, int], ...], ...] = field(repr=False, default=())
    ability_effects: tuple[tuple[tuple[int, int], ...], ...] = field(repr=False, default=())

    def character(self, number: int) -> Character:
        return self.characters[number - 1]

    def support(self, number: int) -> Support:
        return self.supports[number - 1]


# ------------------------------------------------------------------ the declared shape (docs/formats.md)

EFFECT = Obj(
    required={"kind": Str(choices=tuple(k.key for k in EffectKind))},
    optional={"n": Int(1, 10, "draw, peek, boost and sap take n; the others take none")},
    description="a table effect (R10)",
)
CHARACTER = Obj(
    required={"number": Int(1, NUM_CHARACTERS), "name": Text(), "spark": Int(0, 999), "heat": Int(0, 999),
              "charm": Int(0, 999), "ability": Text()},
    optional={"effects": List(EFFECT, max=10)},
    description="a character card (R1)",
)
SUPPORT = Obj(
    required={"number": Int(1, NUM_SUPPORTS), "kind": Str(choices=tuple(k.key for k in SupportKind)),
              "stat": Str(choices=tuple(s.key for s in Stat)), "bonus": Int(-999, 999), "name": Text(),
              "text": Text()},
    optional={
        "effects": List(EFFECT, max=10),
        "equips_to": List(Int(1, NUM_CHARACTERS), max=NUM_CHARACTERS, unique=True,
                          description="the characters an item equips to; required for items, refused otherwise"),
        "condition": Obj(optional={"printed_at_most": Int(0, 999), "printed_at_least": Int(0, 999)},
                         description="an event's condition (R9): exactly one of the two"),
    },
    description="a support card (R1)",
)
CARD_SET = Obj(
    required={
        "set": Obj(required={"id": Str(max_len=100), "version": Int(0, 10**9), "name": Text()}),
        "character": List(CHARACTER, max=NUM_CHARACTERS, label="number",
                          description=f"the characters, numbers 1 to {NUM_CHARACTERS}, each once"),
        "support": List(SUPPORT, max=NUM_SUPPORTS, label="number",
                        description=f"the support cards, numbers 1 to {NUM_SUPPORTS}, each once"),
    },
    title="Flame Duel card set",
)
_TWICE_IN_A_DECK = N_("no card may appear twice within one deck: {value} is there twice")
DECK = Obj(
    required={
        "characters": List(Int(1, NUM_CHARACTERS), min=3, max=3, unique=True,  # R2
                           size_problem=N_("a deck has exactly {min} characters, got {count}"),
                           unique_problem=_TWICE_IN_A_DECK, description="exactly 3 characters, none twice (R2)"),
        "supports": List(Int(1, NUM_SUPPORTS), min=8, max=12, unique=True,  # R2
                         size_problem=N_("a deck has {min} to {max} support cards, got {count}"),
                         unique_problem=_TWICE_IN_A_DECK, description="8 to 12 support cards, none twice (R2)"),
    },
    title="Flame Duel deck",
)


def _effects(reader: Reader, fieldname: str) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for i, _ in enumerate(reader.items(fieldname, default=[])):
        sub = reader.sub(fieldname, i)
        sub.check_keys({"kind", "n"})
        kind_key = sub.string("kind", tuple(k.key for k in EffectKind))
        kind = EffectKind[kind_key.upper()]
        if kind in _NEEDS_N:
            n = sub.integer("n", 1, 10)
        else:
            if sub.has("n"):
                sub.fail("n", N_("the effect {effect!r} takes no n"), effect=kind_key)
            n = 0
        out.append(Effect(kind, n))
    return tuple(out)


def _character(source: str, index: int, data: Any) -> Character:
    r = Reader(source, f"character[{index}]", data)
    number = r.integer("number", 1, NUM_CHARACTERS)
    r = Reader(source, f"character {number}", data)
    r.check_keys({"number", "name", "spark", "heat", "charm", "ability", "effects"})
    return Character(
        number=number,
        name=r.text("name"),
        spark=r.integer("spark", 0, 999),
        heat=r.integer("heat", 0, 999),
        charm=r.integer("charm", 0, 999),
        ability=r.text("ability"),
        effects=_effects(r, "effects"),
    )


def _support(source: str, index: int, data: Any) -> Support:
    r = Reader(source, f"support[{index}]", data)
    number = r.integer("number", 1, NUM_SUPPORTS)
    r = Reader(source, f"support {number}", data)
    r.check_keys(
        {"number", "kind", "stat", "bonus", "name", "text", "effects", "equips_to", "condition"}
    )
    kind = SupportKind[r.string("kind", tuple(k.key for k in SupportKind)).upper()]
    stat = Stat.from_key(r.string("stat", tuple(s.key for s in Stat)))
    equips: frozenset[int] = frozenset()
    if kind is SupportKind.ITEM:
        values = r.items("equips_to")
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= NUM_CHARACTERS:
                r.fail("equips_to", N_("must list character numbers 1..{last}, got {value!r}"), last=NUM_CHARACTERS,
                       value=v)
        if len(set(values)) != len(values):
            r.fail("equips_to", N_("lists a character twice"))
        equips = frozenset(values)
    elif r.has("equips_to"):
        r.fail("equips_to", N_("only items equip to characters"))
    at_most = at_least = None
    if r.has("condition"):
        if kind is not SupportKind.EVENT:
            r.fail("condition", N_("only events have a condition"))  # R9
        cond = r.sub("condition")
        cond.check_keys({"printed_at_most", "printed_at_least"})
        if cond.has("printed_at_most") == cond.has("printed_at_least"):
            cond.fail(WHOLE_ENTRY, N_("needs exactly one of {fields}"), fields="printed_at_most, printed_at_least")
        if cond.has("printed_at_most"):
            at_most = cond.integer("printed_at_most", 0, 999)
        else:
            at_least = cond.integer("printed_at_least", 0, 999)
    return Support(
        number=number,
        kind=kind,
        stat=stat,
        bonus=r.integer("bonus", -999, 999),
        name=r.text("name"),
        text=r.text("text"),
        effects=_effects(r, "effects"),
        equips_to=equips,
        printed_at_most=at_most,
        printed_at_least=at_least,
    )


def _numbered(source: str, what: str, items: list[Any], expected: int) -> None:
    numbers = [item.number for item in items]
    for n in range(1, expected + 1):
        if numbers.count(n) > 1:
            raise DataError(source, f"{what} {n}", "number", N_("used by more than one card"))
        if n not in numbers:
            raise DataError(source, what, "number", N_("card number {n} is missing (need 1..{last})"), n=n,
                            last=expected)


def parse_card_set(data: Any, source: str) -> CardSet:
    """Validate parsed TOML content and build the card set. Raises :class:`DataError`."""
    validate(data, CARD_SET, source, FILE)
    root = Reader(source, FILE, data)
    root.check_keys({"set", "character", "support"})
    meta = root.sub("set")
    meta.entry = "set"
    meta.check_keys({"id", "version", "name"})
    chars = [_character(source, i, d) for i, d in enumerate(root.items("character"))]
    sups = [_support(source, i, d) for i, d in enumerate(root.items("support"))]
    _numbered(source, "character", chars, NUM_CHARACTERS)
    _numbered(source, "support", sups, NUM_SUPPORTS)  # numbers 1..N, each once: exactly N cards (R1)
    chars.sort(key=lambda c: c.number)
    sups.sort(key=lambda s: s.number)
    for what, items in (("character", chars), ("support", sups)):
        for lang in LANGUAGES:
            seen: dict[str, int] = {}
            for item in items:
                key = item.name[lang].casefold()
                if key in seen:
                    raise DataError(source, f"{what} {item.number}", f"name.{lang}",
                                    N_("the same name as {entry}"), entry=f"{what} {seen[key]}")
                seen[key] = item.number
    printed = ((0, 0, 0), *((c.spark, c.heat, c.charm) for c in chars))
    return CardSet(
        id=meta.string("id"),
        version=meta.integer("version", 0),
        name=meta.text("name"),
        characters=tuple(chars),
        supports=tuple(sups),
        hash=content_hash(data),
        source=source,
        printed=printed,
        charm=tuple(p[2] for p in printed),
        support_kind=(SupportKind.EVENT, *(x.kind for x in sups)),
        support_effects=((), *(tuple((int(e.kind), e.n) for e in x.effects) for x in sups)),
        ability_effects=((), *(tuple((int(e.kind), e.n) for e in c.effects) for c in chars)),
    )


def load_card_set(path: Path | str | None = None) -> CardSet:
    """The card set in ``path``, or the built-in one."""
    return load_data(path, BUILTIN_SET, parse_card_set, "flametable.games.duel")


@cache
def builtin_card_set() -> CardSet:
    return load_card_set()


@dataclass(frozen=True, slots=True)
class Deck:
    """An own deck (R2): exactly 3 characters and 8 to 12 support cards, none twice."""

    characters: tuple[int, ...]
    supports: tuple[int, ...]

    def to_json(self) -> dict[str, list[int]]:
        return {"characters": list(self.characters), "supports": list(self.supports)}


def parse_deck(data: Any, source: str) -> Deck:
    """Validate a deck's parsed content (R2: 3 characters, 8 to 12 supports, none twice). Raises DataError."""
    validate(data, DECK, source, "deck")
    return Deck(tuple(data["characters"]), tuple(data["supports"]))


def load_deck(path: Path | str) -> Deck:
    return parse_deck(load_toml(path), str(path))
