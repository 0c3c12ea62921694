"""``ludex simulate --cluster``: the speed-up of 2 local Dask workers over 1, as paired ratios of
interleaved runs, in one run of this script.

The two sides, doing the same work:

- **1 worker**: a ``LocalCluster`` of 1 worker process (one thread), started once before any timing;
- **2 workers**: a ``LocalCluster`` of 2 worker processes (one thread each), started once likewise.

On each side a run is ``ludex.compliance.cluster.simulate_on_cluster`` given that cluster's scheduler
address, as ``ludex simulate GAME --games N --cluster ADDRESS`` runs: a client connects, the rules'
texts are sent once to every worker, the N (game, seed) units (seeds S to S+N-1) are submitted, each
worker compiles the rules once (the first run on each side, untimed, does that) and plays its games
with random agents, the results come back as plain data and are summed up. Timed: wall time from the
client connected to the summary made (the summary's ``seconds``), since parallel workers save wall
time, not CPU time. Both sides' summaries must be what a local run (``--jobs 1``) gives for the same
seeds, but for where and how fast (the script exits 1 otherwise).

Method (the machine is shared and noisy): ``--rounds R`` rounds; in each, both sides run the same
games, one after the other, which goes first alternating (1, 2; 2, 1; ...), so that a noisy spell falls
on both. Each round's ratio is the 1-worker wall time over the 2-worker one (above 1: 2 workers are
faster; 2.0 is the most 2 cores can give); the figure is the median of the R paired ratios, with their
interquartile range and min-max, and each side's median games/s.

Run: python benchmarks/cluster.py [GAME] [--games N] [--rounds R] [--seed S] [--json]
(needs the 'cluster' extra: pip install -e '.[cluster]')
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "interpreter"))

from ludex.compliance import cluster as C  # noqa: E402
from ludex.compliance.simulation import WHERE_AND_HOW_FAST, simulate  # noqa: E402

SIDES = (1, 2)


def spread(values: list[float]) -> dict:
    q1, q3 = (statistics.quantiles(values, n=4, method="inclusive")[::2] if len(values) > 1
              else (values[0], values[0]))
    return {"median": statistics.median(values), "q1": q1, "q3": q3, "min": min(values), "max": max(values),
            "ratios": values}


def what_the_games_did(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in WHERE_AND_HOW_FAST}


def compare(game: str = "halloween", games: int = 40, rounds: int = 7, seed: int = 1) -> dict:
    if not C.available():
        raise SystemExit(f"cluster: needs Dask distributed: {C.INSTALL}")
    load = os.getloadavg()[0]
    local = what_the_games_did(simulate(game, games, seed=seed, jobs=1))
    clusters = {n: C.distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                              dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
                for n in SIDES}
    seconds = {n: [] for n in SIDES}
    identical = True
    try:
        for n in SIDES:     # untimed: each worker compiles the rules
            C.simulate_on_cluster(clusters[n].scheduler_address, game, len(SIDES) * 2, seed=seed)
        for r in range(rounds):
            for n in (SIDES if r % 2 == 0 else SIDES[::-1]):
                summary = C.simulate_on_cluster(clusters[n].scheduler_address, game, games, seed=seed)
                identical = identical and what_the_games_did(summary) == local and summary["jobs"] == n
                seconds[n].append(summary["seconds"])
    finally:
        for cluster in clusters.values():
            cluster.close()
    return {"game": game, "games": games, "seeds": [seed, seed + games - 1], "rounds": rounds,
            "cores": os.cpu_count(), "load_before": load, "load_after": os.getloadavg()[0],
            "summaries_identical": identical,
            "games_per_s": {str(n): statistics.median(games / s for s in seconds[n]) for n in SIDES},
            "seconds": {str(n): seconds[n] for n in SIDES},
            "speedup": spread([one / two for one, two in zip(seconds[1], seconds[2])])}


def render(report: dict) -> str:
    s = report["speedup"]
    g = report["games_per_s"]
    return "\n".join([
        f"cluster: {report['game']}, {report['games']} games (seeds {report['seeds'][0]} to {report['seeds'][1]}) "
        f"per run, {report['rounds']} interleaved rounds; each side a LocalCluster of 1 or 2 worker processes "
        "(one thread each) reached by its address, timed in wall time from the client connected to the summary",
        f"  1 worker:  {g['1']:.1f} games/s (median of the rounds)",
        f"  2 workers: {g['2']:.1f} games/s",
        f"  speed-up of 2 workers over 1: median {s['median']:.2f}x of the paired ratios (interquartile "
        f"{s['q1']:.2f}-{s['q3']:.2f}, min-max {s['min']:.2f}-{s['max']:.2f}; 2.00x is all 2 cores can give)",
        f"  machine: {report['cores']} cores, load average {report['load_before']:.1f} before and "
        f"{report['load_after']:.1f} after (above the cores: others' work shares them, and the ratio falls)",
        f"  summaries: {'identical to a local run' if report['summaries_identical'] else 'DIFFERENT from a local run'}"
        " (--jobs 1, the same seeds; where and how fast aside)",
    ])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?", default="halloween", help="a bundled game (default halloween, the slowest)")
    ap.add_argument("--games", type=int, default=40, help="games per run (default 40)")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    ap.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    report = compare(args.game, args.games, args.rounds, args.seed)
    print(json.dumps(report, indent=1) if args.json else render(report))
    return 0 if report["summaries_identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
