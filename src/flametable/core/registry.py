"""The one list of the games: every command and front end finds a game here, by its name.

Each game has one :class:`GameEntry`: its name, its title (marked for translation), and *lazy references*
to each of its pieces, from every layer: how to make the game and read its data files, what the bots know
of it, what the lab keeps of each match and the report's sections, its texts (the match log), its terminal table
and its play command. A reference is a ``"module:attribute"`` string, imported on first use, or the object itself.
So this module, at the bottom of the layers, imports nothing above it: a piece is loaded only when a
command needs it.

This module knows no game by name. Every game is a *plug-in*, the built-in ones too (each in its folder under
:mod:`flametable.games`): an installed distribution declares an entry point in the group ``flametable.games``
naming either a full
:class:`GameEntry` or just an object implementing the core :class:`~flametable.core.protocol.Game` protocol
(or a class of such objects, made with no argument), which is wrapped in an entry with no optional piece.
Every piece is optional but ``game``; what a missing piece means is said where it is declared below.
A plug-in that cannot be loaded is skipped and listed by :func:`broken` (the interfaces report it),
so a broken plug-in never breaks the other games. See ``docs/adding-a-game.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, Literal, overload

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.core.protocol import complete

if TYPE_CHECKING:  # the shapes of the pieces, from the layers above (never imported at run time)
    from pathlib import Path

    from flametable.bots.ismcts import Determinizer
    from flametable.bots.registry import Knowledge
    from flametable.cli.table import Table, TableNarrator
    from flametable.core.protocol import Action, Game, GameState
    from flametable.core.schema import Schema
    from flametable.rl.spec import ObservationSpec
    from flametable.sim.charts import Translate
    from flametable.sim.summaries import Collector
    from flametable.texts.log import MatchLog
    from flametable.texts.translator import Translator

GROUP = "flametable.games"
"""The entry-point group that plug-in games declare."""

Ref = str | Callable[..., Any] | type | None
"""A piece of a game: ``"package.module:attribute"`` (imported on first use), the object itself, or ``None``."""

PROTOCOL = ("name", "rules_version", "num_actions", "new_match", "action_from_text", "action_from_id", "content_id")
"""What an object needs to be taken for a game (the core protocol's attributes)."""


class UnknownGame(FlametableError):
    """A game name that no entry has. ``reason`` is a message template (marked for translation), ``params``
    fill it: the name asked for and the known ones."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__(N_("Unknown game {game!r}: choose one of {games}."), game=name, games=", ".join(known))


class PieceError(FlametableError):
    """A piece of a game that cannot be loaded (a reference to a module or attribute that is not there)."""


def resolve(ref: str) -> Any:
    """The object a ``"package.module:attribute"`` reference names (attribute may be dotted)."""
    module_name, sep, attribute = ref.partition(":")
    if not sep or not module_name or not attribute:
        raise PieceError(f"a piece is referred to as 'package.module:attribute', got {ref!r}")
    obj: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj


OPTION_KINDS = ("choice", "bool", "int")
"""The kinds of a declared option: one of its ``choices``, true or false, a whole number."""


@dataclass(frozen=True)
class Option:
    """One option a game takes when a match is made (``new_match``'s options), as a form asks for it: the lobby
    builds its form from these. The game still checks the options it is given (``new_match`` raises)."""

    name: str
    """The option's key in the options mapping."""
    kind: str
    """``choice``, ``bool`` or ``int`` (:data:`OPTION_KINDS`)."""
    label: str
    """Its name for players, in English, marked with ``N_``."""
    default: Any = None
    """The value the form starts with (None: the first choice, false, or ``minimum``)."""
    choices: tuple[tuple[str, str], ...] = ()
    """A ``choice`` option's values, each with its label (in English, marked with ``N_``)."""
    minimum: int | None = None
    """An ``int`` option's smallest value (None: no bound)."""
    maximum: int | None = None
    """An ``int`` option's largest value (None: no bound)."""

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise PieceError(f"option {self.name!r}: its kind is one of {', '.join(OPTION_KINDS)}, not {self.kind!r}")
        if (self.kind == "choice") != bool(self.choices):
            raise PieceError(f"option {self.name!r}: a choice option, and only one, lists its choices")


@dataclass(frozen=True)
class ClientPage:
    """A page of a game's own in the browser (a deck builder), at ``/games/NAME/PAGE``."""

    name: str
    """The page's path segment (letters, digits, ``-``)."""
    module: str
    """The module (a file of the client's ``static`` folder) whose ``mount(root)`` draws the page."""
    title: str
    """The page's link in the menu, in English, marked with ``N_``."""


@dataclass(frozen=True)
class Client:
    """A game's piece of the browser client: files of the ``static`` folder of its Python package ``package``,
    served at ``/games/NAME/static/FILE``. A game without one gets the plain table (its view's fields and its legal
    actions in notation)."""

    package: str
    """The Python package whose ``static`` folder holds the files (the game's own package)."""
    module: str = "table.js"
    """The table's ES module: it exports ``render(root, ctx)``, and may export ``facts()``, ``optionFields()`` and
    ``readOptions(form, options, seat)`` (the lobby's extra fields, such as the choice of an own deck)."""
    styles: tuple[str, ...] = ()
    """Its style sheets, added to the page when the game's table (or page) is shown."""
    pages: tuple[ClientPage, ...] = ()
    """Its own pages (a deck builder), each linked from the page's menu."""


@dataclass(frozen=True, eq=False)
class GameEntry:
    """One game and where each of its pieces lives. Only ``name``, ``title`` and ``game`` are required."""

    name: str
    """What commands call the game (``flametable play NAME``), also the ``name`` of its Game and records."""
    title: str
    """Its name for players, in English, marked with ``N_`` (translated where it is shown)."""
    game: Ref
    """The game's factory: called with no argument for the built-in data, or with what ``data`` loaded.
    A plug-in's protocol-only game object is wrapped in a factory that returns it."""
    native: Ref = None
    """``() -> factory | None``: the game's native engine (a factory taking what ``game`` takes), or None where
    its extension is not built here; :meth:`make` takes it unless ``FLAMETABLE_ENGINE=python`` (``native``
    requires it). None: the game has only its Python engine."""
    data: Ref = None
    """``(path) -> data`` for ``game``, raising DataError. None: the game plays with no data file."""
    check: Ref = None
    """``(path) -> str``: a one-line summary of a data file for ``cards check`` (raises DataError)."""
    claims: Ref = None
    """``(parsed TOML mapping) -> bool``: whether a data file looks like this game's (``cards check``)."""
    bots: Ref = None
    """``(game) -> flametable.bots.registry.Knowledge``: the determiniser, evaluation, ISMCTS tuning and the
    bot behind bot:hard. None: built from ``determinizer`` and ``evaluate``."""
    determinizer: Ref = None
    """``(game) -> (view -> (rng -> state))``: samples the hidden information; it lets the search bots play.
    None (and no ``bots``): only bot:random plays the game."""
    evaluate: Ref = None
    """``(state, seat) -> float``: greedy's judgement of a state (None: only the outcome counts)."""
    collect: Ref = None
    """Lab: ``(state, seat, action) -> info`` after each step, kept in the match's trace (None: nothing)."""
    summarize: Ref = None
    """Lab: ``(state, trace) -> dict``, the result line's ``summary`` (None: an empty summary)."""
    summary_schema: Ref = None
    """Lab: the declared shape of ``summary`` (:mod:`flametable.core.schema`; None: any object)."""
    report: Ref = None
    """Report: ``(lines, game, tr, lang) -> (html sections, figures)`` after the generic overview (None: none).
    ``lines`` is a list of the result lines, or, for a function marked ``flametable.sim.charts.reads_once``, an
    iterable of them read once as the file streams (a long file is never held whole)."""
    play: Ref = None
    """The Typer command function of ``play NAME`` (None: the generic one, plain notation)."""
    table: Ref = None
    """The terminal table class (``flametable.cli.table.Table``): made from (console, game, seats)."""
    narrator: Ref = None
    """The narrator class (``flametable.cli.table.TableNarrator``): made from (table, observer, first view)."""
    log: Ref = None
    """``(game) -> flametable.texts.log.MatchLog``: the match log, what each audience is told of each step in its
    language as plain lines (the game server's log). None: the generic log (each action's notation, a move the
    audience may not know, the result)."""
    observation: Ref = None
    """``(game) -> flametable.rl.spec.ObservationSpec``: how a seat's view becomes a fixed-shape numeric array, with
    the shape, the number of players and the longest possible match (the learning environments). None: the game
    has no learning environment."""
    facts: Ref = None
    """``(game, translator) -> dict``: what a browser needs to draw the game's pieces in a language (card and token
    names, stats, kinds, patterns), as JSON data (``GET /api/games/NAME/facts``). None: the browser shows plain
    notation."""
    cards: Ref = None
    """``(file, as_json) -> None``: shows the game's data for ``cards NAME`` (None: no such command)."""
    schemas: Ref = None
    """``() -> {name: (declaration, title, description)}``: the JSON Schema documents of the game's files and views
    (:mod:`flametable.core.schema` declarations), written to ``docs/schemas/NAME.schema.json`` (None: none)."""
    environments: Mapping[str, str] = field(default_factory=dict)
    """The learning environments registered when :mod:`flametable.rl` is imported: ``"pettingzoo:ID"`` or
    ``"gymnasium:ID"`` to the ``"module:attribute"`` that makes it (None of them: the game is still playable
    through ``flametable.rl.aec.env(NAME)`` when it has an ``observation`` piece)."""
    help: Mapping[str, str] = field(default_factory=dict)
    """Help texts of the game's commands (``play``, ``cards``, ``bench``), in English, marked with ``N_``."""
    client: Client | None = None
    """The game's piece of the browser client (:class:`Client`): its table module, styles and pages. None: the
    plain table."""
    options: tuple[Option, ...] = ()
    """The options the game takes, as the lobby's form asks for them (:class:`Option`). None declared: the lobby
    asks for none."""
    origin: str = "built-in"
    """Where the entry comes from: the entry point that declared it (``name = module:attribute``), or ``built-in``
    for an entry made in code (a test's)."""
    _loaded: dict[str, Any] = field(default_factory=dict, repr=False)

    @overload
    def piece(self, name: Literal["game"]) -> Callable[..., Game[Any, Any]]: ...
    @overload
    def piece(self, name: Literal["native"]) -> Callable[[], Callable[..., Game[Any, Any]] | None] | None: ...
    @overload
    def piece(self, name: Literal["data"]) -> Callable[[Path], Any] | None: ...
    @overload
    def piece(self, name: Literal["check"]) -> Callable[[Path], str] | None: ...
    @overload
    def piece(self, name: Literal["claims"]) -> Callable[[Mapping[str, Any]], bool] | None: ...
    @overload
    def piece(self, name: Literal["bots"]) -> Callable[[Any], Knowledge] | None: ...
    @overload
    def piece(self, name: Literal["determinizer"]) -> Callable[[Any], Determinizer] | None: ...
    @overload
    def piece(self, name: Literal["evaluate"]) -> Callable[[GameState[Any, Any], int], float] | None: ...
    @overload
    def piece(self, name: Literal["collect"]) -> Collector | None: ...
    @overload
    def piece(
        self, name: Literal["summarize"]
    ) -> Callable[[GameState[Any, Any], list[tuple[int, Action, Any]]], dict[str, Any]] | None: ...
    @overload
    def piece(self, name: Literal["summary_schema"]) -> Schema | None: ...
    @overload
    def piece(
        self, name: Literal["report"]
    ) -> Callable[[Iterable[dict[str, Any]], Any, Translate, str], tuple[list[str], dict[str, Any]]] | None: ...
    @overload
    def piece(self, name: Literal["play"]) -> Callable[..., None] | None: ...
    @overload
    def piece(self, name: Literal["table"]) -> Callable[..., Table[Any, Any]] | None: ...
    @overload
    def piece(self, name: Literal["narrator"]) -> type[TableNarrator[Any, Any, Any]] | None: ...
    @overload
    def piece(self, name: Literal["log"]) -> Callable[[Any], MatchLog] | None: ...
    @overload
    def piece(self, name: Literal["observation"]) -> Callable[[Any], ObservationSpec] | None: ...
    @overload
    def piece(self, name: Literal["facts"]) -> Callable[[Any, Translator], dict[str, Any]] | None: ...
    @overload
    def piece(self, name: Literal["cards"]) -> Callable[[Path | None, bool], None] | None: ...
    @overload
    def piece(self, name: Literal["schemas"]) -> Callable[[], dict[str, tuple[Schema, str, str]]] | None: ...
    @overload
    def piece(self, name: str) -> object: ...
    def piece(self, name: str) -> object:
        """The piece ``name`` (a field above), imported on first use; ``None`` when the game has none.

        Each piece's shape (its field's docstring) is its overload's return type, so the type checker follows a
        piece past the registry; a name that is no literal (a loop over the fields) gets an ``object``."""
        if name in self._loaded:
            return self._loaded[name]
        ref = getattr(self, name)
        if isinstance(ref, str):
            try:
                ref = resolve(ref)
            except (ImportError, AttributeError) as exc:
                raise PieceError(f"game {self.name!r}: its piece {name!r} ({getattr(self, name)}) cannot be "
                                 f"loaded: {exc}") from exc
        self._loaded[name] = ref
        return ref

    @overload
    def required(self, name: Literal["game"]) -> Callable[..., Game[Any, Any]]: ...
    @overload
    def required(self, name: Literal["native"]) -> Callable[[], Callable[..., Game[Any, Any]] | None]: ...
    @overload
    def required(self, name: Literal["data"]) -> Callable[[Path], Any]: ...
    @overload
    def required(self, name: Literal["check"]) -> Callable[[Path], str]: ...
    @overload
    def required(self, name: Literal["claims"]) -> Callable[[Mapping[str, Any]], bool]: ...
    @overload
    def required(self, name: Literal["bots"]) -> Callable[[Any], Knowledge]: ...
    @overload
    def required(self, name: Literal["determinizer"]) -> Callable[[Any], Determinizer]: ...
    @overload
    def required(self, name: Literal["evaluate"]) -> Callable[[GameState[Any, Any], int], float]: ...
    @overload
    def required(self, name: Literal["collect"]) -> Collector: ...
    @overload
    def required(
        self, name: Literal["summarize"]
    ) -> Callable[[GameState[Any, Any], list[tuple[int, Action, Any]]], dict[str, Any]]: ...
    @overload
    def required(self, name: Literal["summary_schema"]) -> Schema: ...
    @overload
    def required(
        self, name: Literal["report"]
    ) -> Callable[[Iterable[dict[str, Any]], Any, Translate, str], tuple[list[str], dict[str, Any]]]: ...
    @overload
    def required(self, name: Literal["play"]) -> Callable[..., None]: ...
    @overload
    def required(self, name: Literal["table"]) -> Callable[..., Table[Any, Any]]: ...
    @overload
    def required(self, name: Literal["narrator"]) -> type[TableNarrator[Any, Any, Any]]: ...
    @overload
    def required(self, name: Literal["log"]) -> Callable[[Any], MatchLog]: ...
    @overload
    def required(self, name: Literal["observation"]) -> Callable[[Any], ObservationSpec]: ...
    @overload
    def required(self, name: Literal["facts"]) -> Callable[[Any, Translator], dict[str, Any]]: ...
    @overload
    def required(self, name: Literal["cards"]) -> Callable[[Path | None, bool], None]: ...
    @overload
    def required(self, name: Literal["schemas"]) -> Callable[[], dict[str, tuple[Schema, str, str]]]: ...
    def required(self, name: str) -> object:
        """The piece ``name``, which the caller knows the game has (it checked :meth:`has`, or it is the game's own
        entry); raises :class:`PieceError` naming the game and the piece when it has none."""
        made = self.piece(name)
        if made is None:
            raise PieceError("game {game!r} has no piece {piece!r}", game=self.name, piece=name)
        return made

    def has(self, name: str) -> bool:
        return getattr(self, name) is not None

    @property
    def takes_data(self) -> bool:
        return self.data is not None

    def engine(self) -> str:
        """Which engine :meth:`make` gives: ``"native"`` where the game has a native engine built here and
        ``FLAMETABLE_ENGINE`` is not ``python`` (the ``native`` piece decides, raising :class:`EngineError` for
        ``FLAMETABLE_ENGINE=native`` without one), ``"python"`` otherwise."""
        native = self.piece("native")
        return "native" if native is not None and native() is not None else "python"

    def make(self, data: Any = None) -> Any:
        """The game playing with the data file ``data`` (a path; None: its built-in data); raises DataError.

        A game that takes no data file refuses one with :class:`NoDataFile`; the engine is :meth:`engine`'s."""
        native = self.piece("native")
        factory = (native() if native is not None else None) or self.piece("game")
        if data is None:
            return factory()
        if not self.takes_data:
            raise NoDataFile(self.name)
        return factory(self.required("data")(data))


class EngineError(FlametableError):
    """``FLAMETABLE_ENGINE`` asks for an engine this installation does not have (or is not an engine's name)."""


ENGINE_VARIABLE = "FLAMETABLE_ENGINE"
"""The environment variable choosing the engines: ``python``, ``native`` (where built: the default); a game's
``native`` piece reads it (this module reads no environment)."""


def native_wanted(game: str, choice: str, built: Callable[[], bool]) -> bool:
    """Whether a game's ``native`` piece gives its native engine, by ``choice`` (the value of
    :data:`ENGINE_VARIABLE`, which the piece reads): where it is ``built()`` unless ``python``; :class:`EngineError`
    for ``native`` where it is not built, or for another value. ``built`` is not asked for ``python``."""
    if choice not in ("", "python", "native"):
        raise EngineError(N_("{variable} must be python or native, got {value!r}"), variable=ENGINE_VARIABLE,
                          value=choice)
    if choice == "python":
        return False
    if not built():
        if choice == "native":
            raise EngineError(N_("{variable}=native: the game {game} has no native engine built here (pip install "
                                 "./native)"), variable=ENGINE_VARIABLE, game=game)
        return False
    return True


class NoDataFile(FlametableError):
    """A data file given to a game that plays with none."""

    def __init__(self, name: str) -> None:
        super().__init__(N_("The game {game} plays with no data file."), game=name)


@dataclass(frozen=True)
class BrokenPlugin:
    """A plug-in that could not be loaded: its entry point and why."""

    name: str
    """The entry point's name (the game's name, by convention)."""
    entry_point: str
    """``name = value`` as the distribution declares it."""
    distribution: str
    error: str


def is_game(obj: object) -> bool:
    """Whether ``obj`` has what the core Game protocol asks of a game."""
    return all(hasattr(obj, attr) for attr in PROTOCOL) and isinstance(getattr(obj, "name", None), str)


def wrap(game: Any, origin: str = "built-in") -> GameEntry:
    """The entry of a game that implements only the core protocol: every optional piece left out, the game given
    the default optional methods it lacks (:func:`flametable.core.protocol.complete`)."""

    completed = complete(game)

    def factory() -> Any:
        return completed

    title = getattr(game, "title", None)
    return GameEntry(name=game.name, title=title if isinstance(title, str) else game.name, game=factory,
                     origin=origin)


def _entry_of(obj: Any, origin: str) -> GameEntry:
    if isinstance(obj, GameEntry):
        return obj if obj.origin != "built-in" else _with_origin(obj, origin)
    if isinstance(obj, type):
        obj = obj()
    if not is_game(obj):
        missing = [attr for attr in PROTOCOL if not hasattr(obj, attr)]
        raise PieceError(f"{type(obj).__name__} is neither a GameEntry nor a game of the core protocol "
                         f"(missing: {', '.join(missing) or 'a str name'})")
    return wrap(obj, origin)


def _with_origin(entry: GameEntry, origin: str) -> GameEntry:
    fields = {name: getattr(entry, name) for name in entry.__dataclass_fields__ if name != "_loaded"}
    return GameEntry(**{**fields, "origin": origin})


class Registry:
    """The games by name: ``entries`` given in code (a test's), and the games found through their entry points
    (``plugins``; None: the installed ones); flametable's own games first, by title, then the others by name."""

    def __init__(self, entries: Iterable[GameEntry] = (), plugins: Iterable[EntryPoint] | None = None) -> None:
        self._games: dict[str, GameEntry] = {}
        for entry in entries:
            self._games[entry.name] = entry
        self._plugins = list(plugins) if plugins is not None else None
        self._loaded = False
        self._broken: list[BrokenPlugin] = []
        self._distributions: dict[str, str] = {}  # a plug-in game's name: the distribution that brought it

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        found = self._plugins if self._plugins is not None else entry_points(group=GROUP)
        for ep in sorted(found, key=_plugin_order):
            origin = f"{ep.name} = {ep.value}"
            dist = ep.dist.name if ep.dist is not None else "?"
            try:
                entry = _entry_of(ep.load(), origin)
            except Exception as exc:  # a broken plug-in is skipped, whatever went wrong in it
                self._broken.append(BrokenPlugin(ep.name, origin, dist, f"{type(exc).__name__}: {exc}"))
                continue
            if entry.name in self._games:
                self._broken.append(BrokenPlugin(ep.name, origin, dist, f"the name {entry.name!r} is already taken "
                                                                         f"by {self._games[entry.name].origin}"))
                continue
            self._games[entry.name] = entry
            self._distributions[entry.name] = dist
        # flametable's own games first, by their titles
        own = sorted((e for e in self._games.values() if self._distributions.get(e.name) == DISTRIBUTION),
                     key=lambda e: e.title)
        self._games = {e.name: e for e in [*own, *self._games.values()]}

    def names(self) -> list[str]:
        """Every game's name: the built-in games first, then the plug-ins by name."""
        self._load()
        return list(self._games)

    def entries(self) -> list[GameEntry]:
        self._load()
        return list(self._games.values())

    def find(self, name: str) -> GameEntry | None:
        self._load()
        return self._games.get(name)

    def get(self, name: str) -> GameEntry:
        """The entry of ``name``; raises :class:`UnknownGame` listing the known games."""
        entry = self.find(name)
        if entry is None:
            raise UnknownGame(name, self._games)
        return entry

    def skip(self, name: str, error: Exception) -> None:
        """Take the plug-in game ``name`` out, as broken: one of its pieces turned out not to load."""
        self._load()
        entry = self._games.get(name)
        if entry is None or name not in self._distributions:
            raise ValueError(f"only a game found through an entry point can be skipped, not {name!r}")
        del self._games[name]
        self._broken.append(BrokenPlugin(name, entry.origin, self._distributions.get(name, "?"),
                                         f"{type(error).__name__}: {error}"))

    def broken(self) -> list[BrokenPlugin]:
        """The plug-ins that were skipped, and why."""
        self._load()
        return list(self._broken)

    def builtins(self) -> list[GameEntry]:
        """The games that flametable's own distribution registers (its built-in games), by title."""
        self._load()
        return [entry for name, entry in self._games.items() if self._distributions.get(name) == DISTRIBUTION]


DISTRIBUTION = "flametable"
"""The distribution whose entry points are the built-in games."""


def _plugin_order(ep: EntryPoint) -> tuple[bool, str, str]:
    """Flametable's own games first, then the others, each by name."""
    return (ep.dist is None or ep.dist.name != DISTRIBUTION, ep.name, ep.value)


GAMES = Registry()
"""Every game of this installation, each found through its ``flametable.games`` entry point on first use: the
built-in games (flametable's own entry points) first, then the plug-ins."""


def get(name: str) -> GameEntry:
    """The entry of the game ``name``; raises :class:`UnknownGame` listing the known games."""
    return GAMES.get(name)


def find(name: str) -> GameEntry | None:
    return GAMES.find(name)


def names() -> list[str]:
    return GAMES.names()


def entries() -> list[GameEntry]:
    return GAMES.entries()


def broken() -> list[BrokenPlugin]:
    return GAMES.broken()


def builtins() -> list[GameEntry]:
    """The built-in games' entries (those of flametable's own entry points)."""
    return GAMES.builtins()


def make_game(name: str, data: Any = None) -> Any:
    """The game ``name`` playing with the data file ``data`` (None: its built-in data)."""
    return get(name).make(data)
