"""The lab on Ray (``sim --ray``, ``ladder --ray``): the same seeds give the same results file as ``--jobs 2``, line
for line and in the same order; a Ctrl-C keeps the matches finished, as with ``--jobs``; without Ray, or with no
cluster at the address, one translated line says what to do.

The Ray tests share one local Ray (2 CPUs, no dashboard), started once for the module: its workers inherit this
process's environment, with the folder of the flametable imported here first on their ``PYTHONPATH``, so they
play this tree's code. Without Ray they are skipped (failed with ``FLAMETABLE_REQUIRE_SERVICES=1``); the tests
of the messages and of ``--jobs`` need no Ray.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import flametable
from flametable.cli import lab
from flametable.cli.main import app
from flametable.cli.options import ray_alone
from flametable.sim import cluster as cluster_module
from flametable.sim.cluster import ClusterError, parse_address
from tests.builtin_data import DUEL_CARDS
from tests.services import require_or_skip

RAY_START_SECONDS = 120
"""The most a local Ray may take to start here before the module fails (it takes 4 to 8 s on this machine)."""

SIMS = {  # game -> the matches of the comparison: enough for several batches of every size, little time
    "duel": ["sim", "duel", "--p1", "bot:greedy", "--p2", "bot:random", "--games", "60", "--seed", "22"],
    "duals": ["sim", "duals", "--p1", "bot:greedy", "--p2", "bot:random", "--games", "10", "--seed", "22"],
}
LADDER = ["ladder", "duel", "--bots", "bot:random,bot:greedy,bot:easy", "--games", "8", "--seed", "5", "--json"]
TIMING = re.compile(r'"seconds":[0-9.e-]+')


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"FLAMETABLE_DEBUG": None})


def untimed(text: str) -> str:
    """A results file with each match's wall time (``"seconds"``, the only field that differs from run to run
    on any runner) set to 0: everything else must be the same byte for byte."""
    return TIMING.sub('"seconds":0', text)


def summary(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return {k: v for k, v in data.items() if k not in ("seconds", "matches_per_second", "jobs", "ray", "ray_seconds")}


def simulate(game: str, tmp: Path, *runner: str, out: str = "r.jsonl") -> tuple[str, dict[str, Any]]:
    """The results file and the summary of ``SIMS[game]`` run with ``runner`` (``--jobs 2`` or ``--ray``)."""
    path = tmp / out
    result = invoke(*SIMS[game], *runner, "--out", str(path), "--json")
    return path.read_text(encoding="utf-8"), summary(result)


# --- without Ray: the address, the messages, Ctrl-C with --jobs ---------------------------------------------------

@pytest.mark.parametrize(("args", "read"), [
    (["sim", "--ray", "duel"], ["sim", "--ray=local", "duel"]),  # the game is not an address
    (["sim", "duel", "--ray"], ["sim", "duel", "--ray=local"]),
    (["sim", "duel", "--ray", "--games", "3"], ["sim", "duel", "--ray=local", "--games", "3"]),
    (["sim", "duel", "--ray", "--out=a:b.jsonl"], ["sim", "duel", "--ray=local", "--out=a:b.jsonl"]),
    (["sim", "duel", "--ray", "127.0.0.1:6379"], ["sim", "duel", "--ray", "127.0.0.1:6379"]),
    (["sim", "duel", "--ray", "ray://head:10001"], ["sim", "duel", "--ray", "ray://head:10001"]),
    (["sim", "duel", "--ray", "auto"], ["sim", "duel", "--ray", "auto"]),
    (["sim", "duel", "--ray=head"], ["sim", "duel", "--ray=head"]),
    (["sim", "duel", "--", "--ray"], ["sim", "duel", "--", "--ray"]),
])
def test_ray_without_an_address_means_a_local_ray_and_the_next_word_is_taken_only_if_it_is_an_address(
        args: list[str], read: list[str]) -> None:
    assert ray_alone(args) == read


@pytest.mark.parametrize(("address", "target"), [
    ("127.0.0.1:6379", ("127.0.0.1", 6379)), ("head.example:6380", ("head.example", 6380)),
    ("ray://head:10002", ("head", 10002)), ("ray://head", ("head", 10001)), ("[::1]:6379", ("::1", 6379)),
    ("local", None), ("auto", None),
])
def test_the_address_of_a_cluster_is_host_and_port_or_a_ray_client_url(address: str,
                                                                         target: tuple[str, int] | None) -> None:
    assert parse_address(address) == target


@pytest.mark.parametrize("address", ["head", "head:", "head:port", "head:70000", ":6379", "ray://", "[::1", "a/b:1"])
def test_anything_else_is_refused_naming_the_address(address: str) -> None:
    with pytest.raises(ClusterError, match="is not the address of a Ray cluster"):
        parse_address(address)


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "Error: --ray needs Ray, which is not installed: pip install 'flametable[cluster]'.\n"),
    ("es", "Error: --ray necesita Ray, que no está instalado: pip install 'flametable[cluster]'.\n"),
])
@pytest.mark.parametrize("command", ["sim", "ladder"])
def test_without_ray_installed_ray_says_to_install_the_cluster_extra(
        command: str, lang: str, line: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError, as without Ray installed
    out = tmp_path / "r.jsonl"
    out.write_text("kept\n", encoding="utf-8")
    args = [*SIMS["duel"], "--out", str(out)] if command == "sim" else LADDER
    result = invoke(*args, "--ray", "--lang", lang)
    assert result.exit_code == 1
    assert result.stderr.endswith(line)
    assert "Traceback" not in result.output
    assert out.read_text(encoding="utf-8") == "kept\n"  # the results file is not opened before Ray is there


def ray_or_skip() -> Any:
    """The ray module; the test is skipped without it (failed where the services are required)."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        require_or_skip("Ray", f"{exc}: pip install -c constraints.txt -e '.[cluster]'")
        raise


def free_port() -> int:
    """A loopback port where nothing listens (bound for a moment by the system's choice, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "No Ray cluster answers at 127.0.0.1:{port} ("),
    ("es", "Ningún clúster de Ray responde en 127.0.0.1:{port} ("),
])
def test_an_address_where_nothing_listens_is_said_at_once(lang: str, words: str) -> None:
    ray_or_skip()  # the address is tried once Ray is there
    port = free_port()
    started = time.perf_counter()
    result = invoke(*SIMS["duel"], "--ray", f"127.0.0.1:{port}", "--lang", lang)
    assert time.perf_counter() - started < cluster_module.PROBE_SECONDS + 5
    assert result.exit_code == 1
    assert words.format(port=port) in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("found", [None, ConnectionError("Could not find any running Ray instance.")])
def test_auto_with_no_cluster_on_this_machine_says_so(found: Exception | None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ray_or_skip()

    def canonical(address: str) -> None:
        if found is not None:
            raise found

    monkeypatch.setattr("ray._private.services.canonicalize_bootstrap_address", canonical)
    result = invoke(*SIMS["duel"], "--ray", "auto", "--lang", "en")
    assert result.exit_code == 1
    assert "Error: No running Ray cluster was found (auto: neither RAY_ADDRESS nor ray start" in result.stderr
    assert "Internal error" not in result.output


def test_the_lab_imports_ray_only_for_ray() -> None:
    """Everything but --ray works without Ray: the lab's modules, the cluster's included, and a whole sim with
    --jobs leave ``ray`` unimported."""
    here = str(Path(flametable.__file__).resolve().parents[1])
    code = ("import sys; from flametable.cli.main import main; import flametable.cli.lab, flametable.sim.cluster\n"
            "sys.argv = ['flametable', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('ray' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, "sim", "duel", "--games", "4", "--jobs", "2", "--json"],
                          env={**os.environ, "PYTHONPATH": here}, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 4
    assert done.stderr.splitlines()[-1] == "False"


def test_jobs_and_ray_do_not_go_together() -> None:
    result = invoke(*SIMS["duel"], "--ray", "--jobs", "2", "--lang", "en")
    assert result.exit_code == 2
    assert "Error: --ray runs the matches on the Ray cluster's CPUs: leave out --jobs." in result.stderr


def interrupt_after(monkeypatch: pytest.MonkeyPatch, writes: int) -> None:
    """A Ctrl-C once the results file has had ``writes`` lines (``sim`` writes one a match)."""
    real = lab._Output.write
    count = 0

    def write(self: lab._Output, text: str) -> None:
        nonlocal count
        if count == writes:
            raise KeyboardInterrupt
        count += 1
        real(self, text)

    monkeypatch.setattr(lab._Output, "write", write)


def interrupted_run(runner: list[str], tmp: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Result, list[int]]:
    interrupt_after(monkeypatch, 23)
    out = tmp / "r.jsonl"
    result = invoke(*SIMS["duel"], *runner, "--out", str(out))
    return result, [json.loads(line)["index"] for line in out.read_text(encoding="utf-8").splitlines()]


def test_ctrl_c_with_jobs_keeps_the_matches_written_in_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result, indexes = interrupted_run(["--jobs", "2"], tmp_path, monkeypatch)
    assert result.exit_code == 130
    assert indexes == list(range(23))


def session_processes(sid: int) -> list[str]:
    """The processes still running in the session ``sid`` (Linux's /proc), as their command lines."""
    return [cmdline for cmdline, _ in session_niceness(sid)]


def session_niceness(sid: int) -> list[tuple[str, int]]:
    """The command line and niceness of each process running in the session ``sid`` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(encoding="utf-8", errors="replace").rpartition(")")[2].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # ended meanwhile
            continue
        if int(fields[3]) == sid and fields[0] != "Z":  # fields from the state on: the session 4th, the nice 17th
            found.append((cmdline, int(fields[16])))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from Linux's /proc")
@pytest.mark.parametrize("runner", [["--jobs", "2"], ["--ray"]], ids=["jobs", "ray"])
def test_a_real_ctrl_c_keeps_what_was_written_and_leaves_no_process(runner: list[str], tmp_path: Path) -> None:
    """Ctrl-C at the terminal (SIGINT to the program's whole process group, Ray's own processes included): exit
    130, the results file holds the first matches in order, every line whole, and no process of the run is left.
    Ray's workers ran at the program's niceness (Ray's own default is 15: below everything else). Nothing is
    printed but the run's own words: no traceback. (With ``--jobs``, a pool worker that took the Ctrl-C as a
    KeyboardInterrupt once left Python 3.11's pool unable to shut down: the run printed tracebacks and hung.)"""
    if runner[0] == "--ray":
        ray_or_skip()
    out = tmp_path / "r.jsonl"
    here = str(Path(flametable.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)}
    command = [sys.executable, "-m", "flametable.cli", "sim", "duel", "--games", "1000000", *runner, "--out", str(out)]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + RAY_START_SECONDS
        while time.monotonic() < deadline and proc.poll() is None and (
                not out.exists() or out.read_text(encoding="utf-8").count("\n") < 50):
            time.sleep(0.2)
        playing = [nice for cmdline, nice in session_niceness(proc.pid) if cmdline.startswith("ray::")
                   and "Agent" not in cmdline]  # Ray's workers (ray::_batch, ray::IDLE), not its agents
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()  # reaps it and closes its pipes
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    if runner[0] == "--ray":
        assert playing, "no Ray worker was found in the run's session"
        assert set(playing) == {os.nice(0)}  # Ray's workers at the program's niceness, as the pool's processes
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 50
    assert [json.loads(line)["index"] for line in lines] == list(range(len(lines)))
    deadline = time.monotonic() + 30
    while session_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert session_processes(proc.pid) == []


# --- on a local Ray ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, dict[str, Any]]]:
    """``--jobs 2``'s results (file and summary) of each comparison, made before Ray starts in this process (its
    threads are then not there when the pool forks)."""
    made: dict[str, tuple[str, dict[str, Any]]] = {}
    for game in SIMS:
        made[game] = simulate(game, tmp_path_factory.mktemp(game), "--jobs", "2")
    made["csv"] = simulate("duel", tmp_path_factory.mktemp("csv"), "--jobs", "2", out="r.csv")
    made["ladder"] = ("", summary(invoke(*LADDER, "--jobs", "2")))
    return made


def _give_up(signum: int, frame: object) -> None:
    raise TimeoutError(f"a local Ray did not start within {RAY_START_SECONDS} s")


@pytest.fixture(scope="module")
def local_ray(expected: dict[str, tuple[str, dict[str, Any]]]) -> Iterator[Any]:
    """A local Ray of 2 CPUs for the module (``sim --ray`` runs on this process's connection), its workers
    importing the flametable imported here."""
    ray = ray_or_skip()
    saved = {name: os.environ.get(name) for name in ("PYTHONPATH", "RAY_USAGE_STATS_ENABLED")}
    here = str(Path(flametable.__file__).resolve().parents[1])  # src/ of this tree (or the installed package's)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (here, saved["PYTHONPATH"]) if p)
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    previous = signal.signal(signal.SIGALRM, _give_up)
    signal.alarm(RAY_START_SECONDS)
    try:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    try:
        yield ray
    finally:
        ray.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def test_the_workers_play_this_trees_code(local_ray: Any) -> None:
    def where() -> str:
        import flametable

        return flametable.__file__

    assert local_ray.get(local_ray.remote(where).remote()) == flametable.__file__


@pytest.mark.parametrize("game", list(SIMS))
def test_sim_on_ray_writes_the_results_of_jobs_2_line_for_line(
        game: str, local_ray: Any, expected: dict[str, tuple[str, dict[str, Any]]], tmp_path: Path) -> None:
    text, figures = simulate(game, tmp_path, "--ray")
    local_text, local_figures = expected[game]
    assert untimed(text) == untimed(local_text)
    assert [json.loads(line)["index"] for line in text.splitlines()] == list(range(len(text.splitlines())))
    assert figures == local_figures


def test_sim_on_ray_writes_the_csv_of_jobs_2(local_ray: Any, expected: dict[str, tuple[str, dict[str, Any]]],
                                            tmp_path: Path) -> None:
    text, figures = simulate("duel", tmp_path, "--ray", out="r.csv")
    local_text, local_figures = expected["csv"]
    seconds = re.compile(r",[0-9.e-]+,(?=\")")  # the column before the summary's JSON
    assert seconds.sub(",0,", text) == seconds.sub(",0,", local_text)
    assert figures == local_figures


def test_sim_on_ray_says_where_it_ran(local_ray: Any) -> None:
    result = invoke("sim", "duel", "--games", "3", "--ray", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["ray"], data["jobs"], data["games"]) == ("local", 2, 3)
    assert data["ray_seconds"] >= 0


def test_the_ladder_on_ray_is_the_ladder_of_jobs_2(local_ray: Any,
                                                   expected: dict[str, tuple[str, dict[str, Any]]]) -> None:
    assert summary(invoke(*LADDER, "--ray")) == expected["ladder"][1]


def test_ctrl_c_on_ray_keeps_the_matches_written_in_order_and_the_cluster_goes_on(
        local_ray: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result, indexes = interrupted_run(["--ray"], tmp_path, monkeypatch)
    assert result.exit_code == 130
    assert indexes == list(range(23))
    monkeypatch.undo()
    again = invoke("sim", "duel", "--games", "4", "--ray", "--json")  # the tasks not read were cancelled
    assert again.exit_code == 0, again.output


def test_a_data_file_changed_between_two_runs_is_read_again_by_the_workers_that_stay(
        local_ray: Any, tmp_path: Path) -> None:
    """Ray's workers live on from one run to the next and keep the game they made: one whose data file changed
    plays the new one (the same results as --jobs 1 on it), not the one they remember."""
    cards = tmp_path / "cards.toml"
    text = DUEL_CARDS.read_text(encoding="utf-8")
    run = ["sim", "duel", "--games", "12", "--seed", "4", "--data", str(cards), "--json"]
    cards.write_text(text, encoding="utf-8")
    before = summary(invoke(*run, "--ray"))
    cards.write_text(re.sub(r"(?m)^spark = \d+$", "spark = 90", text, count=6), encoding="utf-8")
    after = summary(invoke(*run, "--ray"))
    assert after == summary(invoke(*run, "--jobs", "1"))
    assert after != before


def test_an_exception_raised_in_a_task_reaches_the_command_itself_as_from_jobs(local_ray: Any) -> None:
    """A bug in a match is the exception itself where the command reads the batch (the pool re-raises it so),
    which the command's guard turns into its one line; not Ray's error, which says the cluster failed."""
    def bug() -> None:
        raise ValueError("a bug in a match")

    with pytest.raises(ValueError, match="a bug in a match") as raised:
        cluster_module._get(local_ray, local_ray.remote(bug).remote())
    assert type(raised.value) is ValueError
