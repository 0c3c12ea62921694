"""Simulation past one machine: a game, its seeds and options in; each (game, seed) unit run by the
workers of a Dask distributed scheduler; the summary out, ``simulation.summarise``'s, the same as a
local run's for the same seeds but for where and how fast (``simulation.WHERE_AND_HOW_FAST``).

What a unit does lives in ``simulation.py`` alone: the workers run ``simulation.simulate_sources``.
Only plain data crosses the wire, both ways (``docs/untrusted.md``): to the workers the name of that
function, the rules files' paths and texts as strings (sent once to every worker), the game's key, each
seed and the options (numbers and strings); back, each game's result, a dict of numbers and strings
and lists of them. No compiled rules cross it: each worker compiles the texts itself, once per game,
and nothing made from a rules file is ever unpickled here.

A worker lost mid-run (its process killed, its machine gone) costs only the games it was playing: the
scheduler runs them again on a worker still there, up to ``distributed.scheduler.allowed-failures``
times (3 unless the scheduler is configured otherwise). A game's result is a function of its seed, so
a game played again gives what it gave the first time.

``--cluster local`` starts a ``LocalCluster`` in this process: worker processes of one thread each,
ended with the run. Dask is optional (the ``cluster`` extra); without it, and for a scheduler that
does not answer within ``CONNECT_SECONDS``, ``ClusterError`` says so in one line.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
import uuid
from multiprocessing import resource_tracker
from typing import Optional

from .simulation import DEFAULT_MAX_ROUNDS, load_for_simulation, rules_sources, seeds_of, simulate_sources, summarise

try:    # the optional 'cluster' extra
    import distributed
except ImportError:     # pragma: no cover (the test extra brings it)
    distributed = None

#: How to get Dask distributed, said when it is missing.
INSTALL = "pip install -e '.[cluster]' (from the top of ludex's checkout)"

#: How long a scheduler may take to answer, and to have a worker, before the run gives up.
CONNECT_SECONDS = 10.0

#: The address that starts a cluster here instead of joining one.
LOCAL = "local"


class ClusterError(Exception):
    """The cluster could not be had or could not finish the run: one line for the user."""


def available() -> bool:
    return distributed is not None


def simulate_on_cluster(address: str, game_key: str, games: int, seed: int = 1, workers: Optional[int] = None,
                        players: Optional[int] = None, fmt: str = "",
                        max_rounds: Optional[int] = DEFAULT_MAX_ROUNDS, max_steps: Optional[int] = None,
                        progress=None, on_running=None) -> dict:
    """Play ``games`` games (seeds ``seed`` on) on the scheduler at ``address`` (``local``: a
    LocalCluster of ``workers`` processes, every core by default) and sum them up as ``simulate``
    does. ``progress(done, total, elapsed, problems)`` is called after each game, ``on_running(client)``
    once the games are submitted (the tests take a worker away there)."""
    if distributed is None:
        raise ClusterError(f"--cluster needs Dask distributed, which is not installed: {INSTALL}")
    gamedef = load_for_simulation(game_key)
    key, sources = rules_sources(game_key)
    # Dask's own log lines (a worker lost, a connection retried) would break the one-line errors and
    # the summary on stderr: what matters is reported by the run itself
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    cluster = client = None
    try:
        client, cluster = _connect(address, workers)
        count = len(client.scheduler_info()["workers"])
        start = time.perf_counter()
        shared = client.scatter([sources], broadcast=True, hash=False)[0]
        run = uuid.uuid4().hex[:8]
        seeds = list(seeds_of(seed, games))
        units = client.map(simulate_sources, [key] * games, [shared] * games, [game_key] * games, seeds,
                           [players] * games, [fmt] * games, [max_rounds] * games, [max_steps] * games,
                           key=[f"ludex-simulate-{key}-{s}-{run}" for s in seeds], pure=False)
        futures = dict(zip(units, seeds))
        if on_running is not None:
            on_running(client)
        results, problems = [], 0
        for future in distributed.as_completed(list(futures), loop=client.loop):
            results.append(_result(future, futures[future], address))
            problems += results[-1]["problem"] is not None
            if progress:
                progress(len(results), games, time.perf_counter() - start, problems)
        elapsed = time.perf_counter() - start
    finally:
        _close(client, cluster)
    summary = summarise(game_key, gamedef, games, seed, count, players, fmt, max_rounds, max_steps, results, elapsed)
    summary["cluster"] = address
    return summary


def _connect(address: str, workers: Optional[int]):
    """A client of the scheduler at ``address`` with at least one worker, and the LocalCluster it
    started (for ``local``; else None)."""
    if address == LOCAL:
        cluster = _local_cluster(workers or os.cpu_count() or 1)
        return distributed.Client(cluster, set_as_default=False), cluster
    _probe(address)
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, ValueError, TypeError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} within {CONNECT_SECONDS:g} s "
                           f"({_reason(exc)})") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, distributed.TimeoutError):
        client.close()
        raise ClusterError(f"the Dask scheduler at {address} has no worker (none joined within "
                           f"{CONNECT_SECONDS:g} s)") from None
    return client, None


#: The schemes of Dask's addresses that run over TCP, which a plain connection can probe.
OVER_TCP = ("tcp", "tls", "ws", "wss")


def _probe(address: str) -> None:
    """Refuse an address that names no scheduler, or whose port does not answer, before a client is
    made: Dask's client retries a refused connection until its timeout, and one that failed to connect
    still waits as long again when it is collected."""
    try:
        scheme, where = distributed.comm.parse_address(address)
        host, port = distributed.comm.parse_host_port(where, 8786)
    except ValueError as exc:
        raise ClusterError(f"'{address}' is not the address of a Dask scheduler ({_reason(exc)}): give "
                           f"tcp://HOST:PORT, or '{LOCAL}'") from None
    if scheme not in OVER_TCP or not host:
        raise ClusterError(f"'{address}' is not the address of a Dask scheduler: give tcp://HOST:PORT, or '{LOCAL}'")
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} within {CONNECT_SECONDS:g} s "
                           f"({exc.strerror or _reason(exc)})") from None


def _local_cluster(workers: int):
    """A LocalCluster of ``workers`` processes on this machine's loopback address. Ctrl-C reaches a
    terminal's whole process group, and stopping is this process's to do (a worker would print its
    traceback): the workers are made with SIGINT held, which they keep through ``exec``, by Dask's
    threads, which are made with it held by a thread made so; this thread, meanwhile, stays free to be
    stopped. (A stop before the cluster is made leaves it to the end of the process, which ends its
    workers.)"""
    made: dict = {}

    def make():
        try:
            made["cluster"] = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
        except Exception as exc:  # noqa: BLE001 (raised again below, in the thread that asked)
            made["error"] = exc

    # Python's resource tracker, which a spawned worker needs, unblocks SIGINT in the thread that
    # starts it: it is started here first, so that Dask's threads find it running. Workers stopped
    # with the command leave their semaphores to it, which it removes, warning of each "leak" on
    # stderr after the command's one line: its warnings are turned off (it inherits the environment).
    warned = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = ",".join(filter(None, (warned, "ignore:resource_tracker:UserWarning")))
    try:
        resource_tracker.ensure_running()
    finally:
        if warned is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = warned
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        maker = threading.Thread(target=make, name="ludex-local-cluster", daemon=True)
        maker.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
    while maker.is_alive():
        maker.join(0.05)
    if "error" in made:
        raise ClusterError(f"could not start a local cluster ({_reason(made['error'])})")
    return made["cluster"]


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text.rstrip(".:")


def _result(future, seed: int, address: str) -> dict:
    try:
        return future.result()
    except distributed.KilledWorker:
        raise ClusterError(f"seed {seed}: every worker that played it was lost (the scheduler at {address} "
                           "gave it up after its allowed failures)") from None
    except (distributed.CancelledError, OSError) as exc:
        raise ClusterError(f"the Dask scheduler at {address} was lost mid-run ({_reason(exc)})") from None
    except Exception as exc:    # a unit that raised on its worker: said with its seed, never as a traceback
        raise ClusterError(f"seed {seed}: {type(exc).__name__} on a worker: {_reason(exc)}") from None


def _close(client, cluster) -> None:
    for part in (client, cluster):
        if part is not None:
            try:
                part.close(timeout=CONNECT_SECONDS) if part is client else part.close()
            except Exception:  # noqa: BLE001, S110 (closing what is already gone: nothing left to end)
                pass
