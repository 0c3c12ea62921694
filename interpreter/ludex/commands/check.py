"""``ludex check [GAME|PATH...]``: the games given (every bundled game by default) parsed and checked,
their scenarios run where they are to run, and one table printed, a row per game.

A check of rules files alone runs no scenario: ``cli.py`` then passes no ``runs`` (``scenario_runs.py``),
and this module imports neither the scenario runner nor the engine.

In: the paths given. Out: the table (or JSON), the diagnostics, and the exit code.
"""

from __future__ import annotations

import json
import sys

from ..diagnostics import render_all
from ..load import group_by_game, load_game, load_paths
from ..resources import bundled_games, scenarios_dir
from . import EXIT_FAILURES, EXIT_OK, EXIT_SOURCE, EXIT_USAGE
from .common import diag_json


def runs_scenarios(args) -> bool:
    """Whether ``check`` runs scenarios for the paths given: with none (every bundled game), a bundled
    game's name, or a scenario file."""
    bundled = bundled_games()
    return not args.paths or any((not p.exists() and str(p) in bundled) or (p.suffix == ".scenario" and not p.is_dir())
                                 for p in args.paths)


def _games_for(args, runs) -> list:
    """The games ``check`` checks, each with whether its scenarios run: every bundled game with no
    PATHs; a bundled game's name (``ludex check agot``, not a file or folder here) names that game,
    scenarios included; a rules file or folder is checked without running scenarios. ``runs``: the
    module that runs scenarios (``scenario_runs``), None when none are to run (``runs_scenarios``)."""
    if args.paths:
        bundled = bundled_games()
        named = [p for p in args.paths if not p.exists() and str(p) in bundled]
        missing = [p for p in args.paths if not p.exists() and p not in named]
        if missing:
            print(f"ludex: error: no such file or folder: {missing[0]} (bundled games: {', '.join(bundled)})",
                  file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        paths = [p for p in args.paths if p not in named]
        scenarios = [p for p in paths if p.suffix == ".scenario" and not p.is_dir()]
        paths = [p for p in paths if p not in scenarios]
        logs = [p for p in paths if p.suffix == ".log" and not p.is_dir()]
        if logs:
            print(f"ludex: error: {logs[0]} is a game log: replay it with 'ludex check-log GAME {logs[0]}'",
                  file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        empty = [p for p in paths if p.is_dir() and not any(p.glob("*.ludex"))]
        if empty:
            also = (f"; the bundled game {empty[0].name} is named so from a folder where no file or folder "
                    "has its name") if empty[0].name in bundled else ""
            print(f"ludex: error: the folder {empty[0]} holds no rules files (*.ludex){also}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        keys = list(dict.fromkeys(str(p) for p in named))
        groups = group_by_game(paths)
        twice = [key for key in keys if key in groups]
        if twice:
            print(f"ludex: error: {twice[0]} is given twice: by its name (its rules and scenarios) and by "
                  f"{groups[twice[0]][0]} (its rules alone)", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        _no_game_without_scenarios(args.game, scenarios)
        given = runs.scenario_games(scenarios, args.game) if scenarios else {}
        twice = [key for key in given if key in keys or key in groups]
        if twice:
            print(f"ludex: error: {twice[0]} is given twice: by {'its name' if twice[0] in keys else 'its rules'} "
                  f"and by the scenario file {given[twice[0]][1][0]}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        return [(load_game(key), True) for key in keys] + \
            [(load_paths(key, group), False) for key, group in groups.items()] + \
            [(loaded, files) for loaded, files in given.values()]
    _no_game_without_scenarios(args.game, [])
    return [(load_game(key), True) for key in bundled_games()]


def _no_game_without_scenarios(game, scenarios: list) -> None:
    if game is not None and not scenarios:
        print("ludex: error: argument --game: only with scenario files, to say which game they are for",
              file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def cmd_check(args, runs=None) -> int:
    """``ludex check``; ``runs``: ``scenario_runs``, passed when scenarios are to run (``runs_scenarios``)."""
    selected = _games_for(args, runs)
    if not selected:
        print("ludex: no games found", file=sys.stderr)
        return EXIT_USAGE
    diagnostics = [d for r, _ in selected for d in r.diagnostics]
    reports = {}
    failed_any = False
    for r, with_scenarios in selected:
        report = {"ok": r.ok, "rules": len(r.game.rules) if r.game else 0,
                  "errors": [diag_json(d) for d in r.diagnostics]}
        if r.ok and with_scenarios:
            outcome = runs.run_game_scenarios(r.game, scenarios_dir(), files=None if with_scenarios is True else
                                              with_scenarios, traces=args.trace)
            diagnostics += outcome["diagnostics"]
            failed_any = failed_any or outcome["failed"] > 0
            report.update(scenarios={"passed": outcome["passed"], "failed": outcome["failed"]},
                          coverage=outcome["coverage"], failures=outcome["failures"])
            if with_scenarios is True:
                scored = runs.cached_mutation(r)
                if scored is not None:
                    report["mutation"] = scored
            report["errors"] += [diag_json(d) for d in outcome["diagnostics"]]
            if outcome["diagnostics"]:      # a scenario file that does not check: its scenarios did not run
                report["ok"] = False
                report["unchecked_files"] = sorted({d.span.path for d in outcome["diagnostics"]})
            if args.trace:                  # (the lines a judge reads, in text; the events, in JSON)
                report["traces"] = [{k: v for k, v in t.items() if k != ("text" if args.json else "trace")}
                                    for t in outcome["traces"]]
        reports[r.key] = report
    if not args.paths:
        stray = runs.stray_scenarios(scenarios_dir(), bundled_games())
        diagnostics += stray
        if stray:
            reports["(no game)"] = {"ok": False, "rules": 0, "errors": [diag_json(d) for d in stray]}
    if args.json:
        print(json.dumps({"games": reports}, indent=2))
    else:
        for key, rep in reports.items():
            for traced in rep.get("traces", []):
                print(f"{key}/{traced['id']}: {traced['status']}\n{traced['text']}\n")
        # the mutation column only when some game has cached ``ludex mutate`` results
        scored = any("mutation" in rep for rep in reports.values())
        print(f"{'game':<10} {'rules':>5} {'scenarios':>10} {'failed':>6} {'coverage':>8}"
              + (f" {'mutation':>8}" if scored else "") + "  unexercised")
        for key, rep in reports.items():
            if "scenarios" in rep:
                cov = rep["coverage"]
                unexercised = ", ".join(cov["unexercised"]) or "-"
                unchecked = len(rep.get("unchecked_files", ()))
                unrun = f"  ({unchecked} scenario file{'s do' if unchecked > 1 else ' does'} not check: " \
                        "not run)" if unchecked else ""
                mutation = ""
                if scored:
                    score = rep.get("mutation", {}).get("score")
                    mutation = f" {score:>7.1f}%" if score is not None else f" {'-':>8}"
                print(f"{key:<10} {rep['rules']:>5} {rep['scenarios']['passed'] + rep['scenarios']['failed']:>10} "
                      f"{rep['scenarios']['failed']:>6} {cov['percent']:>7.1f}%{mutation}  {unexercised}{unrun}")
            else:
                status = "ok" if rep["ok"] else f"{len(rep['errors'])} error(s)"
                print(f"{key:<10} {rep['rules']:>5}  {status}")
        for key, rep in reports.items():
            for failure in rep.get("failures", []):
                print(f"\nFAILED {key}/{failure['id']}\n{failure['report']}", file=sys.stderr)
        if diagnostics:
            print(render_all(diagnostics), file=sys.stderr)
    if diagnostics:
        return EXIT_SOURCE
    return EXIT_FAILURES if failed_any else EXIT_OK
