"""Issue 26's table in one run: every row measured now, beside its target, each "met" or "missed by X,
because ..." where the because is measured too (a profile's top entries, the slowest imports or tests),
not written in advance.

The rows, each measured by the benchmark module that owns it (imported, not copied):

1. engine ÷ hand-written Python, Huntik's whole random games, the trace's words made on both sides
   (``huntik_by_hand.compare``: paired interleaved rounds, the median ratio and its spread);
2. random games/s per core (``Game.run``) for agot, nightmare, huntik and halloween
   (``engine.games_per_second``: the median rate of the rounds, with its spread);
3. ``ludex simulate`` over bare games, CPU time (``simulate.checking_cost``: paired ratios), for each game;
4. ``ludex --help`` ÷ ``python -c pass``, fresh processes' CPU time, with bytecode cached and with none
   cached or written (``startup.measure``: paired ratios);
5. ``ludex check rules/huntik.ludex`` with a warm cache (the grammars' tables made by a first run, its
   bytecode cached): the child's CPU time in ms, the median of ``--rounds`` runs (``startup.fresh``);
6. the README's ``pytest``, serial, in a child process: its CPU time and wall time (minutes); skipped,
   and said to be "not measured", with ``--quick``.

A miss says why with what was measured: for the games rows (the engine ratio, games/s), the engine's
time split by what it does (``parts``: the legal searches, the trace's words, the state checks and the
rest, from ``cProfile``'s cumulative times) and the profile's top entries; for the engine ratio, also
what its legal searches alone cost against the hand-written side's whole game; for simulate, the
profile's top entries (``cProfile``, by own time, as shares of the total); for ``--help``, the slowest imports (``python -X
importtime``, by own time); for ``ludex check``, the child's profile; for ``pytest``, its slowest tests
(``--durations``). The machine is shared and noisy: the figures are CPU time, never a best-of-N.

Run: python benchmarks/targets.py [--quick] [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "interpreter"))
sys.path.insert(0, str(HERE))

import engine  # noqa: E402  (beside this script)
import huntik_by_hand  # noqa: E402
import simulate  # noqa: E402
import startup  # noqa: E402
from ludex.compliance.recorder import default_players  # noqa: E402
from ludex.compliance.simulation import load_for_simulation, simulate_one  # noqa: E402
from ludex.engine.agents import RandomAgent  # noqa: E402
from ludex.engine.game import Game  # noqa: E402

#: Issue 26's targets.
ENGINE_RATIO = 2.0
GAMES_PER_SECOND = {"agot": 200, "nightmare": 300, "huntik": 400, "halloween": 60}
SIMULATE_RATIO = simulate.TARGET
STARTUP_RATIO = startup.TARGET
CHECK_MS = 150
PYTEST_MINUTES = 3.0


def top_entries(run, n: int = 3) -> str:
    """``run()`` under ``cProfile``: its ``n`` functions of most own time, each with its share."""
    profile = cProfile.Profile()
    profile.runcall(run)
    return profile_words(pstats.Stats(profile), n)


def profile_words(stats: pstats.Stats, n: int) -> str:
    total = stats.total_tt or 1e-9
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:n]
    words = []
    for (path, line, name), (_, calls, own, _, _) in rows:
        rules = re.match(r"<ludex rules (.*):(\d+) #\d+>", path)       # code written for a rules file
        where = (f"{Path(rules.group(1)).name}:{rules.group(2)}" if rules else
                 f"{Path(path).name}:{line}" if not path.startswith("<") and path != "~" else "built-in")
        words.append(f"{name} ({where}) {100 * own / total:.0f}% in {calls} calls")
    return "the profile's top entries by own time: " + "; ".join(words)


#: The parts of a game's time told apart in ``parts``: a part is the cumulative time of the functions so
#: named (file name's end, function's name; a file name of None: the code written for a rules file).
#: None nests in another: a legal search runs no state check, and the trace is put into words after play.
PARTS = (("legal searches", None, "legal"),
         ("the trace's words", "game.py", "trace"),
         ("state checks", "game.py", "run_checks"))


def parts(run, games: int, per_game_ms: float | None = None) -> tuple[str, dict]:
    """``run()`` (``games`` whole games) under ``cProfile``, its time split by what the engine does
    (``PARTS``), each part as a share of the total, its calls a game and its cost a call, the rest being
    the rules' statements, the decisions and the engine running them. ``per_game_ms``: a game's time
    measured without the profiler, which each part's share is then also given in (the profiler's own
    cost is spread over every call alike, so its shares hold, its milliseconds do not). Out: the words,
    and each part's share by its name."""
    profile = cProfile.Profile()
    profile.runcall(run)
    stats = pstats.Stats(profile)
    total = stats.total_tt or 1e-9
    found = {name: [0, 0.0] for name, _, _ in PARTS}
    for (path, _, fn), (_, calls, _, cum, _) in stats.stats.items():
        for name, file, function in PARTS:
            if fn == function and (path.startswith("<ludex rules ") if file is None else path.endswith(file)):
                found[name][0] += calls
                found[name][1] += cum
    words, rest, shares = [], 1.0, {}
    for name, (calls, cum) in found.items():
        share = shares[name] = min(cum / total, 1.0)
        rest -= share
        if not calls:
            continue
        each = f", {1e6 * cum / calls:.1f} µs each under the profiler" if calls >= games else ""
        ms = f" ({share * per_game_ms:.2f} ms a game)" if per_game_ms else ""
        words.append(f"{name} {100 * share:.0f}%{ms} in {calls / games:.0f} calls a game{each}")
    words.append(f"the rest (the rules' statements, decisions, plays and the engine running them) "
                 f"{100 * max(rest, 0.0):.0f}%")
    return "the engine's time by what it does (cProfile, cumulative): " + "; ".join(words), shares


def verdict(value: float, target: float, at_most: bool, why) -> str:
    """``met``, or ``missed by X, because WHY`` (``why()`` measured only for a miss)."""
    if (value <= target) if at_most else (value >= target):
        return "met"
    by = value / target if at_most else target / value
    return f"missed by {by:.2f}x, because {why()}"


def row(what: str, now: str, target: str, outcome: str) -> None:
    print(f"- {what}\n    now: {now}\n    target: {target}: {outcome}", flush=True)


def engine_ratio(games: int, rounds: int) -> None:
    figures = huntik_by_hand.compare(games, rounds)
    r = figures["ratio"]
    gamedef, Game_, RandomAgent_ = huntik_by_hand._engine()

    def why():
        engine_ms, hand_ms = 1000 / figures["engine_games_per_s"], 1000 / figures["hand_games_per_s"]

        def play():
            for seed in range(1, games + 1):
                huntik_by_hand.by_engine(gamedef, Game_, RandomAgent_, seed)
        split, shares = parts(play, games, engine_ms)
        legal = shares["legal searches"] * engine_ms / hand_ms
        return (f"{split}. The legal searches alone take {legal:.1f}x the hand-written side's whole game "
                f"({hand_ms:.2f} ms), which lists a player's options from the ready cards alone, knowing from "
                "its deck lists what the rules make the engine check of every card at every decision (its "
                "type, its power, whether it is stunned), and keeps no rule coverage and no modifiers; "
                + top_entries(play, 2))
    row("engine ÷ hand-written Python, Huntik whole game, trace words included on both sides",
        f"{r['median']:.2f} (min-max {r['min']:.2f}-{r['max']:.2f}; {figures['rounds']} paired rounds of "
        f"{figures['games']} games; engine {figures['engine_games_per_s']:.0f} games/s, by hand "
        f"{figures['hand_games_per_s']:.0f}; {huntik_by_hand.WORK})",
        f"<= {ENGINE_RATIO:g}", verdict(r["median"], ENGINE_RATIO, True, why))


def games_per_second(games: int, rounds: int) -> None:
    for key, target in GAMES_PER_SECOND.items():
        rates, steps, _ = engine.games_per_second(key, games, rounds)
        gamedef = load_for_simulation(key)
        names = default_players(gamedef)

        def why():
            Game(gamedef, names, RandomAgent(1), seed=1).run()       # its rules compiled before the profile

            def play():
                for seed in range(1, games + 1):
                    Game(gamedef, names, RandomAgent(seed), seed=seed).run()
            return f"{parts(play, games)[0]}; {top_entries(play, 3)}"
        row(f"random games/s per core (Game.run), {key}",
            f"{rates['median']:.1f} (min-max {rates['min']:.1f}-{rates['max']:.1f}; {rounds} rounds of {games} "
            f"games, {steps:.0f} steps a game)", f">= {target}", verdict(rates["median"], target, False, why))


def simulate_ratio(games: int, rounds: int) -> None:
    seeds = list(range(1, games + 1))
    for key in GAMES_PER_SECOND:
        cost = simulate.checking_cost(key, seeds, rounds)

        def why():
            simulate_one(key, 1)
            return top_entries(lambda: [simulate_one(key, seed) for seed in seeds])
        row(f"ludex simulate over bare games, {key}",
            f"{cost['median']:.2f}x (min-max {cost['min']:.2f}-{cost['max']:.2f}; {rounds} paired rounds of "
            f"{games} games; simulate(key, 1, jobs=1) for each seed against Game.run)",
            f"<= {SIMULATE_RATIO:g}x", verdict(cost["median"], SIMULATE_RATIO, True, why))


def slowest_imports(bytecode: bool, n: int = 3) -> str:
    """``python -X importtime -m ludex --help``'s ``n`` imports of most own time, with the package's
    bytecode cached or (``bytecode`` false) none cached or written, as ``startup.measure`` runs it."""
    with tempfile.TemporaryDirectory(prefix="ludex-bench-imports-") as folder:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"))
        if not bytecode:
            shutil.copytree(ROOT / "interpreter" / "ludex", Path(folder) / "ludex",
                            ignore=shutil.ignore_patterns("__pycache__"))
            env.update(PYTHONPATH=folder, PYTHONDONTWRITEBYTECODE="1")
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "ludex", "--help"], cwd=ROOT, env=env,
                              capture_output=True, text=True)
    found = []
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)", line)
        if m:
            found.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    total = sum(own for own, _, _ in found) or 1
    top = sorted(found, reverse=True)[:n]
    return (f"-X importtime: {len(found)} modules imported, {total / 1000:.0f} ms of own time; the slowest: "
            + "; ".join(f"{name} {own / 1000:.1f} ms" for own, _, name in top))


def startup_ratio(rounds: int) -> None:
    for bytecode in (True, False):
        figures = startup.measure(rounds, bytecode)
        r = figures["ratio"]
        cpu = figures["cpu"]
        row(f"ludex --help ÷ python -c pass, {'bytecode cached' if bytecode else 'no bytecode cached or written'}",
            f"{r['median']:.2f}x (spread {r['low']:.2f}-{r['high']:.2f}; {rounds} paired rounds; ludex --help "
            f"{cpu['ludex --help']['median'] * 1000:.0f} ms, python -c pass {cpu['python -c pass']['median'] * 1000:.0f} "
            "ms of CPU)", f"<= {STARTUP_RATIO:g}x", verdict(r["median"], STARTUP_RATIO, True, lambda: slowest_imports(bytecode)))


def check_ms(rounds: int) -> None:
    args = ["-m", "ludex", "check", "rules/huntik.ludex"]
    with tempfile.TemporaryDirectory(prefix="ludex-bench-targets-") as folder:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"), LUDEX_CACHE_DIR=str(Path(folder) / "cache"),
                   PYTHONPYCACHEPREFIX=str(Path(folder) / "pyc"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        startup.fresh(args, env)           # the cache and the bytecode made: every run after is warm
        times = [startup.fresh(args, env) for _ in range(rounds)]
        ms = 1000 * statistics.median(times)

        def why():
            out = Path(folder) / "check.prof"
            subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), *args], cwd=ROOT, env=env,
                           capture_output=True, check=True)
            return "in the child, " + profile_words(pstats.Stats(str(out)), 3)
        row("ludex check rules/huntik.ludex, warm cache (CPU of the child)",
            f"{ms:.0f} ms (min-max {1000 * min(times):.0f}-{1000 * max(times):.0f}; median of {rounds} runs)",
            f"<= {CHECK_MS} ms", verdict(ms, CHECK_MS, True, why))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pytest_minutes(quick: bool) -> None:
    what = "the README's pytest, serial, this machine"
    if quick:
        row(what, "not measured (--quick)", f"<= {PYTEST_MINUTES:g} min", "not measured")
        return
    env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"))
    cpu, start = children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=3"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = (time.perf_counter() - start) / 60, (children_cpu() - cpu) / 60
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else f"exit code {done.returncode}"

    def why():
        slow = re.findall(r"^([\d.]+)s (?:call|setup|teardown)\s+(\S+)", done.stdout, re.M)
        return "its slowest tests (--durations): " + "; ".join(f"{name} {float(s):.0f} s" for s, name in slow[:3])
    row(what, f"{cpu:.1f} min of CPU, {wall:.1f} min of wall time ({tail})", f"<= {PYTEST_MINUTES:g} min (CPU)",
        verdict(cpu, PYTEST_MINUTES, True, why))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="skip the test suite's row (it takes minutes)")
    ap.add_argument("--games", type=int, default=20, help="games per round for the game rows (default 20)")
    ap.add_argument("--rounds", type=int, default=7, help="paired rounds or runs per row (default 7)")
    args = ap.parse_args(argv)
    print(f"issue 26's table, measured now (CPU time; {args.rounds} rounds, {args.games} games a round):")
    engine_ratio(args.games, args.rounds)
    games_per_second(args.games, args.rounds)
    simulate_ratio(args.games, args.rounds)
    startup_ratio(max(3, 3 * args.rounds))
    check_ms(args.rounds)
    pytest_minutes(args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
