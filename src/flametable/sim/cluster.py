"""The lab's matches as Ray tasks (``flametable sim --ray``, ``flametable ladder --ray``), on a running cluster or
on a local Ray started for the run.

Ray is an extra (``pip install 'flametable[cluster]'``): this module imports it only inside :func:`connect`, so the
rest of the lab, and this module itself, work without it. The matches run in batches of match indexes (one task a
batch, as :func:`flametable.sim.runner.plan_chunks` makes them for the cluster's CPUs), whose results come back in
index order, whatever order the tasks finish in: the same seeds give the same results as ``--jobs``.

The workers import flametable from their own Python, as the cluster's nodes have it installed (the workers of a
local Ray inherit this program's environment, ``PYTHONPATH`` and working directory included): nothing is sent to
them but the batches. At connection one small task a CPU checks that they can import it, and that it is this
version.
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import flametable
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.sim import runner

LOCAL = "local"
"""The address that asks for a local Ray started for the run (``--ray`` with no address)."""

AUTO = "auto"
"""Ray's word for the cluster that ``RAY_ADDRESS`` names, or that ``ray start`` last started on this machine."""

CLIENT_SCHEME = "ray://"
CLIENT_PORT = 10001
"""The port of a Ray Client server when a ``ray://`` address names none (Ray's default)."""

WORKER_NICENESS = "RAY_worker_niceness"
"""Ray's setting (from the environment) of its workers' niceness: 15 unless it says otherwise."""

PROBE_SECONDS = 5.0
"""How long a cluster's address may take to accept a connection before the run says that nothing answers there."""

LARGEST_BATCH = 64
"""The most matches in one task: a task costs Ray a few milliseconds, a quick match less than one."""

BATCHES_AHEAD = 4
"""Tasks submitted per CPU of the cluster ahead of the batch whose results are read next."""


class ClusterError(FlametableError):
    """Ray or its cluster could not run the matches: Ray missing, no cluster at the address, workers that cannot
    import flametable, a cluster that failed."""


@dataclass(frozen=True)
class Cluster:
    """A connection to Ray, made by :func:`connect`: runs batches of a simulation's matches as tasks."""

    address: str
    cpus: int
    _remote: Any  # the Ray remote function that plays one batch
    _ray: Any  # the ray module

    def map(self, spec: runner.SimSpec, chunks: list[list[int]],
            each: Callable[[dict[str, Any]], Any] | None) -> Iterator[list[Any]]:
        """Each batch's results (what ``each`` makes of every result line), in the order of ``chunks``.

        At most ``BATCHES_AHEAD`` tasks per CPU are submitted ahead of the batch read next. When the caller stops
        early (Ctrl-C, a write that failed), the tasks not yet read are left to end: a connection that
        :func:`connect` made ends with the run, and Ray then drops its tasks itself; on a connection the program
        keeps, they are few and short. (They are not cancelled: Ray 2.60's driver aborts, now and then, when a
        task that it cancels is answering at that moment.)
        """
        ray = self._ray
        spec_ref = ray.put(spec)
        pending: deque[Any] = deque()
        todo = iter(chunks)
        ahead = max(2, self.cpus * BATCHES_AHEAD)
        while True:
            while len(pending) < ahead:
                chunk = next(todo, None)
                if chunk is None:
                    break
                pending.append(self._remote.remote(spec_ref, chunk, each))
            if not pending:
                return
            yield _get(ray, pending.popleft())


def _get(ray: Any, ref: Any) -> Any:
    """The value of a task, an error of the cluster becoming a :class:`ClusterError`; an exception that a match
    raised reaches the caller itself, as it would from ``--jobs``."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, Exception) and not isinstance(exc.cause, ray.exceptions.RayError):
            raise exc.cause from exc
        raise ClusterError(N_("The Ray cluster failed: {error}"), error=_first_line(exc)) from exc
    except ray.exceptions.RayError as exc:
        raise ClusterError(N_("The Ray cluster failed: {error}"), error=_first_line(exc)) from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def _batch(spec: runner.SimSpec, indexes: list[int], each: Callable[[dict[str, Any]], Any] | None) -> list[Any]:
    """A task: play the matches ``indexes`` of ``spec`` in a Ray worker, which keeps its game between tasks."""
    runner.worker_game(spec.game, spec.data)
    return runner.play_chunk(spec, indexes, each)


def _version() -> str:
    """A task: the flametable version that the worker imports."""
    return flametable.__version__


def parse_address(address: str) -> tuple[str, int] | None:
    """The host and port to try before connecting to ``address`` (``HOST:PORT``, ``ray://HOST[:PORT]``,
    ``[IPv6]:PORT``); None for ``local`` and ``auto``; a :class:`ClusterError` for anything else."""
    if address in (LOCAL, AUTO):
        return None
    client = address.startswith(CLIENT_SCHEME)
    rest = address[len(CLIENT_SCHEME):] if client else address
    if rest.startswith("["):  # [::1]:6379
        host, bracket, port_text = rest[1:].partition("]")
        if not bracket or (port_text and not port_text.startswith(":")):
            host = ""
        port_text = port_text[1:]
    else:
        host, colon, port_text = rest.rpartition(":")
        if not colon:
            host, port_text = rest, ""
    if not port_text and client:
        port_text = str(CLIENT_PORT)
    if not host or "/" in host or not port_text.isascii() or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ClusterError(N_("{address} is not the address of a Ray cluster: write HOST:PORT (ray start --head "
                              "prints it), ray://HOST:PORT (a Ray Client server), auto, or nothing for a local "
                              "Ray."), address=address)
    return host, int(port_text)


def probe(address: str, seconds: float = PROBE_SECONDS) -> None:
    """Fail quickly, with a :class:`ClusterError`, when nothing accepts a connection at ``address`` within
    ``seconds`` (Ray itself would try for minutes)."""
    target = parse_address(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=seconds):
            pass
    except OSError as exc:
        raise ClusterError(N_("No Ray cluster answers at {address} ({error}): start one there with ray start "
                              "--head, or give --ray no address for a local Ray."),
                           address=address, error=exc.strerror or type(exc).__name__) from exc


def _auto_address() -> str:
    """The cluster that ``auto`` means, as Ray finds it (``RAY_ADDRESS``, else the one ``ray start`` started here)."""
    services: Any = importlib.import_module("ray._private.services")
    try:
        found = services.canonicalize_bootstrap_address(AUTO)
    except ConnectionError:
        found = None
    if found is None:
        raise ClusterError(N_("No running Ray cluster was found (auto: neither RAY_ADDRESS nor ray start on this "
                              "machine names one): start one with ray start --head, or give --ray no address for "
                              "a local Ray."))
    return str(found)


@contextmanager
def connect(address: str = LOCAL, cpus: int | None = None) -> Iterator[Cluster]:
    """A connection to the Ray cluster at ``address`` (``local``: a local Ray for this run, with ``cpus`` CPUs or
    the machine's); Ray is shut down afterwards when this connection started it.

    A program that is already connected to Ray (``ray.init`` in a test or a notebook: Ray allows one connection a
    process) runs on its own connection and keeps it; an address that it names must still answer.
    """
    try:  # typed as Any: the lab is checked with or without Ray installed
        ray: Any = importlib.import_module("ray")
    except ImportError as exc:
        raise ClusterError(N_("--ray needs Ray, which is not installed: pip install 'flametable[cluster]'.")) from exc
    if address == AUTO:
        probe(_auto_address())
    elif address != LOCAL:
        probe(address)
    started = False
    if not ray.is_initialized():
        # Ray's usage statistics are sent unless this says no: a run reports nothing anywhere.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        if address == LOCAL:
            options.update(num_cpus=cpus, include_dashboard=False)
            # Ray starts its workers at nice 15, below everything else on the machine; here they are the run's
            # work, as the processes of --jobs are, and get the same share of the cores.
            os.environ.setdefault(WORKER_NICENESS, "0")
        try:
            with warnings.catch_warnings():  # the Ray client warns of a timeout before raising it: said once below
                warnings.simplefilter("ignore", UserWarning)
                ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError, TimeoutError, ray.exceptions.RayError) as exc:
            raise ClusterError(N_("Ray could not connect to {address}: {error}. A cluster that asks for a token "
                                  "(Ray's default) also needs RAY_AUTH_MODE=token here, and its token in "
                                  "RAY_AUTH_TOKEN or ~/.ray/auth_token."), address=address,
                               error=_first_line(exc)) from exc
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 0)))
        _check_workers(ray, cpus)
        yield Cluster(address, cpus, ray.remote(_batch), ray)
    finally:
        if started:
            ray.shutdown()


def _check_workers(ray: Any, cpus: int) -> None:
    """Fail with a :class:`ClusterError` when the cluster's workers cannot import flametable, or another version.

    One check a CPU, at once, so that the workers that will play have imported the lab before the first batch.
    """
    version = ray.remote(_version)
    try:
        found = set(ray.get([version.remote() for _ in range(cpus)]))
    except ray.exceptions.RayError as exc:
        raise ClusterError(N_("The Ray cluster's workers cannot import flametable: install it on every node "
                              "({error})."), error=_first_line(exc)) from exc
    theirs = ", ".join(sorted(found - {flametable.__version__}))
    if theirs:
        raise ClusterError(N_("The Ray cluster's workers have flametable {theirs}, this program {ours}: install "
                              "the same version on every node."), theirs=theirs, ours=flametable.__version__)
