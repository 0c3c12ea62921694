"""What ``ludex check`` adds when scenarios run: the scenario files given found their games, every
scenario of a game run with the coverage measured from the runs (and the cached mutation score,
read: ``cached_mutation``), and the scenario files in no game's folder found. Kept apart from ``check.py`` so that a check of rules files alone imports
neither the scenario runner nor the engine.

In: games checked, scenario files. Out: the outcome of their runs, as ``check`` reports it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..compliance.mutation import cached_report, scenarios_of
from ..diagnostics import LudexError
from ..load import group_by_game, load_game, load_paths
from ..resources import bundled_games
from ..scenarios.runner import (
    failure_marks,
    game_folder_of,
    load_scenarios,
    render_failure,
    rules_folder_of,
    run_scenario,
    scenario_files,
    stray_scenarios,  # noqa: F401  (check reads it here: runs.stray_scenarios)
    trace_lines,
)
from . import EXIT_USAGE
from .common import loaded_one


def scenario_games(scenarios: list, game) -> dict:
    """The scenario files given to ``check``, by game: ``{key: (loaded game, files)}``. A file's game is
    ``--game``'s, else the one its folder names (``scenarios/GAME/``), its rules those beside that
    ``scenarios/`` folder, or the bundled game of that name; a file outside any is a usage error that
    says how to ask it."""
    if game is not None:
        loaded = loaded_one(game)
        return {loaded.key: (loaded, scenarios)}
    found: dict = {}
    for path in scenarios:
        folder = game_folder_of(path)
        rules = rules_folder_of(path)
        groups = group_by_game([rules]) if folder is not None and rules is not None else {}
        if folder is not None and folder.name in groups:
            where = ("rules", folder.name, tuple(groups[folder.name]))
        elif folder is not None and folder.name in bundled_games():
            where = ("bundled", folder.name)
        else:
            print(f"ludex: error: {path} is not in a folder scenarios/GAME/, so the game it is for is not known: "
                  f"name it with --game GAME, or ask the question with 'ludex ask GAME {path}'", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        found.setdefault(where, []).append(path)
    given = {}
    for where, files in found.items():
        loaded = load_game(where[1]) if where[0] == "bundled" else load_paths(where[1], list(where[2]))
        if loaded.key in given:
            print(f"ludex: error: the scenario files {given[loaded.key][1][0]} and {files[0]} are for two games "
                  f"of the same name, {loaded.key}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        given[loaded.key] = (loaded, files)
    return given


def cached_mutation(loaded) -> dict | None:
    """A game's cached ``ludex mutate`` totals (made, killed, survived, invalid, equivalent, unknown,
    score), or None when there are none for its rules and scenarios as they are: nothing is run."""
    paths = [str(p) for p in loaded.paths]
    report = cached_report(loaded.key, paths, [str(p) for p in scenarios_of(loaded.key, paths)], loaded.game)
    return report["totals"] if report else None


def run_game_scenarios(gamedef, folder: Path, files=None, traces: bool = False) -> dict:
    """Run every scenario of a game (or those of ``files``); coverage is measured from what the runs
    exercised. With ``traces``, each scenario's trace, as text and as data, under "traces"."""
    passed = failed = 0
    exercised: set = set()
    failures, diagnostics, traced = [], [], []
    for path in scenario_files(folder, gamedef.key) if files is None else files:
        try:
            parsed = load_scenarios(gamedef, path)
        except LudexError as exc:
            diagnostics += exc.diagnostics
            continue
        for scenario in parsed.scenarios:
            result = run_scenario(gamedef, scenario)
            exercised |= result.exercised
            if traces:
                traced.append({"id": f"{path.name}::{scenario.title}", "status": result.status,
                               "setup_events": result.setup_events,
                               "text": "\n".join(trace_lines(result, failure_marks(result))),
                               "trace": [event.as_json() for event in result.trace]})
            if result.passed:
                passed += 1
            else:
                failed += 1
                failures.append({"id": f"{path.name}::{scenario.title}", "status": result.status,
                                 "report": render_failure(result)})
    transcribed = [rid for rid, rule in gamedef.rules.items() if not rule.outside]
    unexercised = [rid for rid in transcribed if rid not in exercised]
    percent = 100.0 * (len(transcribed) - len(unexercised)) / len(transcribed) if transcribed else 100.0
    return {"passed": passed, "failed": failed, "failures": failures, "diagnostics": diagnostics, "traces": traced,
            "coverage": {"percent": round(percent, 1), "exercised": sorted(set(transcribed) - set(unexercised)),
                         "unexercised": unexercised}}
