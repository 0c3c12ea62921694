"""``ludex simulate GAME``: many games played by random agents, the problems found reported with the
seeds that replay them.

In: the game and the options. Out: the summary (text or JSON) and the exit code. The games are played
here (``--jobs``) or on a Dask cluster (``--cluster``, ``compliance/cluster.py``).
"""

from __future__ import annotations

import json
import sys

from ..command import held_signals
from ..compliance.simulation import DEFAULT_MAX_ROUNDS, load_for_simulation, progress_bar, render_simulation, simulate
from . import EXIT_FAILURES, EXIT_OK, EXIT_USAGE, SEED_MOST
from .common import load_one, table_problem


def cmd_simulate(args) -> int:
    if args.seed + args.games - 1 > SEED_MOST:          # game i plays seed S+i: each must be a seed
        args.usage_error(f"argument --seed: {args.games} games from seed {args.seed} go past the last seed, "
                         f"{SEED_MOST}")
    gamedef = load_one(args.game)
    problem = table_problem(gamedef, args.players, args.format)
    if problem:
        print(f"ludex: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    load_for_simulation(args.game)
    max_rounds = args.max_rounds if args.max_rounds is not None else DEFAULT_MAX_ROUNDS
    if args.cluster is None:
        summary = simulate(args.game, args.games, seed=args.seed, jobs=1 if args.jobs is None else args.jobs,
                           players=args.players, fmt=args.format, max_rounds=max_rounds, max_steps=args.max_steps,
                           progress=progress_bar())
    else:
        # imported here, not at the top: only a run on a cluster needs Dask, and it is slow to import
        from ..compliance.cluster import LOCAL, ClusterError, simulate_on_cluster
        if args.jobs is not None and args.cluster != LOCAL:
            args.usage_error("argument --jobs: the workers are the cluster's own (--jobs goes with --cluster local "
                             "only)")
        try:
            summary = simulate_on_cluster(args.cluster, args.game, args.games, seed=args.seed, workers=args.jobs,
                                          players=args.players, fmt=args.format, max_rounds=max_rounds,
                                          max_steps=args.max_steps, progress=progress_bar())
        except ClusterError as exc:
            print(f"ludex: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    text = json.dumps(summary, indent=1) if args.json else render_simulation(summary)
    with held_signals():                # the summary is written whole; a stop now is obeyed after it
        print(text)
        sys.stdout.flush()
    return EXIT_FAILURES if summary["problems"] else EXIT_OK
