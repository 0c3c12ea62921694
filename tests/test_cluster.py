"""Simulation on a Dask cluster (``ludex simulate --cluster``): the same summary as one process for the
same seeds, a worker lost mid-run costing only its games, plain data on the wire both ways, and one-line
errors for a cluster that cannot be had.

The tests share one LocalCluster of 2 worker processes (one thread each), reached by its address as an
existing scheduler is; ``--cluster local``, which starts its own, is run by test_signals.py and once here.
"""

from __future__ import annotations

import logging
import os
import signal

import pytest

from ludex.cli import main
from ludex.compliance import cluster as C
from ludex.compliance.simulation import WHERE_AND_HOW_FAST, rules_sources, simulate, simulate_sources
from ludex.resources import rules_dir

if os.environ.get("CI"):     # CI installs the 'test' extra, which brings Dask: there it must run, never skip
    import distributed
else:
    distributed = pytest.importorskip("distributed", reason="needs the 'cluster' extra (the 'test' extra brings it)")


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def what_the_games_did(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in WHERE_AND_HOW_FAST}


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """Huntik with its mission timer never advanced: every game runs past its round limit."""
    source = (rules_dir() / "huntik.ludex").read_text(encoding="utf-8")
    assert source.count("  increase mission-timer by 1\n") == 1
    path = tmp_path_factory.mktemp("broken") / "huntik.ludex"
    path.write_text(source.replace("  increase mission-timer by 1\n", ""), encoding="utf-8")
    return path


def test_the_summary_on_a_cluster_is_the_summary_of_one_process(scheduler):
    here = simulate("huntik", 24, seed=3, jobs=1)
    there = C.simulate_on_cluster(scheduler, "huntik", 24, seed=3)
    assert there["cluster"] == scheduler and there["jobs"] == 2
    assert what_the_games_did(there) == what_the_games_did(here)
    assert there["statuses"] == {"won": 24} and sum(there["winners"].values()) == 24


def test_each_problem_found_on_a_cluster_carries_the_seed_that_replays_it(scheduler, broken):
    here = simulate(str(broken), 3, seed=11, jobs=1, max_rounds=20)
    there = C.simulate_on_cluster(scheduler, str(broken), 3, seed=11, max_rounds=20)
    assert what_the_games_did(there) == what_the_games_did(here)
    assert [(p["seed"], p["status"], p["replay"]) for p in there["problems"]] == [
        (s, "unfinished", f"ludex run {broken} --seed {s} --max-rounds 20") for s in (11, 12, 13)]
    assert "did not end within 20 rounds" in there["problems"][0]["problem"]["message"]


@pytest.mark.slow     # 4 to 16 s: the lost worker is started again, and the other plays the games meanwhile
def test_a_worker_lost_mid_run_costs_only_its_games_which_are_played_again(scheduler):
    here = simulate("huntik", 80, seed=1, jobs=1)
    pids, killed = {}, []

    def on_running(client):
        pids.update(client.run(os.getpid))

    def progress(done, total, problems, elapsed):
        if done == 8:           # mid-run: games done, and each worker playing one
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    there = C.simulate_on_cluster(scheduler, "huntik", 80, seed=1, progress=progress, on_running=on_running)
    assert len(pids) == 2 and len(killed) == 1
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)
    assert what_the_games_did(there) == what_the_games_did(here)
    assert there["statuses"] == {"won": 80}


def test_only_plain_data_goes_to_a_worker_and_comes_back():
    key, sources = rules_sources("huntik")
    assert key == "huntik" and sources and all(isinstance(p, str) and isinstance(t, str) for p, t in sources)
    result = simulate_sources(key, [list(pair) for pair in sources], "huntik", 5)

    def plain(value):
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return value is None or type(value) in (str, int, float, bool)

    assert plain(result) and result["seed"] == 5 and result["replay"] == "ludex run huntik --seed 5"


def test_a_scheduler_that_cannot_be_reached_is_one_line_soon(monkeypatch, capsys):
    monkeypatch.setattr(C, "CONNECT_SECONDS", 1.0)
    code = main(["simulate", "huntik", "--games", "2", "--cluster", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("ludex: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s ("), err


def test_without_dask_the_cluster_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setattr(C, "distributed", None)
    code = main(["simulate", "huntik", "--games", "2", "--cluster", "local"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("ludex: error: --cluster needs Dask distributed, which is not installed: pip install -e "
                   "'.[cluster]' (from the top of ludex's checkout)\n")


def test_jobs_go_with_a_local_cluster_only(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "huntik", "--games", "2", "--cluster", "tcp://127.0.0.1:9", "--jobs", "2"])
    assert stop.value.code == 2
    assert "--jobs goes with --cluster local only" in capsys.readouterr().err


@pytest.mark.slow     # 4 to 10 s: it starts a cluster of its own
def test_simulate_on_a_local_cluster_prints_the_summary_with_its_workers(capsys):
    assert main(["simulate", "huntik", "--games", "6", "--cluster", "local", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("huntik: 6 games (seeds 1 to 6), players p1, p2, 2 workers of the cluster at local\n")
    assert "ended:     6 of 6" in out
