"""Plug-in games: a package installed on its own that declares an entry point in ``flametable.games`` appears in
every command. The test game is Nim (``tests/plugins/nim``), which implements only the core protocol: it gets
the random bot, records with ``replay --verify``, ``sim``, ``report``'s generic sections, ``bench`` and terminal
play in plain notation, without a line of flametable changed for it (docs/adding-a-game.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint, distributions
from pathlib import Path
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.registry import GROUP, GameEntry, Registry, UnknownGame, builtins

NIM_SOURCE = Path(__file__).resolve().parents[1] / "plugins" / "nim"
BOTS = ["--p1", "bot:random", "--p2", "bot:random"]


@pytest.fixture(scope="session")
def nim_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Nim installed for real, once per session: pip builds its wheel and installs it into its own directory."""
    target = tmp_path_factory.mktemp("nim-installed")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(target), str(NIM_SOURCE)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    return target


def fake_installed(target: Path, distribution: str, entry_points: str) -> None:
    """The metadata an installer writes for ``distribution`` (its ``dist-info``), with ``entry_points``."""
    info = target / f"{distribution.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry_points}\n", encoding="utf-8")


@pytest.fixture(scope="session")
def broken_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two broken plug-ins, installed: one names a module that is not there; the other's GameEntry loads, but
    its play command names an attribute its module lacks."""
    target = tmp_path_factory.mktemp("broken-installed")
    fake_installed(target, "flametable-broken", "broken = flametable_broken_nowhere:Game")
    (target / "flametable_badplay.py").write_text(
        "from flametable.core.registry import GameEntry\n"
        "ENTRY = GameEntry(name='badplay', title='Bad play', game='flametable_nim:NimGame',\n"
        "                  play='flametable_badplay:nowhere')\n", encoding="utf-8")
    fake_installed(target, "flametable-badplay", "badplay = flametable_badplay:ENTRY")
    return target


def flametable(*args: str, path: list[Path], stdin: str = "", env: dict[str, str] | None = None,
               ) -> subprocess.CompletedProcess[str]:
    """``flametable ARGS`` in a new process that finds the packages installed in ``path``."""
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([*map(str, path), os.environ.get("PYTHONPATH", "")]),
               "COLUMNS": "200", **(env or {})}
    return subprocess.run([sys.executable, "-m", "flametable.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env=environ, check=False)


def json_of(result: subprocess.CompletedProcess[str]) -> Any:
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    return json.loads(lines[0])


def test_nim_is_installed_as_its_own_distribution_with_its_entry_point(nim_dir: Path) -> None:
    [dist] = [d for d in distributions(path=[str(nim_dir)]) if d.metadata["Name"] == "flametable-nim"]
    [ep] = [e for e in dist.entry_points if e.group == GROUP]
    assert (ep.name, ep.value) == ("nim", "flametable_nim:NimGame")
    assert not (nim_dir / "flametable").exists()  # nothing of flametable itself came with it


def test_a_bot_match_is_recorded_and_the_record_verifies(nim_dir: Path, tmp_path: Path) -> None:
    record = tmp_path / "nim.json"
    result = json_of(flametable("play", "nim", *BOTS, "--json", "--record", str(record), "--seed", "4",
                                path=[nim_dir]))
    assert result["game"] == "nim"
    assert result["winner"] in (0, 1)
    assert result["reason"] == "last_stone"
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["game"] == "nim"
    # A heap of 15 (the default), 1 to 3 stones a turn: at least 5 and at most 15 actions.
    assert 5 <= len(saved["actions"]) <= 15
    assert all(a in ("take 1", "take 2", "take 3") for a in saved["actions"])
    replay = flametable("replay", str(record), "--verify", "--json", path=[nim_dir])
    assert json_of(replay)["ok"] is True
    saved["result"]["winner"] = 1 - saved["result"]["winner"]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(saved), encoding="utf-8")
    assert flametable("replay", str(tampered), "--verify", path=[nim_dir]).returncode == 1


def test_sim_writes_results_and_report_makes_the_generic_sections(nim_dir: Path, tmp_path: Path) -> None:
    results = tmp_path / "nim.jsonl"
    summary = json_of(flametable("sim", "nim", *BOTS, "--games", "12", "--jobs", "2", "--out", str(results),
                                 "--json", path=[nim_dir]))
    assert summary["games"] == 12
    lines = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 12
    assert {line["game"] for line in lines} == {"nim"}
    assert all(line["summary"] == {} for line in lines)  # no lab summary piece: nothing beyond the result
    page = tmp_path / "nim.html"
    report = flametable("report", str(results), "--html", str(page), "--lang", "en", path=[nim_dir])
    assert report.returncode == 0, report.stderr
    html = page.read_text(encoding="utf-8")
    for heading in ("Results: bot:random against bot:random, 12 matches", "How the matches ended", "Match length"):
        assert f"<h2>{heading}</h2>" in html
    assert "last_stone" in html


def test_bench_measures_random_playouts(nim_dir: Path) -> None:
    data = json_of(flametable("bench", "nim", "--seconds", "0.3", "--json", path=[nim_dir]))
    assert data["game"] == "nim"
    assert data["steps"] >= 5 * data["matches"] > 0  # each match of a heap of 15 takes 5 steps or more


def test_a_human_plays_in_plain_notation(nim_dir: Path, tmp_path: Path) -> None:
    record = tmp_path / "human.json"
    typed = "99\ntake 9\nlook\ntake 1\n" + "1\n" * 6
    result = flametable("play", "nim", "--p1", "human", "--seed", "2", "--options", '{"heap": 6}', "--lang", "en",
                        "--record", str(record), stdin=typed, path=[nim_dir])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "heap=6" in out  # the view, printed as text
    assert "Your options:" in out
    assert "1. take 1" in out
    assert "3. take 3" in out
    assert "There is no option 99: type a number from 1 to 3." in out
    assert "take 9 is not one of your options now." in out
    assert "Cannot read the action 'look'." in out
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["players"] == ["human", "bot:random"]
    assert saved["actions"][0] == "take 1"  # seed 2 is even: seat 0, the human, starts; typed "take 1" first
    # Whoever took the last stone won: the seat of the last action (seats alternate from seat 0).
    winner = (len(saved["actions"]) - 1) % 2
    assert saved["result"]["winner"] == winner
    assert ("You win!" if winner == 0 else "You lose.") in out
    assert flametable("replay", str(record), "--verify", path=[nim_dir]).returncode == 0


def test_search_bots_need_a_determiniser(nim_dir: Path) -> None:
    result = flametable("sim", "nim", "--p1", "bot:greedy", "--p2", "bot:random", "--games", "2", "--lang", "en",
                        path=[nim_dir])
    assert result.returncode == 2
    assert "Unknown seat 'bot:greedy' (known: bot:random)." in result.stderr
    human = flametable("play", "nim", "--p2", "bot:ismcts", "--lang", "en", path=[nim_dir])
    assert human.returncode == 2
    assert "Unknown seat 'bot:ismcts' (known: human, bot:random)." in human.stderr


def test_an_unknown_game_is_named_with_the_known_ones_in_the_players_language(nim_dir: Path) -> None:
    english = flametable("play", "chess", path=[nim_dir], env={"LC_ALL": "en_GB.UTF-8"})
    assert english.returncode == 2
    assert "Unknown game 'chess': choose one of duel, duals, nim." in english.stderr
    spanish = flametable("sim", "chess", "--lang", "es", path=[nim_dir])
    assert spanish.returncode == 2
    assert "Juego desconocido 'chess': elige uno de duel, duals, nim." in spanish.stderr
    no_cards = flametable("cards", "nim", path=[nim_dir], env={"LC_ALL": "en_GB.UTF-8"})
    assert no_cards.returncode == 2
    assert "nim" in no_cards.stderr


def test_every_command_lists_the_plugin_beside_the_builtin_games(nim_dir: Path) -> None:
    for command in ("play", "bench"):
        listed = flametable(command, "--help", path=[nim_dir]).stdout
        for name in ("duel", "duals", "nim"):
            assert f" {name} " in listed, (command, listed)


def test_a_broken_plugin_is_reported_once_and_skipped(nim_dir: Path, broken_dir: Path) -> None:
    both = [nim_dir, broken_dir]
    duel = flametable("play", "duel", *BOTS, "--seed", "1", "--json", path=both)
    assert json_of(duel)["game"] == "duel"
    assert duel.stderr.count("The plug-in game broken of flametable-broken cannot be loaded and is skipped: "
                             "ModuleNotFoundError: No module named 'flametable_broken_nowhere'") == 1
    assert duel.stderr.count("The plug-in game badplay of flametable-badplay cannot be loaded and is skipped: "
                             "PieceError: game 'badplay': its piece 'play' (flametable_badplay:nowhere)") == 1
    assert json_of(flametable("play", "nim", *BOTS, "--seed", "1", "--json", path=both))["game"] == "nim"
    missing = flametable("play", "broken", path=both, env={"LC_ALL": "en_GB.UTF-8"})
    assert missing.returncode == 2
    assert "Unknown game 'broken': choose one of duel, duals, nim." in missing.stderr


# --------------------------------------------------------------------------- the registry itself, in process


def entry_point(value: str, name: str = "plugin") -> EntryPoint:
    return EntryPoint(name=name, value=value, group=GROUP)


@pytest.fixture
def nim_importable(nim_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(nim_dir))
    yield
    sys.modules.pop("flametable_nim", None)


def test_the_builtin_games_come_from_the_same_registry() -> None:
    from flametable.cli.main import bench_app, play_app
    from flametable.core.registry import make_game

    assert registry.names()[:2] == ["duel", "duals"]
    assert [entry.name for entry in builtins()] == ["duel", "duals"]
    for name in registry.names():
        assert make_game(name).name == name
        assert registry.get(name).piece("game")().name == name
    assert [c.name for c in play_app.registered_commands] == registry.names()
    assert [c.name for c in bench_app.registered_commands] == registry.names()
    with pytest.raises(UnknownGame, match="choose one of duel, duals"):
        registry.get("chess")


def nim_determinizer(game: Any) -> Any:
    """Nim hides nothing: the one state consistent with a view is the view's heap, with the same seat to act."""

    def prepare(view: Any) -> Any:
        def sample(rng: Any) -> Any:
            return game.new_match({}, 0, {"heap": view.heap, "to_act": view.to_act})

        return sample

    return prepare


def test_a_determiniser_piece_lets_the_search_bots_play(nim_importable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from flametable.bots.registry import bot_names, make_bot

    full = GameEntry(name="nim", title="Nim", game="flametable_nim:NimGame", determinizer=nim_determinizer)
    monkeypatch.setattr(registry, "GAMES", Registry(builtins(), [entry_point("tests.cli.test_plugin:FULL", "nim")]))
    monkeypatch.setattr(sys.modules[__name__], "FULL", full, raising=False)
    game = registry.get("nim").make()
    assert "ismcts" in bot_names(game)
    # From a heap of 5, taking 1 leaves a multiple of 4: the winning move of Nim with 1 to 3 stones a turn.
    state = game.new_match({"heap": 5}, 0)
    bot = make_bot("bot:ismcts:400", game, seed=1)
    assert bot.choose(state.view(0), state.legal_actions()).text() == "take 1"


def test_a_game_without_data_files_refuses_one(nim_dir: Path, tmp_path: Path) -> None:
    data = tmp_path / "cards.toml"
    data.write_text('id = "x"\n', encoding="utf-8")
    for command in (["play", "nim", *BOTS], ["sim", "nim", *BOTS, "--data"]):
        args = [*command, str(data)] if command[-1] == "--data" else [*command, "--cards", str(data)]
        result = flametable(*args, "--lang", "en", path=[nim_dir])
        assert result.returncode == 2, result.stderr
        assert "The game nim plays with no data file." in result.stderr
