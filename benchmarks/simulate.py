"""Checking the rules by playing them, at scale: ``ludex simulate`` figures and ratios measured in one
run. The machine is shared and noisy, so the per-game figures are CPU time (``time.process_time`` in
the process that played the game): on an idle machine wall time per game is the same, on a busy one
it is not. Wall-clock games/s is shown too, as measured.

For each bundled game (or those given):

1. 1,000 whole games (seeds 1 to 1,000) played by random agents with ``ludex.compliance.simulation.simulate``
   on every core (``--jobs``): the problems found (must be none: the benchmark exits 1 otherwise),
   games per second of wall time, CPU milliseconds per game and games per CPU-second, and the
   parallel efficiency (CPU seconds of all the games / (wall seconds x jobs)).
2. The cost of checking: ``simulate_one`` (round guard, invariants at every decision, the engine's own
   invariant checks) against a bare ``Game.run`` with the same random agent and seeds, as a ratio of
   CPU times (best of a few repetitions, in this process).

Run: python benchmarks/simulate.py [GAME...] [--games N] [--jobs J] [--sample N] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "interpreter"))

from ludex.engine.agents import RandomAgent  # noqa: E402
from ludex.compliance.recorder import default_players  # noqa: E402
from ludex.compliance.simulation import load_for_simulation, render_simulation, simulate, simulate_one  # noqa: E402
from ludex.engine.game import Game  # noqa: E402
from ludex.resources import bundled_games  # noqa: E402


def bare_cpu(key: str, seeds: list) -> float:
    """CPU seconds to play these seeds with the engine alone (as ``ludex run`` plays them)."""
    gamedef = load_for_simulation(key)
    names = default_players(gamedef)
    start = time.process_time()
    for seed in seeds:
        Game(gamedef, names, RandomAgent(seed), seed=seed).run()
    return time.process_time() - start


def checked_cpu(key: str, seeds: list) -> float:
    start = time.process_time()
    for seed in seeds:
        simulate_one(key, seed)
    return time.process_time() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games_to_run", nargs="*", metavar="GAME", help="bundled games (default: all)")
    ap.add_argument("--games", type=int, default=1000, help="games per bundled game (default 1,000)")
    ap.add_argument("--jobs", type=int, default=0, help="processes (default 0: every core)")
    ap.add_argument("--sample", type=int, default=10, help="seeds for the checking-cost ratio (default 10)")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions for the ratio; the best is kept")
    ap.add_argument("--report", action="store_true", help="print each game's full simulate report too")
    args = ap.parse_args(argv)
    jobs = args.jobs or os.cpu_count() or 1
    keys = args.games_to_run or bundled_games()
    problems = 0
    print(f"simulate: {args.games:,} games per game, seeds 1 to {args.games:,}, {jobs} job(s); "
          "CPU figures are per game, in the process that played it")
    print(f"  {'game':<11} {'problems':>8} {'wall s':>8} {'games/s':>8} {'cpu ms/game':>12} "
          f"{'games/cpu-s':>12} {'efficiency':>10} {'checking cost':>14}")
    for key in keys:
        load_for_simulation(key)
        summary = simulate(key, args.games, seed=1, jobs=jobs)
        problems += len(summary["problems"])
        cpu = summary["cpu_seconds"]
        efficiency = cpu / (summary["seconds"] * min(jobs, args.games)) if summary["seconds"] else 0.0
        seeds = list(range(1, args.sample + 1))
        bare = min(bare_cpu(key, seeds) for _ in range(args.repeat))
        checked = min(checked_cpu(key, seeds) for _ in range(args.repeat))
        print(f"  {key:<11} {len(summary['problems']):>8} {summary['seconds']:>8.1f} "
              f"{summary['games_per_second']:>8.2f} {1000 * cpu / args.games:>12.1f} "
              f"{args.games / cpu if cpu else 0:>12.2f} {efficiency:>10.2f} {checked / bare:>13.2f}x")
        if args.report or summary["problems"]:
            print("\n" + "\n".join("    " + line for line in render_simulation(summary).splitlines()) + "\n")
    if problems:
        print(f"{problems} problem(s) found: see the reports above; each names the seed that replays it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
