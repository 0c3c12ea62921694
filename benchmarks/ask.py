"""How long a judge waits for an answer: ``ludex ask huntik -`` on a one-step question, in a fresh
process, against Python's own start-up (``python -c pass``), as figures measured in one run.

The question is a bare script of one step (``run 500.2``: Huntik's turns of round 3, two passes, who
acts first), read from standard input as a judge would pipe it; its answer (expectations, winner, the
whole trace) is checked to be the one expected before anything is timed.

Method (the machine is shared and noisy): CPU time (the children's user and system time, from
``getrusage``), not wall time; ``--rounds R`` paired rounds, each running both commands back to back,
which goes first alternating, so that a noisy spell falls on both; the figures are the medians over
the rounds, with their interquartile range and min-max. Each process gets the same warm cache folder
(``LUDEX_CACHE_DIR``: the grammars' tables, made by a first run) and its modules' bytecode cached (as
after ``pip install``), so the figures are those of every question after the first. Printed: each
side's CPU time, and the paired difference (the answer's own cost: importing Ludex, loading and
compiling the game's rules, reading, checking and running the question, printing the answer). Then,
where the time of one answer goes (load the game, check the question, run it, words), measured
once in this process, for comparison.

Run: python benchmarks/ask.py [--rounds R] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "interpreter"))

from ludex.load import load_game  # noqa: E402
from ludex.scenarios.answer import render_answer  # noqa: E402
from ludex.scenarios.runner import load_question, run_scenario  # noqa: E402

#: One step: the turns of round 3 (500.2), both players passing; who acts first (500.1c).
QUESTION = """\
question "It is round 3 and nothing has changed who goes first. Who takes the first turn?"
players dana, leo
setup {
  set defending-player = dana
  set lead-player = leo
  set mission-timer = 3
}
dana passes
leo passes
run 500.2
expect first-turn-player == dana
expect trace 500.2 "dana acts first"
"""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh(args: list, env: dict, stdin: str = "") -> tuple[float, subprocess.CompletedProcess]:
    """``python ARGS`` in a fresh process: its CPU seconds, and what it did."""
    start = children_cpu()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, input=stdin, capture_output=True, text=True)
    return children_cpu() - start, done


def spread(values: list) -> dict:
    q1, q3 = (statistics.quantiles(values, n=4, method="inclusive")[::2] if len(values) > 1
              else (values[0], values[0]))
    return {"median": statistics.median(values), "q1": q1, "q3": q3, "min": min(values), "max": max(values)}


def in_process() -> dict:
    """Where the time of one answer goes, measured once in this process, which has loaded nothing of
    a game before (its rules are parsed, checked and compiled here, as in a fresh process; Ludex's
    modules are imported already)."""
    t0 = time.process_time()
    gamedef = load_game("huntik").game
    t1 = time.process_time()
    question = load_question(gamedef, QUESTION, "<stdin>")
    t2 = time.process_time()
    results = [run_scenario(gamedef, s) for s in question.scenarios]
    t3 = time.process_time()
    render_answer(results, "<stdin>")
    t4 = time.process_time()
    return {"load the game's rules": t1 - t0, "parse and check the question": t2 - t1,
            "run it (the rules compiled on first use)": t3 - t2, "put the answer in words": t4 - t3}


def measure(rounds: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="ludex-bench-ask-") as folder:
        cache, pyc = Path(folder) / "cache", Path(folder) / "pyc"
        env = dict(os.environ, LUDEX_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT / "interpreter"),
                   PYTHONPYCACHEPREFIX=str(pyc))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        ask = ["-m", "ludex", "ask", "huntik", "-"]
        _, done = fresh(ask, env, QUESTION)             # makes the cache and the bytecode
        if done.returncode != 0 or "passed: both expectations met" not in done.stdout \
                or "dana acts first" not in done.stdout:
            raise SystemExit(f"the question was not answered as expected:\n{done.stdout}{done.stderr}")
        fresh(["-c", "pass"], env)
        asked, started, paired = [], [], []
        for r in range(rounds):
            order = (("ask", "pass") if r % 2 == 0 else ("pass", "ask"))
            got = {}
            for side in order:
                got[side], done = fresh(ask, env, QUESTION) if side == "ask" else fresh(["-c", "pass"], env)
                if done.returncode != 0:
                    raise SystemExit(f"{side} failed:\n{done.stderr}")
            asked.append(got["ask"])
            started.append(got["pass"])
            paired.append(got["ask"] - got["pass"])
    return {"rounds": rounds, "ask": spread(asked), "python_start": spread(started),
            "ask_minus_start": spread(paired), "in_process": in_process()}


def report(figures: dict) -> str:
    ms = lambda s: f"{s * 1000:6.0f} ms"  # noqa: E731

    def line(label, s):
        return (f"  {label:<40} median {ms(s['median'])}   interquartile {ms(s['q1']).strip()}-"
                f"{ms(s['q3']).strip()}   min-max {ms(s['min']).strip()}-{ms(s['max']).strip()}")
    out = [f"ludex ask huntik - (a one-step question), fresh processes, CPU time, {figures['rounds']} paired rounds",
           line("ludex ask", figures["ask"]),
           line("python -c pass", figures["python_start"]),
           line("ludex ask - python -c pass (paired)", figures["ask_minus_start"]),
           "where an answer's time goes, once, in this process (Ludex imported already):"]
    out += [f"  {key:<40} {ms(seconds)}" for key, seconds in figures["in_process"].items()]
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15, help="paired rounds (default 15)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    figures = measure(max(1, args.rounds))
    print(json.dumps(figures, indent=1) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
