"""The one list of the games (core/registry.py): a piece is a "module:attribute" reference imported on first use;
the registry holds the entries given in code and the games found through entry points, flametable's own first by
title, then the plug-ins by name; a plug-in that cannot be loaded is listed and skipped, never breaking the others."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint, distributions
from pathlib import Path
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.registry import (
    GROUP,
    GameEntry,
    NoDataFile,
    PieceError,
    Registry,
    UnknownGame,
    builtins,
    resolve,
)
from flametable.texts.translator import Translator
from tests.cli.test_plugin import fake_installed

ES = Translator.for_language("es")
NIM_SRC = Path(__file__).resolve().parents[1] / "plugins" / "nim" / "src"
TINY = "tests.service.tiny:TinyGame"
HERE = "tests.core.test_registry"


def game_entry(name: str, title: str) -> GameEntry:
    return GameEntry(name=name, title=title, game=TINY)


# The games the fake distributions below declare: flametable's own two (names and titles in opposite orders) and
# two plug-ins of another distribution.
ALPHA = game_entry("alpha", "Zeta, last by title")
BRAVO = game_entry("bravo", "Alpha, first by title")
MIKE = game_entry("mike", "Mike")
ZULU = game_entry("zulu", "Zulu")


def entry_point(value: str, name: str = "plugin") -> EntryPoint:
    return EntryPoint(name=name, value=value, group=GROUP)


def installed(target: Path, distribution: str, lines: str) -> list[EntryPoint]:
    """The entry points of ``distribution``, installed (its metadata written) into its own folder of ``target``:
    each knows its distribution, as an installed plug-in's does."""
    folder = target / distribution
    folder.mkdir()
    fake_installed(folder, distribution, lines)
    [dist] = [d for d in distributions(path=[str(folder)]) if d.metadata["Name"] == distribution]
    return [ep for ep in dist.entry_points if ep.group == GROUP]


@pytest.fixture
def own(tmp_path: Path) -> list[EntryPoint]:
    """flametable's own distribution's entry points (two stand-in games)."""
    return installed(tmp_path, "flametable", f"alpha = {HERE}:ALPHA\nbravo = {HERE}:BRAVO")


@pytest.fixture
def extra(tmp_path: Path) -> list[EntryPoint]:
    """A plug-in distribution's entry points (two games)."""
    return installed(tmp_path, "flametable-extra", f"zulu = {HERE}:ZULU\nmike = {HERE}:MIKE")


@pytest.fixture
def nim_importable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Nim plug-in's package importable from its source (tests/plugins/nim), without installing it."""
    monkeypatch.syspath_prepend(str(NIM_SRC))
    yield
    sys.modules.pop("flametable_nim", None)


# --------------------------------------------------------------------------- resolve


def test_resolve_gives_the_attribute_of_the_module_a_reference_names() -> None:
    assert resolve("json:dumps") is json.dumps
    assert resolve("flametable.core.registry:GameEntry.piece") is GameEntry.piece  # a dotted attribute


@pytest.mark.parametrize("ref", ["json", "json:", ":dumps", ""])
def test_resolve_refuses_a_reference_that_is_not_module_colon_attribute(ref: str) -> None:
    with pytest.raises(PieceError, match=f"'package.module:attribute', got {ref!r}"):
        resolve(ref)


def test_resolve_lets_a_missing_module_or_attribute_say_so() -> None:
    with pytest.raises(ModuleNotFoundError, match="flametable_nowhere"):
        resolve("flametable_nowhere:Game")
    with pytest.raises(AttributeError, match="nowhere"):
        resolve("json:nowhere")


# --------------------------------------------------------------------------- GameEntry


def test_a_piece_is_imported_on_first_use_and_only_once(monkeypatch: pytest.MonkeyPatch) -> None:
    resolved: list[str] = []

    def counting(ref: str) -> Any:
        resolved.append(ref)
        return resolve(ref)

    monkeypatch.setattr(registry, "resolve", counting)
    entry = GameEntry(name="x", title="X", game=TINY, evaluate="json:dumps")
    assert resolved == []  # making the entry imports nothing
    assert entry.piece("evaluate") is json.dumps
    assert entry.piece("evaluate") is json.dumps
    assert resolved == ["json:dumps"]


def test_a_piece_given_as_an_object_is_that_object_and_a_missing_one_is_none() -> None:
    entry = GameEntry(name="x", title="X", game=TINY, evaluate=len)
    assert entry.piece("evaluate") is len
    assert entry.piece("table") is None


def test_a_piece_that_cannot_be_loaded_names_the_game_the_piece_and_its_reference() -> None:
    entry = GameEntry(name="x", title="X", game=TINY, table="flametable_nowhere:Table", narrator="json:nowhere")
    with pytest.raises(PieceError, match=r"game 'x': its piece 'table' \(flametable_nowhere:Table\) cannot be "
                                         r"loaded: No module named 'flametable_nowhere'"):
        entry.piece("table")
    with pytest.raises(PieceError, match=r"game 'x': its piece 'narrator' \(json:nowhere\) cannot be loaded"):
        entry.piece("narrator")


def test_has_says_whether_the_entry_gives_the_piece() -> None:
    entry = GameEntry(name="x", title="X", game=TINY, observation="tests.rl.stand_ins:TinySpec")
    assert entry.has("game")
    assert entry.has("observation")  # without importing it
    assert not entry.has("table")
    assert not entry.has("data")


def test_make_plays_the_built_in_data_or_what_the_data_piece_reads_from_the_file(tmp_path: Path) -> None:
    made: list[tuple[Any, ...]] = []

    def factory(*args: Any) -> str:
        made.append(args)
        return "the game"

    def read(path: Path) -> tuple[str, Path]:
        return "read", path

    entry = GameEntry(name="x", title="X", game=factory, data=read)
    assert entry.takes_data
    assert entry.make() == "the game"
    assert entry.make(tmp_path / "cards.toml") == "the game"
    assert made == [(), (("read", tmp_path / "cards.toml"),)]


def test_a_game_without_a_data_piece_refuses_a_data_file_in_the_players_language(tmp_path: Path) -> None:
    entry = GameEntry(name="nim", title="Nim", game=TINY)
    assert not entry.takes_data
    assert entry.make().name == "tiny"
    with pytest.raises(NoDataFile) as refused:
        entry.make(tmp_path / "cards.toml")
    assert isinstance(refused.value, FlametableError)
    assert str(refused.value) == "The game nim plays with no data file."
    assert ES.error(refused.value) == "El juego nim no usa archivos de datos."


def test_a_protocol_only_game_is_wrapped_with_no_optional_piece(nim_importable: None) -> None:
    games = Registry(builtins(), [entry_point("flametable_nim:NimGame", "nim")])
    entry = games.get("nim")
    assert games.names() == ["duel", "duals", "nim"]
    assert entry.origin == "nim = flametable_nim:NimGame"
    for piece in ("data", "bots", "determinizer", "collect", "summarize", "report", "play", "table", "narrator",
                  "cards"):
        assert entry.piece(piece) is None, piece
    assert entry.make().name == "nim"
    assert games.broken() == []


# --------------------------------------------------------------------------- Registry


def test_the_entries_given_in_code_are_found_by_name() -> None:
    games = Registry([MIKE, ZULU], plugins=[])
    assert games.names() == ["mike", "zulu"]
    assert games.entries() == [MIKE, ZULU]
    assert games.get("zulu") is ZULU
    assert games.find("zulu") is ZULU
    assert games.find("chess") is None
    assert games.broken() == []
    assert games.builtins() == []  # given in code: not flametable's own distribution's
    assert MIKE.origin == "built-in"


def test_an_unknown_game_is_refused_naming_the_known_ones_in_the_players_language() -> None:
    games = Registry([MIKE, ZULU], plugins=[])
    with pytest.raises(UnknownGame) as unknown:
        games.get("chess")
    assert str(unknown.value) == "Unknown game 'chess': choose one of mike, zulu."
    assert ES.error(unknown.value) == "Juego desconocido 'chess': elige uno de mike, zulu."


def test_flametables_own_games_come_first_by_title_then_the_plug_ins_by_name(own: list[EntryPoint],
                                                                               extra: list[EntryPoint]) -> None:
    games = Registry(plugins=[*extra, *own])  # found in any order
    assert games.names() == ["bravo", "alpha", "mike", "zulu"]
    assert [e.name for e in games.entries()] == ["bravo", "alpha", "mike", "zulu"]
    assert [e.name for e in games.builtins()] == ["bravo", "alpha"]
    assert games.get("zulu").origin == f"zulu = {HERE}:ZULU"
    assert games.get("alpha").title == ALPHA.title
    assert ALPHA.origin == "built-in"  # the module's entry is left as it is: the registry's is a copy
    assert games.broken() == []


def test_the_installed_builtin_games_are_flametables_own_by_title() -> None:
    assert [e.name for e in builtins()] == ["duel", "duals"]  # "Flame Duel" before "Flamecraft Duals"
    assert registry.names()[:2] == ["duel", "duals"]
    assert all(e.origin == f"{e.name} = flametable.games.{e.name}.entry:ENTRY" for e in builtins())


def test_a_broken_plugin_is_listed_and_the_others_stay() -> None:
    games = Registry(builtins(), [entry_point("flametable_broken_nowhere:Game", "gone"),
                                entry_point("json:dumps", "not_a_game"),
                                entry_point("flametable.games.duel.game:DuelGame", "again")])
    assert games.names() == ["duel", "duals"]
    problems = {b.entry_point: b.error for b in games.broken()}
    assert "ModuleNotFoundError" in problems["gone = flametable_broken_nowhere:Game"]
    assert "neither a GameEntry nor a game" in problems["not_a_game = json:dumps"]
    assert "already taken" in problems["again = flametable.games.duel.game:DuelGame"]


def test_a_broken_plug_in_names_its_distribution_and_why(tmp_path: Path, extra: list[EntryPoint]) -> None:
    broken = installed(tmp_path, "flametable-broken", "broken = flametable_broken_nowhere:Game")
    games = Registry(plugins=[*broken, *extra])
    assert games.names() == ["mike", "zulu"]
    [problem] = games.broken()
    assert problem.name == "broken"
    assert problem.entry_point == "broken = flametable_broken_nowhere:Game"
    assert problem.distribution == "flametable-broken"
    assert problem.error == "ModuleNotFoundError: No module named 'flametable_broken_nowhere'"


def test_a_name_taken_twice_keeps_the_first_and_lists_the_second_as_broken(extra: list[EntryPoint]) -> None:
    games = Registry([MIKE], [*extra, entry_point(f"{HERE}:ZULU", "zulu_again")])
    assert games.names() == ["mike", "zulu"]
    assert games.get("mike") is MIKE  # the entry given in code, not the plug-in's
    assert games.get("zulu").origin == f"zulu = {HERE}:ZULU"  # "zulu" comes before "zulu_again"
    problems = {b.entry_point: b.error for b in games.broken()}
    assert problems == {
        f"mike = {HERE}:MIKE": "the name 'mike' is already taken by built-in",
        f"zulu_again = {HERE}:ZULU": f"the name 'zulu' is already taken by zulu = {HERE}:ZULU",
    }


def test_skip_takes_a_plug_in_out_as_broken(extra: list[EntryPoint]) -> None:
    games = Registry([ALPHA], extra)
    assert games.names() == ["alpha", "mike", "zulu"]  # skip() takes out a game the registry has found
    games.skip("zulu", PieceError("its table cannot be loaded"))
    assert games.names() == ["alpha", "mike"]
    assert games.find("zulu") is None
    [problem] = games.broken()
    assert (problem.name, problem.entry_point, problem.distribution) == ("zulu", f"zulu = {HERE}:ZULU",
                                                                         "flametable-extra")
    assert problem.error == "PieceError: its table cannot be loaded"


@pytest.mark.parametrize("name", ["alpha", "chess"])
def test_only_a_game_found_through_an_entry_point_can_be_skipped(name: str, extra: list[EntryPoint]) -> None:
    games = Registry([ALPHA], extra)
    games.names()
    with pytest.raises(ValueError, match=f"only a game found through an entry point can be skipped, not {name!r}"):
        games.skip(name, PieceError("x"))
    assert games.names() == ["alpha", "mike", "zulu"]


def test_the_module_functions_read_the_installations_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = GameEntry(name="mike", title="Mike", game=lambda: "mike's game")
    monkeypatch.setattr(registry, "GAMES", Registry([entry, ZULU], plugins=[]))
    assert registry.names() == ["mike", "zulu"]
    assert registry.entries() == [entry, ZULU]
    assert registry.get("mike") is entry
    assert registry.find("chess") is None
    assert registry.broken() == []
    assert registry.builtins() == []
    assert registry.make_game("mike") == "mike's game"
    with pytest.raises(UnknownGame, match="choose one of mike, zulu"):
        registry.get("chess")


def test_skip_finds_the_plug_ins_first_when_nothing_has_asked_for_them_yet(extra: list[EntryPoint]) -> None:
    games = Registry([ALPHA], extra)
    games.skip("zulu", PieceError("its table cannot be loaded"))  # the first call on this registry
    assert games.names() == ["alpha", "mike"]
    assert [problem.name for problem in games.broken()] == ["zulu"]
