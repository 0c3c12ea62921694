"""How long ``ludex --help`` takes to start, against Python's own start-up (``python -c pass``), as a
ratio measured in one run; the target is at most 4x.

Method (the machine is shared and noisy): CPU time of each child process (its user and system time,
from ``getrusage(RUSAGE_CHILDREN)``), not wall time; ``--rounds R`` paired rounds, each running
``python -m ludex --help`` and ``python -c pass`` back to back, which goes first alternating, so that
a noisy spell falls on both; the ratio is taken within each round. Printed: each side's median CPU
time, and the median of the paired ratios with their spread (second-lowest to second-highest, so one
outlier either way does not set it), and whether the median meets the target.

Each process finds its modules' bytecode cached (``PYTHONPYCACHEPREFIX``, a folder made by a first
run, as after ``pip install``), so the figures are those of every start after the first; with
``--no-bytecode``, Ludex's modules have none cached and none is written (``PYTHONDONTWRITEBYTECODE``,
as in an editable install on a machine that sets it: a copy of the package without ``__pycache__``),
and each start compiles the Ludex modules it imports; Python's own modules keep their bytecode.

Run: python benchmarks/startup.py [--rounds R] [--no-bytecode] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: ``ludex --help`` CPU time / ``python -c pass`` CPU time, at most (issue 26).
TARGET = 4.0

SIDES = {"ludex --help": ["-m", "ludex", "--help"], "python -c pass": ["-c", "pass"]}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh(args: list, env: dict) -> float:
    """``python ARGS`` in a fresh process: its CPU seconds (it must succeed, and ``--help`` print the
    usage)."""
    start = children_cpu()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    spent = children_cpu() - start
    if done.returncode != 0 or (args[-1] == "--help" and "usage: ludex" not in done.stdout):
        raise SystemExit(f"python {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return spent


def spread(values: list) -> dict:
    ordered = sorted(values)
    inner = ordered[1:-1] if len(ordered) > 2 else ordered
    return {"median": statistics.median(ordered), "low": inner[0], "high": inner[-1]}


def measure(rounds: int, bytecode: bool) -> dict:
    with tempfile.TemporaryDirectory(prefix="ludex-bench-startup-") as folder:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"))
        if bytecode:
            env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pyc")
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        else:
            # a copy of the package with no __pycache__ in it (Python's own modules keep theirs, as
            # an installed Python has them)
            shutil.copytree(ROOT / "interpreter" / "ludex", Path(folder) / "ludex",
                            ignore=shutil.ignore_patterns("__pycache__"))
            env.update(PYTHONPATH=folder, PYTHONDONTWRITEBYTECODE="1")
            env.pop("PYTHONPYCACHEPREFIX", None)
        for args in SIDES.values():     # makes the bytecode (with --no-bytecode: a warm-up only)
            fresh(args, env)
        times = {side: [] for side in SIDES}
        ratios = []
        for r in range(rounds):
            order = list(SIDES) if r % 2 == 0 else list(SIDES)[::-1]
            got = {side: fresh(SIDES[side], env) for side in order}
            for side in SIDES:
                times[side].append(got[side])
            ratios.append(got["ludex --help"] / max(got["python -c pass"], 1e-6))
    ratio = spread(ratios)
    return {"rounds": rounds, "bytecode": bytecode, "target": TARGET, "meets": ratio["median"] <= TARGET,
            "cpu": {side: spread(values) for side, values in times.items()}, "ratio": ratio}


def report(figures: dict) -> str:
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    cached = "bytecode cached" if figures["bytecode"] else "no bytecode cached or written"
    out = [f"start-up, fresh processes, CPU time (children's user + system), {figures['rounds']} paired "
           f"rounds, {cached}"]
    for side, s in figures["cpu"].items():
        out.append(f"  {side:<16} median {ms(s['median']):>9}   spread {ms(s['low'])} - {ms(s['high'])}")
    r = figures["ratio"]
    verdict = ("meets the target" if figures["meets"] else
               f"misses the target by {r['median'] / figures['target']:.2f}x")
    out.append(f"  ludex --help / python -c pass (paired): median {r['median']:.2f}x   spread "
               f"{r['low']:.2f}x - {r['high']:.2f}x   target <= {figures['target']:g}x: {verdict}")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=21, help="paired rounds (default 21)")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="cache no bytecode: each start compiles what it imports")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    figures = measure(max(1, args.rounds), not args.no_bytecode)
    print(json.dumps(figures, indent=1) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
