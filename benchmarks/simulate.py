"""Checking the rules by playing them, at scale: ``ludex simulate`` figures and ratios measured in one
run. The machine is shared and noisy, so the per-game figures are CPU time (``time.process_time`` in
the process that played the game): on an idle machine wall time per game is the same, on a busy one
it is not. Wall-clock games/s is shown too, as measured.

For each bundled game (or those given):

1. 1,000 whole games (seeds 1 to 1,000) played by random agents with ``ludex.compliance.simulation.simulate``
   on every core (``--jobs``): the problems found (must be none: the benchmark exits 1 otherwise),
   games per second of wall time, CPU milliseconds per game and games per CPU-second, and the
   parallel efficiency (CPU seconds of all the games / (wall seconds x jobs)).
2. The cost of checking: ``simulate`` in this process (``ludex simulate GAME --jobs 1``: each game's
   ``simulate_one`` with its round guard, invariants at every decision and the engine's own invariant
   checks, then the summary) against bare ``Game.run`` with the same random agents and seeds, as the
   median of paired ratios of CPU times (``--repeat`` rounds, the sides taking each seed in turn, which
   goes first alternating) with their spread (``checking_cost``).

Run: python benchmarks/simulate.py [GAME...] [--games N] [--jobs J] [--sample N] [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "interpreter"))

from ludex.engine.agents import RandomAgent  # noqa: E402
from ludex.compliance.recorder import default_players  # noqa: E402
from ludex.compliance.simulation import load_for_simulation, render_simulation, simulate  # noqa: E402
from ludex.engine.game import Game  # noqa: E402
from ludex.resources import bundled_games  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from huntik_by_hand import spread  # noqa: E402  (beside this script)


def bare_cpu(key: str, seeds: list) -> float:
    """CPU seconds to play these seeds with the engine alone (as ``ludex run`` plays them)."""
    gamedef = load_for_simulation(key)
    names = default_players(gamedef)
    start = time.process_time()
    for seed in seeds:
        Game(gamedef, names, RandomAgent(seed), seed=seed).run()
    return time.process_time() - start


def checked_cpu(key: str, seeds: list) -> float:
    """CPU seconds to simulate these seeds (consecutive) as ``ludex simulate GAME --jobs 1`` does."""
    start = time.process_time()
    simulate(key, len(seeds), seed=seeds[0], jobs=1)
    return time.process_time() - start


#: ``ludex simulate`` CPU time / bare games' CPU time, at most (issue 26).
TARGET = 1.2


def checking_cost(key: str, seeds: list, rounds: int) -> dict:
    """``simulate`` over bare games for these seeds: in each of ``rounds`` rounds every seed is played by
    both sides one after the other, which goes first alternating, each game after a full garbage
    collection (so that neither pays for the other's garbage), the bare side a ``Game.run`` and the
    checked side a whole ``simulate(key, 1, seed=K, jobs=1)`` (its summary made for the one game, a cost
    a longer run shares out: the ratio errs high); a round's ratio is its checked CPU time over its bare
    one. After a first round not counted (it compiles the rules): ``{"median", "q1", "q3", "min",
    "max"}`` of the paired ratios."""
    for seed in seeds:
        bare_cpu(key, [seed])
        checked_cpu(key, [seed])
    ratios = []
    for r in range(rounds):
        bare = checked = 0.0
        for j, seed in enumerate(seeds):
            for side in ((bare_cpu, checked_cpu) if (r + j) % 2 == 0 else (checked_cpu, bare_cpu)):
                gc.collect()
                spent = side(key, [seed])
                if side is bare_cpu:
                    bare += spent
                else:
                    checked += spent
        ratios.append(checked / bare)
    return spread(ratios)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games_to_run", nargs="*", metavar="GAME", help="bundled games (default: all)")
    ap.add_argument("--games", type=int, default=1000, help="games per bundled game (default 1,000)")
    ap.add_argument("--jobs", type=int, default=0, help="processes (default 0: every core)")
    ap.add_argument("--sample", type=int, default=20, help="seeds for the checking-cost ratio (default 20)")
    ap.add_argument("--repeat", type=int, default=7, help="paired rounds for the ratio (default 7)")
    ap.add_argument("--report", action="store_true", help="print each game's full simulate report too")
    args = ap.parse_args(argv)
    jobs = args.jobs or os.cpu_count() or 1
    keys = args.games_to_run or bundled_games()
    problems = 0
    print(f"simulate: {args.games:,} games per game, seeds 1 to {args.games:,}, {jobs} job(s); "
          "CPU figures are per game, in the process that played it")
    print(f"  {'game':<11} {'problems':>8} {'wall s':>8} {'games/s':>8} {'cpu ms/game':>12} "
          f"{'games/cpu-s':>12} {'efficiency':>10} {'checking cost (min-max)':>24}")
    for key in keys:
        load_for_simulation(key)
        summary = simulate(key, args.games, seed=1, jobs=jobs)
        problems += len(summary["problems"])
        cpu = summary["cpu_seconds"]
        efficiency = cpu / (summary["seconds"] * min(jobs, args.games)) if summary["seconds"] else 0.0
        seeds = list(range(1, args.sample + 1))
        cost = checking_cost(key, seeds, args.repeat)
        print(f"  {key:<11} {len(summary['problems']):>8} {summary['seconds']:>8.1f} "
              f"{summary['games_per_second']:>8.2f} {1000 * cpu / args.games:>12.1f} "
              f"{args.games / cpu if cpu else 0:>12.2f} {efficiency:>10.2f} {cost['median']:>7.2f}x ({cost['min']:.2f}-{cost['max']:.2f})")
        if args.report or summary["problems"]:
            print("\n" + "\n".join("    " + line for line in render_simulation(summary).splitlines()) + "\n")
    if problems:
        print(f"{problems} problem(s) found: see the reports above; each names the seed that replays it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
