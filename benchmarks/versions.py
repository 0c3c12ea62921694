"""Two versions of Ludex timed against each other on the same work, in one run, as paired ratios.

In: two checkouts of the project, OLD and NEW (default: the one holding this script). Each is either
the current layout (the package ``ludex`` in ``interpreter/ludex/``) or the one before the rename (the
package ``interpreter`` at the checkout's top); which is found by looking for
``interpreter/ludex/__init__.py`` or ``interpreter/__init__.py``.

The work, the same on both sides:

1. For each bundled game (agot, huntik, nightmare, halloween), ``--games N`` whole random games, seeds
   S to S+N-1 (``--seed S``), each played as ``ludex run GAME --seed K`` plays it: the game's fewest
   players ``p1``, ``p2``, ..., ``RandomAgent(K)``, ``seed=K``, and every trace event put into the words
   the command prints (``format_event``, in the public view where there are views, then the ``game
   over after ... events: ...`` line), the lines built into a list, not printed. The rules are loaded
   and compiled once, before any timing.
2. Huntik's engine ratio of ``benchmarks/huntik_by_hand.py``: the engine's CPU time over the
   hand-written Python's for the same N games (the trace's words made on both sides), the two checked
   trace for trace first. The hand-written side is this checkout's ``huntik_by_hand.play`` on both sides
   (it imports nothing of Ludex), so only the engine differs; its own new/old ratio is printed as the
   noise floor, since the code is the same.

Method (the machine is shared and noisy): each side runs in its own Python subprocess, a worker that
stays alive, with its own ``PYTHONPATH``, so the two packages never meet in one process. The parent
plays ``--rounds R`` rounds; in each, both workers play the same batch of games (each game timed in
CPU time, ``time.process_time()``, after a full garbage collection), the two sides taking each seed in
turn, milliseconds apart, and which goes first alternating (old, new; new, old; ...), so that a noisy
spell falls on both. For each round and game it takes the ratio of the batch's CPU times, new/old; the
figures are the median of the R paired ratios and their spread.

Out: a table, per game, of each side's median games/s and the median new/old CPU-time ratio (below 1:
the new one is faster) with its interquartile range and min-max; the same for the Huntik engine ratio;
and whether the two sides' traces were identical for every game played (a SHA-256 of each game's text
trace; a restructure must change no trace). ``--json`` prints the same as JSON. The exit code is 0,
or 1 if the traces differ (between the sides, or between two rounds of one side).

Run: python benchmarks/versions.py OLD_CHECKOUT [NEW_CHECKOUT] [--games N] [--rounds R] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAMES = ("agot", "huntik", "nightmare", "halloween")

#: Where each layout keeps the pieces a game needs, by package: (module, name) for every piece.
PIECES = {
    "ludex": {"RandomAgent": ("ludex.engine.agents", "RandomAgent"),
              "Game": ("ludex.engine.game", "Game"),
              "Program": ("ludex.program.program", "Program"),
              "load_game": ("ludex.load", "load_game"),
              "format_event": ("ludex.engine.trace", "format_event"),
              "default_count": ("ludex.parse.definition", "default_count")},
    "interpreter": {"RandomAgent": ("interpreter.agents", "RandomAgent"),
                    "Game": ("interpreter.engine", "Game"),
                    "Program": ("interpreter.engine", "Program"),
                    "load_game": ("interpreter.project", "load_game"),
                    "format_event": ("interpreter.trace", "format_event"),
                    "default_count": ("interpreter.model", "default_count")},
}


def layout(checkout: Path) -> tuple[str, Path]:
    """``(package, the folder to put on PYTHONPATH)`` for a checkout of either layout."""
    if (checkout / "interpreter" / "ludex" / "__init__.py").is_file():
        return "ludex", checkout / "interpreter"
    if (checkout / "interpreter" / "__init__.py").is_file():
        return "interpreter", checkout
    raise SystemExit(f"versions: {checkout} holds neither interpreter/ludex/ nor interpreter/ as a package")


def describe_checkout(checkout: Path) -> str:
    """The checkout's commit (and whether what is timed has changes since), for the header; "" if it is
    not a git clone."""
    try:
        head = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%h %s"], check=False,
                              capture_output=True, text=True, timeout=10).stdout.strip()
        # only what is timed: the package, the rules it plays and the grammars that read them
        dirty = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no", "--",
                                "interpreter", "rules", "grammar"],
                               check=False, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return (head[:60] + ("..." if len(head) > 60 else "")) + (" (with uncommitted changes to what is timed)" if dirty else "")


# ---------------------------------------------------------------- the worker: one side, in its own process


class Worker:
    """One side's work, in the process that imported its package: the games' rules compiled once, and
    games timed one at a time on request."""

    def __init__(self, package: str, games: list[str], seeds: list[int]):
        import importlib
        self.pieces = {name: getattr(importlib.import_module(module), attr)
                       for name, (module, attr) in PIECES[package].items()}
        self.package_file = importlib.import_module(package).__file__
        self.seeds = seeds
        self.defs, self.compile_ms = {}, {}
        for key in games:
            loaded = self.pieces["load_game"](key)
            assert loaded.ok, f"{key}: {loaded.diagnostics}"
            start = time.perf_counter()
            self.pieces["Program"].of(loaded.game)
            self.compile_ms[key] = (time.perf_counter() - start) * 1000
            self.defs[key] = loaded.game
        self.huntik = self._huntik_check()

    def play(self, key: str, seed: int):
        """One game as ``ludex run KEY --seed SEED`` plays it, its printed lines built: (lines, steps)."""
        p = self.pieces
        gamedef = self.defs[key]
        count = p["default_count"](gamedef.header, "")
        lines = []
        format_event = p["format_event"]
        game = p["Game"](gamedef, [f"p{i + 1}" for i in range(count)], p["RandomAgent"](seed), seed=seed, format="")
        if "view" in inspect.signature(format_event).parameters:    # the public view, as the command prints
            game.listen(lambda e: lines.append(format_event(e, "flow", "(public)")))
        else:                                                       # (a version with one view only)
            game.listen(lambda e: lines.append(format_event(e)))
        game.run()
        winners = ", ".join(w.name for w in game.winners) if game.winners else "nobody (a draw)"
        lines.append(f"game over after {len(game.trace)} events: {winners}")
        return lines, game.steps

    def time_game(self, key: str, seed: int) -> dict:
        """CPU seconds for one game; its trace's hash (made after the clock stops)."""
        gc.collect()
        start = time.process_time()
        lines, steps = self.play(key, seed)
        cpu = time.process_time() - start
        return {"cpu": cpu, "hash": trace_hash(lines), "steps": steps, "lines": len(lines)}

    def _huntik_check(self) -> dict:
        """Whether huntik_by_hand.py can be compared with this side's engine: its games must be the
        engine's, trace for trace (its own check, given this side's pieces instead of its imports)."""
        if "huntik" not in self.defs:
            return {"ok": False, "why": "huntik is not among the games"}
        try:
            import huntik_by_hand  # beside this script; ``play`` imports nothing of Ludex
            self.by_hand = huntik_by_hand
            events = huntik_by_hand.check_same(self.defs["huntik"], self.pieces["Game"],
                                               self.pieces["RandomAgent"], self.seeds)
        except Exception as exc:            # an old checkout the hand-written game no longer matches
            return {"ok": False, "why": f"{type(exc).__name__}: {exc}"}
        return {"ok": True, "events": events}

    def time_huntik_ratio(self, seed: int) -> dict:
        """CPU seconds of the same game by the engine and by hand, the work ``huntik_by_hand.paired``
        times (on both sides the trace's words made: ``huntik_by_hand.WORK``)."""
        gamedef, Game, RandomAgent = self.defs["huntik"], self.pieces["Game"], self.pieces["RandomAgent"]
        gc.collect()
        start = time.process_time()
        self.by_hand.by_engine(gamedef, Game, RandomAgent, seed)
        engine = time.process_time() - start
        gc.collect()
        start = time.process_time()
        self.by_hand.by_hand(seed)
        hand = time.process_time() - start
        return {"engine": engine, "hand": hand}


def trace_hash(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def worker_main(package: str) -> int:
    """Answer the parent's requests, one JSON line each on stdin, one JSON line each on stdout."""
    reply_to = sys.stdout
    sys.stdout = sys.stderr             # anything the package prints must not break the replies
    worker = None
    for line in sys.stdin:
        request = json.loads(line)
        try:
            op = request["op"]
            if op == "setup":
                worker = Worker(package, request["games"], request["seeds"])
                # every game played once before any is timed: a warm-up, and the traces to compare
                first = {key: [worker.time_game(key, seed) for seed in worker.seeds] for key in worker.defs}
                reply = {"package": package, "file": worker.package_file, "python": sys.version.split()[0],
                         "compile_ms": worker.compile_ms, "huntik": worker.huntik,
                         "games": {key: {"hashes": [g["hash"] for g in played],
                                         "steps": statistics.mean(g["steps"] for g in played),
                                         "lines": statistics.mean(g["lines"] for g in played)}
                                   for key, played in first.items()}}
            elif op == "game":
                reply = worker.time_game(request["game"], request["seed"])
            elif op == "huntik":
                reply = worker.time_huntik_ratio(request["seed"])
            elif op == "quit":
                return 0
            else:
                raise ValueError(f"unknown request {op!r}")
        except Exception:               # whatever failed, the parent says so with the worker's traceback
            reply = {"error": traceback.format_exc()}
        reply_to.write(json.dumps(reply) + "\n")
        reply_to.flush()
    return 0


# ---------------------------------------------------------------- the parent: both sides, interleaved


class Side:
    """A worker subprocess for one checkout, with its own PYTHONPATH."""

    def __init__(self, label: str, checkout: Path):
        self.label, self.checkout = label, checkout
        self.package, path = layout(checkout)
        env = dict(os.environ)
        env["PYTHONPATH"] = str(path)   # replaced, not added to: the other side's package must not be seen
        env["PYTHONHASHSEED"] = "0"     # the same string hashing in both, so no side draws a luckier set order
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", self.package],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
                                     cwd=str(HERE))

    def send(self, request: dict) -> None:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"versions: the {self.label} worker ({self.checkout}) stopped "
                               f"(exit code {self.proc.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"versions: the {self.label} worker ({self.checkout}) failed:\n{reply['error']}")
        return reply

    def ask(self, request: dict) -> dict:
        self.send(request)
        return self.receive()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send({"op": "quit"})
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def spread(values: list[float]) -> dict:
    """Median, quartiles and extremes of the paired ratios."""
    q1, q3 = (statistics.quantiles(values, n=4, method="inclusive")[::2] if len(values) > 1
              else (values[0], values[0]))
    return {"median": statistics.median(values), "q1": q1, "q3": q3, "min": min(values), "max": max(values),
            "ratios": values}


def compare(old: Path, new: Path, games: int = 20, rounds: int = 7, seed: int = 1,
            keys: tuple = GAMES, progress=None) -> dict:
    """Time the same work on both checkouts in interleaved rounds; what the report prints, as a dict."""
    seeds = list(range(seed, seed + games))
    sides = [Side("old", Path(old).resolve()), Side("new", Path(new).resolve())]
    try:
        for side in sides:              # both load and compile at once: none of it is timed
            side.send({"op": "setup", "games": list(keys), "seeds": seeds})
        setups = [side.receive() for side in sides]
        ratio_ok = all(s["huntik"]["ok"] for s in setups)
        # per round and side: CPU seconds of each game's batch, and Huntik's (engine, hand-written) batch
        cpu = {key: ([], []) for key in keys}
        huntik = ([], [])
        hashes_stable = True
        for r in range(rounds):
            for key in keys:
                batch = [0.0, 0.0]
                for j, k in enumerate(seeds):
                    # the two sides play each seed one after the other, milliseconds apart, so that a
                    # noisy spell of the shared machine falls on both; who goes first alternates
                    for i in ((0, 1) if (r + j) % 2 == 0 else (1, 0)):
                        reply = sides[i].ask({"op": "game", "game": key, "seed": k})
                        batch[i] += reply["cpu"]
                        hashes_stable &= reply["hash"] == setups[i]["games"][key]["hashes"][j]
                for i in (0, 1):
                    cpu[key][i].append(batch[i])
            if ratio_ok:
                batch = [[0.0, 0.0], [0.0, 0.0]]
                for j, k in enumerate(seeds):
                    for i in ((0, 1) if (r + j) % 2 == 0 else (1, 0)):
                        reply = sides[i].ask({"op": "huntik", "seed": k})
                        batch[i][0] += reply["engine"]
                        batch[i][1] += reply["hand"]
                for i in (0, 1):
                    huntik[i].append({"engine": batch[i][0], "hand": batch[i][1]})
            if progress:
                progress(f"round {r + 1}/{rounds} done")
    finally:
        for side in sides:
            side.close()

    report = {"games": games, "rounds": rounds, "seeds": [seeds[0], seeds[-1]], "sides": [], "per_game": {},
              "traces_identical": True, "traces_stable": hashes_stable, "differing": {}}
    for side, setup in zip(sides, setups):
        report["sides"].append({"label": side.label, "checkout": str(side.checkout),
                                "commit": describe_checkout(side.checkout), "package": setup["package"],
                                "package_file": setup["file"], "python": setup["python"],
                                "compile_ms": setup["compile_ms"], "huntik_by_hand": setup["huntik"]})
    for key in keys:
        old_cpu, new_cpu = cpu[key]
        old_hashes, new_hashes = (s["games"][key]["hashes"] for s in setups)
        differing = [k for k, a, b in zip(seeds, old_hashes, new_hashes) if a != b]
        if differing:
            report["traces_identical"] = False
            report["differing"][key] = differing
        report["per_game"][key] = {
            "old_games_per_s": statistics.median(games / t for t in old_cpu),
            "new_games_per_s": statistics.median(games / t for t in new_cpu),
            "steps": setups[1]["games"][key]["steps"], "lines": setups[1]["games"][key]["lines"],
            "traces_identical": not differing,
            "new_over_old": spread([n / o for o, n in zip(old_cpu, new_cpu)])}
    if ratio_ok:
        old_r, new_r = ([t["engine"] / t["hand"] for t in times] for times in huntik)
        report["huntik_engine_ratio"] = {
            "old": statistics.median(old_r), "new": statistics.median(new_r),
            "new_over_old": spread([n / o for o, n in zip(old_r, new_r)]),
            "hand_new_over_old": spread([n["hand"] / o["hand"] for o, n in zip(*huntik)])}
    else:
        report["huntik_engine_ratio"] = None
    return report


def render(report: dict) -> str:
    """The report as the table the script prints."""
    out = []
    n, (first, last) = report["games"], report["seeds"]
    for side in report["sides"]:
        out.append(f"{side['label']}: {side['checkout']}  {side['commit']}")
        out.append(f"     package {side['package']} ({side['package_file']}), Python {side['python']}")
    out.append(f"work, the same on both sides: per game {n} whole random games, seeds {first} to {last}, each "
               f"played as 'ludex run GAME --seed K' plays it (its fewest players, RandomAgent(K)), every event "
               f"put into the words the command prints (format_event and the game-over line: built, not "
               f"printed); rules compiled once, before timing")
    out.append(f"method: a worker process per side; {report['rounds']} rounds, the sides taking each seed in turn, "
               f"the one going first alternating; CPU time, each game after a full collection; new/old is the "
               f"paired ratio of a round's CPU times (below 1: new is faster), games/s the median of the rounds")
    out.append("")
    out.append(f"  {'game':<10} {'steps':>7} {'lines':>6} {'old games/s':>12} {'new games/s':>12} "
               f"{'new/old':>8} {'interquartile':>15} {'min-max':>13} {'traces':>10}")
    for key, g in report["per_game"].items():
        s = g["new_over_old"]
        out.append(f"  {key:<10} {g['steps']:>7.0f} {g['lines']:>6.0f} {g['old_games_per_s']:>12.1f} "
                   f"{g['new_games_per_s']:>12.1f} {s['median']:>8.3f} {s['q1']:>7.3f}-{s['q3']:<7.3f} "
                   f"{s['min']:>6.3f}-{s['max']:<6.3f} {'identical' if g['traces_identical'] else 'DIFFER':>10}")
    out.append("")
    h = report["huntik_engine_ratio"]
    if h:
        s, c = h["new_over_old"], h["hand_new_over_old"]
        out.append(f"huntik, engine ÷ hand-written (benchmarks/huntik_by_hand.py, the same {n} games trace for "
                   f"trace, words on both sides): old {h['old']:.2f}, new {h['new']:.2f}; paired new/old "
                   f"{s['median']:.3f} (interquartile {s['q1']:.3f}-{s['q3']:.3f}, min-max {s['min']:.3f}-"
                   f"{s['max']:.3f})")
        out.append(f"  noise floor: the hand-written game, the same code on both sides, new/old {c['median']:.3f} "
                   f"(interquartile {c['q1']:.3f}-{c['q3']:.3f})")
    else:
        why = "; ".join(f"{s['label']}: {s['huntik_by_hand']['why']}" for s in report["sides"]
                        if not s["huntik_by_hand"]["ok"])
        out.append(f"huntik, engine ÷ hand-written: not measured ({why})")
    worst = max([g["new_over_old"]["median"] for g in report["per_game"].values()]
                + ([h["new_over_old"]["median"]] if h else []))
    out.append(f"worst paired median new/old: {worst:.3f} ({'within' if worst <= 1.05 else 'OUTSIDE'} "
               f"the 5% allowed)")
    total = len(report["per_game"]) * n
    if report["traces_identical"]:
        out.append(f"traces: identical on both sides for all {total} games (SHA-256 of each game's text trace)")
    else:
        out.append("traces: DIFFER for " + "; ".join(f"{key} seeds {', '.join(map(str, seeds))}"
                                                      for key, seeds in report["differing"].items()))
    if not report["traces_stable"]:
        out.append("traces: a side played a seed differently in two rounds (a game that is not deterministic)")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="the old checkout")
    ap.add_argument("new", type=Path, nargs="?", default=HERE.parent, help="the new checkout (default: this one)")
    ap.add_argument("--games", type=int, default=20, help="random games per bundled game and round (default 20)")
    ap.add_argument("--rounds", type=int, default=7, help="paired rounds (default 7)")
    ap.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        ap.error("--games and --rounds must be at least 1")
    started = time.perf_counter()
    report = compare(args.old, args.new, args.games, args.rounds, args.seed,
                     progress=lambda text: print(text, file=sys.stderr, flush=True))
    report["wall_seconds"] = time.perf_counter() - started
    print(json.dumps(report, indent=1) if args.json else render(report))
    return 0 if report["traces_identical"] and report["traces_stable"] else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        sys.exit(worker_main(sys.argv[2]))
    sys.exit(main())
