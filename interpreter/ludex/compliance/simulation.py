"""Checking the rules by playing them: a game's key (or rules file) and seeds in, plain data out.

``play_one(gamedef, game_key, seed)`` plays one whole game with random agents and classifies how it
ended, returning plain data: the one home of what a unit of simulation does. ``simulate_one(game_key,
seed)`` runs it on the game read from this machine's files, ``simulate_sources(key, sources, ...)`` on
the rules' texts a worker elsewhere was sent (compiled once per process): both pure functions of
their arguments, the units an executor can run. ``simulate`` runs many, in parallel processes here,
and ``summarise`` sums them up (as it does for ``compliance/cluster.py``, which runs the units on a
Dask cluster): games that did not end within the game's bound, players left with no legal option,
invariant breaks, engine errors, rule coverage, winners, lengths and games per second.
``render_simulation`` writes the summary for a reader; ``progress_bar`` draws one on a terminal.

The worker processes leave nothing behind: they ignore SIGINT (Ctrl-C reaches a terminal's whole
process group: stopping is the parent's to do), die at SIGTERM, and the parent ends them all on its
way out, whatever ends it (a finished run, an error, a stop by a signal: ``ludex.command``). A
parent killed outright (SIGKILL), which cannot end them, is noticed: each worker then ends itself,
without a word.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Optional

from ..diagnostics import Diagnostic, LudexError, SourceError, read_source
from ..engine.agents import RandomAgent
from ..engine.game import STEP_BUDGET, Game
from ..load import group_by_game, load_paths, load_sources, rule_files
from ..parse import ast as A
from ..parse.definition import GameDef
from ..runtime.records import Violation
from .recorder import default_players
from .watch import INCONSISTENT, CheckedAgent, InvariantBroken, UnendingGame, Watch, round_rule_of

#: How many rounds a simulated game may last before it is reported as not ending. A round is one
#: pass of the flow's outer ``repeat`` (counted when the first rule it runs begins). No bundled game
#: comes near it: AGoT's draw decks run out by round 22, Huntik ends after round 7.
DEFAULT_MAX_ROUNDS = 100


def rules_files_of(game_key: str) -> tuple[str, list[Path]]:
    """The game's key and its rules files: a bundled game by key, or a rules file (or folder) by path."""
    path = Path(game_key)
    if path.suffix == ".ludex" or path.exists():
        return next(iter(group_by_game([path]).items()))
    return game_key, rule_files(game_key)


def _checked(game_key: str, loaded) -> GameDef:
    if not loaded.ok:
        raise SourceError(loaded.diagnostics)
    if not loaded.game.rules:
        raise SourceError([Diagnostic("static", "L000", f"no game '{game_key}' was found", A.NOWHERE)])
    return loaded.game


@lru_cache(maxsize=None)
def load_for_simulation(game_key: str) -> GameDef:
    """A bundled game by key, or a rules file by path (cached per process)."""
    return _checked(game_key, load_paths(*rules_files_of(game_key)))


def rules_sources(game_key: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The game's key and each of its rules files as (path, text): what a worker that cannot read
    this machine's files is sent to compile the game from (``simulate_sources``)."""
    key, paths = rules_files_of(game_key)
    return key, tuple((str(path), read_source(path)) for path in paths)


@lru_cache(maxsize=4)
def _compiled(game_key: str, key: str, sources: tuple) -> GameDef:
    # one compilation per process and game: a worker plays many seeds of the same rules
    return _checked(game_key, load_sources(key, list(sources)))


def replay_command(game_key: str, seed: int, players: Optional[int] = None, fmt: str = "",
                   max_rounds: Optional[int] = None, max_steps: Optional[int] = None) -> str:
    parts = [f"ludex run {game_key} --seed {seed}"]
    if players:
        parts.append(f"--players {players}")
    if fmt:
        parts.append(f"--format {fmt}")
    if max_rounds is not None:
        parts.append(f"--max-rounds {max_rounds}")
    if max_steps is not None:
        parts.append(f"--max-steps {max_steps}")
    return " ".join(parts)


def simulate_one(game_key: str, seed: int, players: Optional[int] = None, fmt: str = "",
                 max_rounds: Optional[int] = DEFAULT_MAX_ROUNDS, max_steps: Optional[int] = None) -> dict:
    """Play one whole game of ``game_key`` (a bundled game or a rules file) with random agents, as
    ``ludex run GAME --seed SEED`` plays it, checking the state's invariants after every rule run and
    at every decision. Returns plain data:

    status: won | draw (clean); unfinished (past ``max_rounds`` rounds, the step budget, or the
    nesting limit) | no-option (a player to act had no legal option) | invariant (an impossible
    state) | error (a rule could not run) | crash (a Python exception: an engine bug)."""
    return play_one(load_for_simulation(game_key), game_key, seed, players, fmt, max_rounds, max_steps)


def simulate_sources(key: str, sources: tuple, game_key: str, seed: int, players: Optional[int] = None,
                     fmt: str = "", max_rounds: Optional[int] = DEFAULT_MAX_ROUNDS,
                     max_steps: Optional[int] = None) -> dict:
    """``simulate_one`` on a machine that has the rules only as the texts it was sent (``rules_sources``:
    strings, never a compiled object): the unit a distributed worker runs. The game is compiled once
    per process and reused for every seed after; the result is the same plain data, seed for seed."""
    sources = tuple((str(path), str(text)) for path, text in sources)
    return play_one(_compiled(game_key, key, sources), game_key, seed, players, fmt, max_rounds, max_steps)


def play_one(gamedef: GameDef, game_key: str, seed: int, players: Optional[int] = None, fmt: str = "",
             max_rounds: Optional[int] = DEFAULT_MAX_ROUNDS, max_steps: Optional[int] = None) -> dict:
    """What a unit of simulation does, wherever it runs: play seed ``seed`` of the compiled game,
    named ``game_key`` in its replay command (see ``simulate_one``)."""
    names = default_players(gamedef, players, fmt)
    agent = CheckedAgent(RandomAgent(seed))
    budget = max_steps if max_steps is not None else STEP_BUDGET
    game = Game(gamedef, names, agent, seed=seed, format=fmt, step_budget=budget)
    watch = agent.watch = Watch(game, max_rounds=max_rounds, invariants=True)
    result = {"game": game_key, "seed": seed, "players": names, "format": game.state.format, "status": "",
              "winners": [], "rounds": 0, "decisions": 0, "steps": 0, "events": 0, "seconds": 0.0, "cpu": 0.0,
              "exercised": [], "problem": None,
              "replay": replay_command(game_key, seed, players, fmt)}
    start, cpu = time.perf_counter(), time.process_time()
    problem = None
    try:
        winners = game.run()
        result["status"] = "won" if winners else "draw"
        result["winners"] = [p.name for p in winners]
    except UnendingGame as exc:
        problem = ("unfinished", exc.diagnostics[0])
        result["replay"] = replay_command(game_key, seed, players, fmt, max_rounds=max_rounds)
    except InvariantBroken as exc:
        problem = ("invariant", exc.diagnostics[0])
    except LudexError as exc:
        d = exc.diagnostics[0]
        if "but has no option" in d.message:
            kind = "no-option"
        elif INCONSISTENT in d.message:
            kind = "invariant"
        elif "steps without ending" in d.message or "rules run inside each other" in d.message or \
                "without asking anyone anything" in d.message:
            kind = "unfinished"
            if max_steps is not None:
                result["replay"] = replay_command(game_key, seed, players, fmt, max_steps=max_steps)
        else:
            kind = "error"
        problem = (kind, d)
    except Violation as v:
        problem = ("error", Diagnostic("runtime", "R004", f"a legal play was refused by rule {v.rule}: {v.message}",
                                       v.span or A.NOWHERE, rule=v.rule))
    except RecursionError as exc:
        problem = ("crash", Diagnostic("runtime", "R005", f"RecursionError: {exc}", game.current_span or A.NOWHERE))
    except Exception as exc:  # an engine bug: reported with its seed, never hidden
        import traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        problem = ("crash", Diagnostic("runtime", "R005", f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:"
                                       f"{where.lineno})", game.current_span or A.NOWHERE))
    result["seconds"] = time.perf_counter() - start
    result["cpu"] = time.process_time() - cpu
    if problem is not None:
        kind, d = problem
        result["status"] = kind
        result["problem"] = {"kind": kind, "message": d.message, "rule": d.rule, "code": d.code,
                             "where": str(d.span) if d.span and d.span.line else "",
                             "step": game.steps, "event": len(game.events)}
    result["rounds"] = watch.rounds
    result["decisions"] = agent.decisions
    result["steps"] = game.steps
    result["events"] = len(game.events)     # (as many as the trace; none of them put in words)
    result["exercised"] = sorted(r for r in game.rules_exercised() if r in gamedef.rules)
    return result


def _simulate_task(task):
    return simulate_one(*task)


#: The signals a worker is made with held, until ``_worker_starts`` has set its own handlers (a
#: forked worker inherits the parent's, which are the command's and not a worker's).
_HELD = (signal.SIGINT, signal.SIGTERM)


def _worker_starts():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # a result written to a parent that is gone ends the worker without a word (Python's own
    # SIGPIPE handling would raise BrokenPipeError and print its traceback)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    threading.Thread(target=_end_when_orphaned, args=(os.getppid(),), daemon=True).start()


def _end_when_orphaned(parent: int):
    # a worker whose parent is gone (its parent pid changes) would wait for tasks forever
    while os.getppid() == parent:
        time.sleep(0.25)
    os._exit(1)


def _stats(values: list) -> dict:
    if not values:
        return {}
    return {"min": min(values), "median": statistics.median(values), "mean": round(statistics.fmean(values), 1),
            "max": max(values)}


def simulate(game_key: str, games: int, seed: int = 1, jobs: int = 1, players: Optional[int] = None,
             fmt: str = "", max_rounds: Optional[int] = DEFAULT_MAX_ROUNDS, max_steps: Optional[int] = None,
             progress=None) -> dict:
    """Play ``games`` games (seeds ``seed`` to ``seed + games - 1``) in ``jobs`` processes (0: all
    cores) and sum them up. ``progress(done, total, elapsed, problems)`` is called after each game."""
    gamedef = load_for_simulation(game_key)
    jobs = jobs or os.cpu_count() or 1
    tasks = [(game_key, s, players, fmt, max_rounds, max_steps) for s in seeds_of(seed, games)]
    results = []
    problems = 0
    start = time.perf_counter()
    if jobs <= 1 or games <= 1:
        for task in tasks:
            results.append(_simulate_task(task))
            problems += results[-1]["problem"] is not None
            if progress:
                progress(len(results), games, time.perf_counter() - start, problems)
    else:
        with stoppable_pool(min(jobs, games), _worker_starts) as pool:
            for r in pool.imap_unordered(_simulate_task, tasks, chunksize=1):
                results.append(r)
                problems += r["problem"] is not None
                if progress:
                    progress(len(results), games, time.perf_counter() - start, problems)
    return summarise(game_key, gamedef, games, seed, jobs, players, fmt, max_rounds, max_steps, results,
                     time.perf_counter() - start)


#: The summary's fields that say where and how fast it ran, not what the games did: all that differs
#: between two runs of the same seeds (one process, many, a cluster).
WHERE_AND_HOW_FAST = ("jobs", "cluster", "seconds", "games_per_second", "cpu_seconds")


def seeds_of(seed: int, games: int) -> range:
    """Game i of a run plays seed ``seed + i``."""
    return range(seed, seed + games)


def summarise(game_key: str, gamedef: GameDef, games: int, seed: int, jobs: int, players: Optional[int],
              fmt: str, max_rounds: Optional[int], max_steps: Optional[int], results: list, elapsed: float) -> dict:
    """The games' results (``play_one``'s, in any order) summed up, as ``ludex simulate`` reports them."""
    results.sort(key=lambda r: r["seed"])
    transcribed = [rid for rid, rule in gamedef.rules.items() if not rule.outside]
    reached = Counter(rid for r in results for rid in r["exercised"])
    winners = Counter()
    for r in results:
        if r["status"] == "won":
            winners[", ".join(r["winners"])] += 1
        elif r["status"] == "draw":
            winners["(draw)"] += 1
    clean = [r for r in results if r["problem"] is None]
    return {
        "game": game_key, "key": gamedef.key, "games": games, "seeds": [seed, seed + games - 1], "jobs": jobs,
        "players": default_players(gamedef, players, fmt), "format": results[0]["format"] if results else fmt,
        "bound": {"max_rounds": max_rounds, "round_rule": round_rule_of(gamedef)[0],
                  "max_steps": max_steps if max_steps is not None else STEP_BUDGET},
        "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 2) if elapsed else 0.0,
        "cpu_seconds": round(sum(r["cpu"] for r in results), 3),
        "statuses": dict(Counter(r["status"] for r in results)),
        "problems": [{k: r[k] for k in ("seed", "status", "problem", "replay", "rounds", "steps")}
                     for r in results if r["problem"] is not None],
        "winners": dict(winners.most_common()),
        "lengths": {"rounds": _stats([r["rounds"] for r in clean]),
                    "decisions": _stats([r["decisions"] for r in clean]),
                    "steps": _stats([r["steps"] for r in clean]),
                    "events": _stats([r["events"] for r in clean])},
        "coverage": {"transcribed": len(transcribed),
                     "reached": sorted((rid for rid in transcribed if reached[rid]), key=transcribed.index),
                     "never": [rid for rid in transcribed if not reached[rid]],
                     "percent": round(100.0 * sum(1 for rid in transcribed if reached[rid]) / len(transcribed), 1)
                     if transcribed else 100.0,
                     "games_reaching": {rid: reached[rid] for rid in gamedef.rules}},
    }


def render_simulation(summary: dict) -> str:
    s = summary
    bound = s["bound"]
    lines = [f"{s['key']}: {s['games']} games (seeds {s['seeds'][0]} to {s['seeds'][1]}), players "
             f"{', '.join(s['players'])}" + (f", format {s['format']}" if s["format"] else "")
             + (f", {s['jobs']} job{'s' if s['jobs'] != 1 else ''}" if not s.get("cluster") else
                f", {s['jobs']} worker{'s' if s['jobs'] != 1 else ''} of the cluster at {s['cluster']}")]
    rounds = (f"{bound['max_rounds']} rounds (a round: each time the flow's loop begins rule {bound['round_rule']})"
              if bound["round_rule"] and bound["max_rounds"] is not None else "no round limit")
    lines.append(f"  bound:     {rounds}; {bound['max_steps']:,} steps (the engine's step budget)")
    statuses = s["statuses"]
    ended = statuses.get("won", 0) + statuses.get("draw", 0)
    lines.append(f"  ended:     {ended} of {s['games']} (won {statuses.get('won', 0)}, draws {statuses.get('draw', 0)})")
    problem_kinds = {k: v for k, v in statuses.items() if k not in ("won", "draw")}
    lines.append("  problems:  " + (", ".join(f"{k} {v}" for k, v in sorted(problem_kinds.items())) or "none"))
    total = max(1, ended)
    lines.append("  winners:   " + (", ".join(f"{w} {n} ({100.0 * n / total:.1f}%)" for w, n in s["winners"].items())
                                    or "-"))
    for name in ("rounds", "decisions", "steps"):
        st = s["lengths"][name]
        if st:
            lines.append(f"  {name + ':':<10} min {st['min']}, median {st['median']:g}, mean {st['mean']:g}, "
                         f"max {st['max']}")
    cov = s["coverage"]
    lines.append(f"  coverage:  {len(cov['reached'])} of {cov['transcribed']} transcribed rules reached by play "
                 f"({cov['percent']:.1f}%)" + (f"; never reached: {', '.join(cov['never'])}" if cov["never"] else ""))
    lines.append(f"  speed:     {s['games']} games in {s['seconds']:.1f} s: {s['games_per_second']:.2f} games/s")
    for p in s["problems"][:50]:
        pr = p["problem"]
        lines.append(f"\nseed {p['seed']}: {p['status']}: {pr['message']}" + (f" (rule {pr['rule']})" if pr["rule"] else "")
                     + (f"\n  at {pr['where']}" if pr["where"] else "")
                     + f"\n  replay: {p['replay']}")
    if len(s["problems"]) > 50:
        lines.append(f"\n... and {len(s['problems']) - 50} more problems (--json lists them all)")
    return "\n".join(lines)


@contextmanager
def stoppable_pool(processes: int, initializer, initargs: tuple = ()):
    """A pool of worker processes for a command that a signal may stop (``simulate``, ``mutate``). It
    is made with the signals held: its workers, and its threads (which make the workers that replace
    any that die), start with them held too, so stopping is the command's to do. Whatever ends the
    block, the workers are ended with the signals held again, so that a stop cannot cut the ending
    short; it is obeyed once they are gone."""
    pool = None
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        pool = multiprocessing.get_context().Pool(processes, initializer=initializer, initargs=initargs)
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        yield pool
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        if pool is not None:
            pool.terminate()
            pool.join()
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def progress_bar(unit: str = "games", stream=None):
    """A progress callback ``show(done, total, elapsed, problems=None)`` drawing a bar of ``unit``
    (games, mutants) on ``stream`` (stderr) when it is a terminal, else None."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None

    def show(done, total, elapsed, problems=None):
        width = 30
        filled = int(width * done / total)
        rate = done / elapsed if elapsed else 0.0
        eta = (total - done) / rate if rate else 0.0
        found = "" if problems is None else f"{problems} problem{'s' if problems != 1 else ''}, "
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {unit}, {rate:.1f}/s, "
                     f"{found}{eta:.0f}s left ")
        if done == total:
            stream.write("\r" + " " * (width + 70) + "\r")
        stream.flush()
    return show
