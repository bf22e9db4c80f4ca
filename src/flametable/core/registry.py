"""The one list of the games: every command and front end finds a game here, by its name.

Each game has one :class:`GameEntry`: its name, its title (marked for translation), and *lazy references*
to each of its pieces, from every layer: how to make the game and read its data files, what the bots know
of it, what the lab keeps of each match and the report's sections, its texts (the match log), its terminal table
and its play command. A reference is a ``"module:attribute"`` string, imported on first use, or the object itself.
So this module, at the bottom of the layers, imports nothing above it: a piece is loaded only when a
command needs it.

The built-in games are declared at the end of this module and nowhere else. Other games are *plug-ins*: an
installed distribution that declares an entry point in the group ``flametable.games`` naming either a full
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
from typing import Any

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_

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
    """Report: ``(lines, game, tr, lang) -> (html sections, figures)`` after the generic overview (None: none)."""
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
    help: Mapping[str, str] = field(default_factory=dict)
    """Help texts of the game's commands (``play``, ``cards``, ``bench``), in English, marked with ``N_``."""
    origin: str = "built-in"
    """Where the entry comes from: ``built-in``, or the entry point that declared it."""
    _loaded: dict[str, Any] = field(default_factory=dict, repr=False)

    def piece(self, name: str) -> Any:
        """The piece ``name`` (a field above), imported on first use; ``None`` when the game has none."""
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

    def has(self, name: str) -> bool:
        return getattr(self, name) is not None

    @property
    def takes_data(self) -> bool:
        return self.data is not None

    def make(self, data: Any = None) -> Any:
        """The game playing with the data file ``data`` (a path; None: its built-in data); raises DataError.

        A game that takes no data file refuses one with :class:`NoDataFile`."""
        factory = self.piece("game")
        if data is None:
            return factory()
        if not self.takes_data:
            raise NoDataFile(self.name)
        return factory(self.piece("data")(data))


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
    """The entry of a game that implements only the core protocol: every optional piece left out."""

    def factory() -> Any:
        return game

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
    """The games by name: the built-in ones, then the plug-ins found through their entry points."""

    def __init__(self, builtins: Iterable[GameEntry], plugins: Iterable[EntryPoint] | None = None) -> None:
        self._games: dict[str, GameEntry] = {}
        for entry in builtins:
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
        for ep in sorted(found, key=lambda e: (e.name, e.value)):
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
        entry = self._games.get(name)
        if entry is None or entry.origin == "built-in":
            raise ValueError(f"only a plug-in game can be skipped, not {name!r}")
        del self._games[name]
        self._broken.append(BrokenPlugin(name, entry.origin, self._distributions.get(name, "?"),
                                         f"{type(error).__name__}: {error}"))

    def broken(self) -> list[BrokenPlugin]:
        """The plug-ins that were skipped, and why."""
        self._load()
        return list(self._broken)


# --------------------------------------------------------------------------- the built-in games


def claims_duel(data: Mapping[str, Any]) -> bool:
    """A Flame Duel card set has characters or support cards; a Flame Duel deck lists them."""
    return any(key in data for key in ("character", "support", "characters", "supports"))


def claims_duals(data: Mapping[str, Any]) -> bool:
    """Flamecraft Duals data has a board, tokens or shop cards."""
    return "board" in data or "tokens" in data or "card" in data


BUILTINS = (
    GameEntry(
        name="duel",
        title=N_("Flame Duel"),
        game="flametable.duel.game:DuelGame",
        data="flametable.duel.cards:load_card_set",
        check="flametable.cli.games:check_duel",
        claims=claims_duel,
        bots="flametable.bots.registry:duel_knowledge",
        collect="flametable.sim.duel_summary:collect",
        summarize="flametable.sim.duel_summary:summarize",
        summary_schema="flametable.sim.duel_summary:SUMMARY",
        report="flametable.sim.duel_summary:report_sections",
        play="flametable.cli.play:play_command",
        table="flametable.cli.duel_tui:DuelTable",
        narrator="flametable.cli.duel_tui:Narrator",
        log="flametable.texts.duel:DuelLog",
        observation="flametable.rl.duel_obs:DuelObservation",
        facts="flametable.texts.duel:facts",
        cards="flametable.cli.cards:show_duel",
        help={"play": N_("Play Flame Duel: humans at this terminal (hot-seat for two) or bots."),
              "cards": N_("Show the Flame Duel cards."),
              "bench": N_("Random Flame Duel playouts on one core: steps and matches per second.")},
    ),
    GameEntry(
        name="duals",
        title=N_("Flamecraft Duals"),
        game="flametable.duals.game:DualsGame",
        data="flametable.duals.data:load_duals_data",
        check="flametable.cli.games:check_duals",
        claims=claims_duals,
        bots="flametable.bots.registry:duals_knowledge",
        collect="flametable.sim.duals_summary:collect",
        summarize="flametable.sim.duals_summary:summarize",
        summary_schema="flametable.sim.duals_summary:SUMMARY",
        report="flametable.sim.duals_summary:report_sections",
        play="flametable.cli.duals_play:play_command",
        table="flametable.cli.duals_tui:DualsTable",
        narrator="flametable.cli.duals_tui:DualsNarrator",
        log="flametable.texts.duals:DualsLog",
        observation="flametable.rl.duals_obs:DualsObservation",
        facts="flametable.texts.duals:facts",
        cards="flametable.cli.duals_cards:show_duals",
        help={"play": N_("Play Flamecraft Duals: humans at this terminal (hot-seat for two) or bots."),
              "cards": N_("Show the Flamecraft Duals shop deck, tokens and board."),
              "bench": N_("Random Flamecraft Duals playouts on one core: steps and matches per second.")},
    ),
)

GAMES = Registry(BUILTINS)
"""Every game of this installation: the built-in ones and the installed plug-ins (found on first use)."""


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


def make_game(name: str, data: Any = None) -> Any:
    """The game ``name`` playing with the data file ``data`` (None: its built-in data)."""
    return get(name).make(data)
