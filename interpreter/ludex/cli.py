"""The ``ludex`` command: argument parsing and output. Every pass's diagnostics are rendered here,
in one place; a user's mistake never ends in a Python traceback.

Exit codes: 0 ok, 1 failures found (scenarios, violations), 2 usage error, 3 errors in rules or
scenario sources; 130 and 143 stopped by SIGINT (Ctrl-C) and SIGTERM (``ludex.command``, the entry
point, sets their handlers; called in-process, ``main`` answers Ctrl-C the same way).

Start-up: ``ludex --help``, a command's ``--help`` and a usage error import nothing of the pipeline
(no parser, no AST, no checker, no engine: ``tests/test_startup.py``); each command imports what it
uses when it runs, so the modules imported at the top here are only those the argument parser needs.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from .command import Stopped, held_signals, stopped_line
from .command import exit_code as stop_exit_code
from .resources import bundled_games, scenarios_dir

EXIT_OK, EXIT_FAILURES, EXIT_USAGE, EXIT_SOURCE = 0, 1, 2, 3


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"ludex: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


#: The largest number a rules or log file may write (18 digits, E003), so the largest seed.
SEED_MOST = 10 ** 18 - 1


def at_least(least: int, note: str = "", most: int = SEED_MOST):
    """An argument type: a whole number of at least ``least`` (``note`` says what the least means) and
    at most ``most`` (18 digits: as a rules or log file may write it); anything else is a usage error,
    never a silent fall-back to a default."""
    def parse(value: str) -> int:
        # as a rules or log file writes a number: ASCII digits only (int() would also take ' 5', '5_0'
        # and other scripts' digits, which a log could then not write back)
        digits = value[1:] if value.startswith("-") else value
        number = int(value) if 0 < len(digits) <= 40 and digits.isascii() and digits.isdigit() else None
        if number is None:
            raise argparse.ArgumentTypeError(f"expected a whole number, not '{value[:40]}'")
        if number < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}{note}, not {number}")
        if number > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}, not {number}")
        return number
    return parse


def writable_file(value: str) -> Path:
    """An argument type: a file that can be written (made, or overwritten), checked before any work
    is done, so that a game is not played only to find its log cannot be kept."""
    if not value.strip():
        raise argparse.ArgumentTypeError("expected the name of a file to write")
    path = Path(value)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{value} is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {value}: there is no folder {folder}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {value}: permission denied")
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="ludex", description="Run and check transcribed game rules.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    p = sub.add_parser("check", help="parse and check every bundled game (or the games or files given)")
    p.add_argument("paths", nargs="*", type=Path, metavar="GAME|PATH",
                   help="bundled games by name (their scenarios run), rules files or folders (checked, "
                        "no scenarios run), or scenario files (run against their game: the folder "
                        "scenarios/GAME/ they are in, or --game); default: every bundled game")
    p.add_argument("--json", action="store_true", help="print the results as JSON for tools")
    p.add_argument("--trace", action="store_true",
                   help="print the trace of every scenario run, those that pass too")
    p.add_argument("--game", default=None, metavar="GAME",
                   help="the game the scenario files given are for (a bundled game or its rules)")
    p.set_defaults(run=cmd_check)
    p = sub.add_parser("ask", help="ask a question as a scenario: the answer, each expectation met or not, "
                                   "and the whole trace")
    p.add_argument("game", help="a bundled game (e.g. huntik) or its rules")
    p.add_argument("file", nargs="?", default="-", metavar="FILE",
                   help="the question: whole scenarios, or a scenario's lines written bare (players, setup, "
                        "plays, run, expect ...); '-' or none: read from standard input")
    p.add_argument("--json", action="store_true", help="print the answer as JSON for tools")
    p.add_argument("--brief", action="store_true",
                   help="leave out of the trace the fields the transcription keeps for itself (bookkeeping)")
    p.set_defaults(run=cmd_ask)
    p = sub.add_parser("fmt", help="print rules and scenario files in canonical form")
    p.add_argument("paths", nargs="+", type=Path,
                   help="rules (.ludex) and scenario (.scenario) files, or folders: their rules files and, "
                        "in sub-folders too, their scenario files")
    either = p.add_mutually_exclusive_group()
    either.add_argument("--check", action="store_true", help="exit 1 if a file is not in canonical form")
    either.add_argument("--write", action="store_true", help="rewrite the files in place")
    p.set_defaults(run=cmd_fmt)
    p = sub.add_parser("run", help="play a whole game and print its cited trace")
    p.add_argument("game", help="a bundled game (e.g. agot) or a rules file")
    p.add_argument("--seed", type=at_least(0), default=1, help="the random seed (the same seed gives the same trace)")
    p.add_argument("--players", type=at_least(1), default=None, metavar="N",
                   help="how many players (default: the fewest allowed)")
    p.add_argument("--format", default="", help="the format to play (default: the first the game names)")
    p.add_argument("--json", action="store_true", help="print the trace as JSON")
    p.add_argument("--brief", action="store_true",
                   help="leave out of the trace the fields the transcription keeps for itself (bookkeeping)")
    p.add_argument("--as", dest="viewer", default=None, metavar="PLAYER",
                   help="print the trace as PLAYER sees it: their own hidden choices and hidden cards too "
                        "(default: what every player sees; with --interactive, the seat's own)")
    p.add_argument("--judge", action="store_true",
                   help="print the judge's view of the trace: every hidden choice and card, marked hidden")
    p.add_argument("--interactive", action="store_true", help="decide for one seat at the terminal")
    p.add_argument("--seat", type=at_least(1), default=None, metavar="N",
                   help="only with --interactive: the seat you play (default 1)")
    p.add_argument("--log", type=writable_file, default=None, metavar="FILE",
                   help="write the game's log (every decision, random outcomes as force lines) for check-log")
    p.add_argument("--max-rounds", type=at_least(1), default=None, metavar="N",
                   help="stop the game with an error if it has not ended after N rounds (as simulate does)")
    p.add_argument("--max-steps", type=at_least(1), default=None, metavar="N", help="the engine's step budget")
    p.set_defaults(run=cmd_run)
    p = sub.add_parser("explain", help="find a rule and print it for a judge: text as corrected, transcription, "
                                       "scenarios; or list the rules")
    p.add_argument("game", help="a bundled game (its key, or words of its title: thrones), or a rules file")
    p.add_argument("words", nargs="*", metavar="RULE|WORDS",
                   help="a rule id (in any case), or words to find in the rules' numbers, titles and text; "
                        "none: the rules as a tree")
    either = p.add_mutually_exclusive_group()
    either.add_argument("--original", action="store_true",
                        help="print the rule's text as published, without its errata applied")
    either.add_argument("--python", action="store_true",
                        help="print instead the Python the engine wrote for the rule's procedure, plays, "
                             "triggers, state checks and values")
    p.set_defaults(run=cmd_explain)
    p = sub.add_parser("check-log", help="replay a game log against the rules; report what they refuse")
    p.add_argument("game", help="a bundled game (e.g. agot) or a rules file")
    p.add_argument("log", type=Path, help="the log: a set-up, then plays, decisions and force lines")
    p.add_argument("--all", action="store_true", dest="all_violations",
                   help="report every violation reachable by skipping each refused entry")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=cmd_check_log)
    p = sub.add_parser("simulate", help="play many games with random agents; report problems with their seeds")
    p.add_argument("game", help="a bundled game (e.g. agot) or a rules file")
    p.add_argument("--games", type=at_least(1), default=100, metavar="N", help="how many games (default 100)")
    p.add_argument("--seed", type=at_least(0), default=1, help="the first seed; game i plays seed S+i (default 1)")
    p.add_argument("--jobs", type=at_least(0, " (0: every core)"), nargs="?", const=0, default=1, metavar="J",
                   help="processes to use; --jobs alone (or --jobs 0) uses every core")
    p.add_argument("--players", type=at_least(1), default=None, metavar="N",
                   help="how many players (default: the fewest allowed)")
    p.add_argument("--format", default="", help="the format to play (default: the first the game names)")
    p.add_argument("--max-rounds", type=at_least(1), default=None, metavar="N",
                   help="a game not over after N rounds is reported (default 100)")
    p.add_argument("--max-steps", type=at_least(1), default=None, metavar="N",
                   help="the engine's step budget per game (default: the engine's own)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(run=cmd_simulate)
    p = sub.add_parser("site", help="build or serve the rules site (needs the 'site' extra)")
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .site import add_arguments as _site_arguments
    _site_arguments(p)
    p.set_defaults(run=cmd_site)
    for command in sub.choices.values():
        # a command's own usage error, for what only the command can judge (as argparse prints it)
        command.set_defaults(usage_error=command.error)
    return parser


class Output:
    """Standard output or error as a command writes it. If the reader leaves early (``ludex check-log
    ... | head -1``), or the output cannot be written (a full disk), what is still written goes nowhere
    and the command finishes: it exits with its own verdict (a failed check still exits 1), not with
    whatever was being printed when the pipe closed. ``lost``: why the output could not be written,
    if it was not a reader leaving."""

    def __init__(self, stream):
        self.stream = stream
        self.lost = ""

    def write(self, text):
        try:
            return self.stream.write(text)
        except OSError as exc:
            self.drop(exc)
            return len(text)

    def flush(self):
        try:
            self.stream.flush()
        except OSError as exc:
            self.drop(exc)

    def drop(self, exc: OSError):
        if not isinstance(exc, BrokenPipeError) and not self.lost:
            self.lost = exc.strerror or str(exc)
        nowhere = os.open(os.devnull, os.O_WRONLY)     # (the unwritten buffer, too, is flushed there)
        os.dup2(nowhere, self.stream.fileno())
        os.close(nowhere)

    def __getattr__(self, name):
        return getattr(self.stream, name)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Output(out), Output(err)
    try:
        code = _run(args)
        sys.stdout.flush()
        sys.stderr.flush()
        if sys.stdout.lost:
            print(f"ludex: error: cannot write the output: {sys.stdout.lost}", file=sys.stderr)
            code = code or EXIT_USAGE
        return code
    finally:
        sys.stdout, sys.stderr = out, err


def _run(args) -> int:
    # imported here, not at the top: --help and usage errors (which end before this) start without them
    from .diagnostics import LudexError, render_all
    try:
        return args.run(args)
    except LudexError as exc:
        print(render_all(exc.diagnostics), file=sys.stderr)
        return exc.exit_code
    except EOFError:
        print("\nludex: stopped before the game ended", file=sys.stderr)
        return EXIT_FAILURES
    except KeyboardInterrupt:       # Ctrl-C where ludex.command set no handler (main called in-process)
        print(stopped_line(signal.SIGINT), file=sys.stderr)
        return stop_exit_code(signal.SIGINT)


def _games_for(args) -> list:
    """The games ``check`` checks, each with whether its scenarios run: every bundled game with no
    PATHs; a bundled game's name (``ludex check agot``, not a file or folder here) names that game,
    scenarios included; a rules file or folder is checked without running scenarios."""
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .load import group_by_game, load_game, load_paths
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
        given = _scenario_games(scenarios, args.game)
        twice = [key for key in given if key in keys or key in groups]
        if twice:
            print(f"ludex: error: {twice[0]} is given twice: by {'its name' if twice[0] in keys else 'its rules'} "
                  f"and by the scenario file {given[twice[0]][1][0]}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        return [(load_game(key), True) for key in keys] + \
            [(load_paths(key, group), False) for key, group in groups.items()] + \
            [(loaded, files) for loaded, files in given.values()]
    _scenario_games([], args.game)          # (--game without scenario files is a usage error)
    return [(load_game(key), True) for key in bundled_games()]


def _scenario_games(scenarios: list, game) -> dict:
    """The scenario files given to ``check``, by game: ``{key: (loaded game, files)}``. A file's game is
    ``--game``'s, else the one its folder names (``scenarios/GAME/``), its rules those beside that
    ``scenarios/`` folder, or the bundled game of that name; a file outside any is a usage error that
    says how to ask it."""
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .load import group_by_game, load_game, load_paths
    from .scenarios.runner import game_folder_of, rules_folder_of
    if game is not None and not scenarios:
        print("ludex: error: argument --game: only with scenario files, to say which game they are for",
              file=sys.stderr)
        raise SystemExit(EXIT_USAGE)
    if not scenarios:
        return {}
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


def cmd_check(args) -> int:
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .diagnostics import render_all
    selected = _games_for(args)
    if not selected:
        print("ludex: no games found", file=sys.stderr)
        return EXIT_USAGE
    diagnostics = [d for r, _ in selected for d in r.diagnostics]
    reports = {}
    failed_any = False
    for r, with_scenarios in selected:
        report = {"ok": r.ok, "rules": len(r.game.rules) if r.game else 0,
                  "errors": [_diag_json(d) for d in r.diagnostics]}
        if r.ok and with_scenarios:
            outcome = run_game_scenarios(r.game, scenarios_dir(), files=None if with_scenarios is True else
                                         with_scenarios, traces=args.trace)
            diagnostics += outcome["diagnostics"]
            failed_any = failed_any or outcome["failed"] > 0
            report.update(scenarios={"passed": outcome["passed"], "failed": outcome["failed"]},
                          coverage=outcome["coverage"], failures=outcome["failures"])
            report["errors"] += [_diag_json(d) for d in outcome["diagnostics"]]
            if outcome["diagnostics"]:      # a scenario file that does not check: its scenarios did not run
                report["ok"] = False
                report["unchecked_files"] = sorted({d.span.path for d in outcome["diagnostics"]})
            if args.trace:                  # (the lines a judge reads, in text; the events, in JSON)
                report["traces"] = [{k: v for k, v in t.items() if k != ("text" if args.json else "trace")}
                                    for t in outcome["traces"]]
        reports[r.key] = report
    if not args.paths:
        # imported here, not at the top: only this command needs it, and every command starts faster
        from .scenarios.runner import stray_scenarios
        stray = stray_scenarios(scenarios_dir(), bundled_games())
        diagnostics += stray
        if stray:
            reports["(no game)"] = {"ok": False, "rules": 0, "errors": [_diag_json(d) for d in stray]}
    if args.json:
        import json  # here, not on top: start-up time of every command
        print(json.dumps({"games": reports}, indent=2))
    else:
        for key, rep in reports.items():
            for traced in rep.get("traces", []):
                print(f"{key}/{traced['id']}: {traced['status']}\n{traced['text']}\n")
        print(f"{'game':<10} {'rules':>5} {'scenarios':>10} {'failed':>6} {'coverage':>8}  unexercised")
        for key, rep in reports.items():
            if "scenarios" in rep:
                cov = rep["coverage"]
                unexercised = ", ".join(cov["unexercised"]) or "-"
                unchecked = len(rep.get("unchecked_files", ()))
                unrun = f"  ({unchecked} scenario file{'s do' if unchecked > 1 else ' does'} not check: " \
                        "not run)" if unchecked else ""
                print(f"{key:<10} {rep['rules']:>5} {rep['scenarios']['passed'] + rep['scenarios']['failed']:>10} "
                      f"{rep['scenarios']['failed']:>6} {cov['percent']:>7.1f}%  {unexercised}{unrun}")
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


def run_game_scenarios(gamedef, folder: Path, files=None, traces: bool = False) -> dict:
    """Run every scenario of a game (or those of ``files``); coverage is measured from what the runs
    exercised. With ``traces``, each scenario's trace, as text and as data, under "traces"."""
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .diagnostics import LudexError
    from .scenarios.runner import (
        failure_marks,
        load_scenarios,
        render_failure,
        run_scenario,
        scenario_files,
        trace_lines,
    )
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


def cmd_ask(args) -> int:
    """``ludex ask GAME [FILE | -]``: a question as a scenario, answered: each expectation met or not,
    the winner and the whole trace (``scenarios/answer.py``). Exit 0 every expectation met, 1 one not
    met, 2 a question that cannot be answered as written, 3 rules that do not check or cannot run."""
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .diagnostics import SourceError, decode_source, read_source, render_all
    from .scenarios.answer import answer_json, exit_status, render_answer
    from .scenarios.runner import load_question, run_scenario
    gamedef = load_one(args.game)
    if args.file == "-":
        path = "<stdin>"
        if sys.stdin.isatty():
            print("ludex: reading the question from standard input (end it with Ctrl-D)", file=sys.stderr)
        data = sys.stdin.buffer.read()
    else:
        path = args.file
        if Path(path).is_dir() or not Path(path).exists():
            print(f"ludex: error: {path} is a folder, not a file" if Path(path).is_dir() else
                  f"ludex: error: no such file: {path}", file=sys.stderr)
            return EXIT_USAGE
        data = None
    try:
        text = read_source(path) if data is None else decode_source(data, path)
        question = load_question(gamedef, text, path)
    except SourceError as exc:
        if args.json:
            import json
            print(json.dumps({"game": gamedef.key, "source": path, "ok": False,
                              "errors": [_diag_json(d) for d in exc.diagnostics], "scenarios": []}, indent=1))
        else:
            print(render_all(exc.diagnostics), file=sys.stderr)
        return EXIT_USAGE
    results = [run_scenario(gamedef, scenario) for scenario in question.scenarios]
    if args.json:
        import json
        print(json.dumps(answer_json(results, gamedef.key, path, _diag_json), indent=1))
    else:
        print(render_answer(results, path, brief=args.brief))
        errors = [d for r in results for d in r.diagnostics]
        if errors:
            print(render_all(errors), file=sys.stderr)
    return exit_status(results)


def _diag_json(d) -> dict:
    return {"path": d.span.path, "line": d.span.line, "column": d.span.column, "code": d.code,
            "message": d.message, "rule": d.rule, "kind": d.kind, "expected": d.expected, "hint": d.hint}


def load_one(game: str):
    """A bundled game by key, or a rules file by path; exits with the diagnostics if it has errors."""
    # imported here, not at the top: only the commands that load a game need it; --help starts without it
    from .diagnostics import SourceError
    loaded = loaded_one(game)
    if not loaded.ok:
        raise SourceError(loaded.diagnostics)
    return loaded.game


def loaded_one(game: str):
    """A bundled game by key, or a rules file or folder by path, loaded (its diagnostics with it); a
    name that is neither is a usage error."""
    # imported here, not at the top: only the commands that load a game need it; --help starts without it
    from .load import group_by_game, load_game, load_paths
    path = Path(game)
    if path.suffix in (".log", ".scenario") and not path.is_dir():
        what = (f"a game log: replay it with 'ludex check-log GAME {path}'" if path.suffix == ".log" else
                f"a scenario file: run it with 'ludex check {path}', or ask it with 'ludex ask GAME {path}'")
        print(f"ludex: error: {path} is {what}; the game is a bundled game's name or its rules (.ludex)",
              file=sys.stderr)
        raise SystemExit(EXIT_USAGE)
    if path.suffix == ".ludex" or path.exists():
        if not path.exists():
            print(f"ludex: error: no such file: {path}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        groups = group_by_game([path])
        if len(groups) != 1:
            # a folder holds the files of one game, or the command would have to pick one itself
            found = (f"the rules of several games ({', '.join(groups)}): give a folder of one game's files"
                     if groups else "no rules files (*.ludex)")
            print(f"ludex: error: the folder {path} holds {found}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        [(key, paths)] = groups.items()
        loaded = load_paths(key, paths)
    else:
        if game not in bundled_games():
            import difflib
            close = difflib.get_close_matches(game, bundled_games(), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            print(f"ludex: error: no bundled game '{game}'{hint}; games: {', '.join(bundled_games())}",
                  file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        loaded = load_game(game)
    return loaded


def show_boards(game, out, seat: str = "") -> None:
    """Draw each board with the cards that stand on it, and its legend: a card in a public zone whose
    attribute holds one of the board's spaces is drawn there by the first letters of its title; a
    hidden attribute only for the player ``seat`` who owns the card (its owner's secret)."""
    for name, board in game.boards.items():
        spaces = set(board.spaces)
        pieces, named = {}, {}
        for zone in game.state.all_zones():
            if zone.hidden:
                continue
            for card in zone.cards:
                for attr, value in card.attrs.items():
                    if (card.type, attr) in game.hidden_attributes and not (
                            seat and card.owner is not None and card.owner.name == seat):
                        continue
                    if isinstance(value, str) and value in spaces:
                        pieces[value] = card.title.replace(" ", "")[:3]
                        named[value] = (pieces[value], card.title)
        print(f"\n{name}:\n{board.picture(pieces)}\n{board.key(named)}", file=out)


def table_problem(gamedef, players, format) -> str:
    """What is wrong with a player count or a format asked for on the command line ("" if nothing);
    ``players`` None: as many as the format (or the game) has at fewest."""
    # imported here, not at the top: only the commands that load a game need it; --help starts without it
    from .parse.definition import default_count, format_problem
    header = gamedef.header
    if players and header and not header.min_players <= players <= header.max_players:
        return f"{gamedef.key} is for {header.min_players} to {header.max_players} players"
    return format_problem(header, format, players or default_count(header, format))


#: How many of the last events ``ludex run`` prints before a loop's error
_LOOP_EVENTS_SHOWN = 20


class _Shown:
    """``ludex run``'s trace printer: each event as it is recorded, in the view asked for (the public
    one, the judge's or a player's: ``engine.trace``), but those since the last decision
    held until the next, or the game's end, or an error, so that a loop that asks nothing can be
    shown by its last events only (``flush(last=N)``)."""

    def __init__(self, format_event, decided, view):
        self.format_event, self.decided = format_event, decided     # (``engine.game.DECISION_EVENTS``)
        self.view = view                                            # (``engine.trace``: whose view)
        self.held = []

    def __call__(self, event):
        self.held.append(event)
        if event.kind in self.decided:
            self.flush()

    def flush(self, last=None):
        held, self.held = self.held, []
        if last is not None and len(held) > last:
            print(f"... {len(held) - last} events left out (the last {last} before the error follow)")
            held = held[-last:]
        for event in held:
            line = self.format_event(event, "flow", self.view)
            if line:
                print(line)


def cmd_run(args) -> int:
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .diagnostics import Diagnostic, RuntimeRuleError
    from .engine.agents import InteractiveAgent, RandomAgent
    from .engine.game import DECISION_EVENTS, Game, Violation
    from .engine.trace import JUDGE, PUBLIC, format_event, is_bookkeeping, rule_width
    from .parse.ast import NOWHERE
    from .parse.definition import default_count
    if args.seat is not None and not args.interactive:
        args.usage_error("argument --seat: only with --interactive")
    if args.judge and args.viewer is not None:
        args.usage_error("argument --judge: not with --as (one view of the trace)")
    gamedef = load_one(args.game)
    header = gamedef.header
    count = args.players or default_count(header, args.format)
    problem = table_problem(gamedef, count, args.format)
    if problem:
        print(f"ludex: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    names = [f"p{i + 1}" for i in range(count)]
    if args.viewer is not None and args.viewer not in names:
        args.usage_error(f"argument --as: no player {args.viewer} at this table (the players: {', '.join(names)})")
    view = JUDGE if args.judge else args.viewer or PUBLIC
    random_agent = RandomAgent(args.seed)
    agent = random_agent
    if args.interactive:
        seat = args.seat or 1
        if not 1 <= seat <= count:
            print(f"ludex: error: --seat must be from 1 to {count}", file=sys.stderr)
            return EXIT_USAGE
        mine = names[seat - 1]
        person = InteractiveAgent(show=lambda game, out: show_boards(game, out, mine))
        if args.viewer is None and not args.judge:
            view = mine             # a seat sees its own hidden choices and cards
        agent = lambda game, d: (shown.flush(), person(game, d))[1] if d.player is not None and \
            d.player.name == mine else random_agent(game, d)
    recorder = None
    if args.log:
        # imported here, not at the top: only this command needs it, and every command starts faster
        from .compliance.recorder import LogRecorder
        extra = (f" --players {args.players}" if args.players else "") + (f" --format {args.format}" if args.format else "")
        from shlex import quote
        recorder = agent = LogRecorder(agent, gamedef, names, args.seed, args.format,
                                       command=f"ludex run {quote(args.game)} --seed {args.seed}{extra} "
                                               f"--log {quote(str(args.log))}",
                                       rules=quote(args.game))
    budget = {"step_budget": args.max_steps} if args.max_steps else {}
    game = Game(gamedef, names, agent, seed=args.seed, format=args.format, reasons=True, **budget)
    width = rule_width([*gamedef.rules, "setup"])

    def line(event, unruled, view):
        return "" if args.brief and is_bookkeeping(event) else format_event(event, unruled, view, width)
    shown = _Shown(line, DECISION_EVENTS, view)
    if not args.json:
        game.listen(shown)
    if recorder or args.max_rounds is not None:
        # imported here, not at the top: only this command needs it, and every command starts faster
        from .compliance.watch import Watch
        Watch(game, max_rounds=args.max_rounds, on_round=recorder.attach(game).on_round if recorder else None)
    kept = True
    try:
        game.run()
    except RuntimeRuleError:
        # past the step limit: a loop, whose thousands of events only the last few show
        shown.flush(last=_LOOP_EVENTS_SHOWN if game.steps > game.step_limit else None)
        raise
    except Violation as refused:        # a play the agent was offered as legal (simulate says R004)
        raise RuntimeRuleError([Diagnostic("runtime", "R004", f"a legal play was refused by rule {refused.rule}: "
                                           f"{refused.message}", refused.span or NOWHERE, rule=refused.rule)]) from None
    except (Stopped, KeyboardInterrupt):
        recorder = None                 # the user stopped the game: no log is left of it, whole or half
        raise
    finally:
        shown.flush()
        if recorder:
            with held_signals():        # a stop now is obeyed once the log is written whole
                kept = _write_log(args.log, recorder.text())
    if args.json:
        import json
        text = json.dumps({"game": gamedef.key, "seed": args.seed, "players": names,
                           "winners": [p.name for p in game.winners or []],
                           "trace": [e.as_json(view) for e in game.trace]}, indent=1)
        with held_signals():            # the trace is written whole; a stop now is obeyed after it
            print(text)
            sys.stdout.flush()
    else:
        winners = ", ".join(p.name for p in game.winners) if game.winners else "nobody (a draw)"
        print(f"game over after {len(game.trace)} events: {winners}")
    return EXIT_OK if kept else EXIT_USAGE


def _write_log(path: Path, text: str) -> bool:
    """Write a game's log; False, with a message, if it cannot be (--log was checked before the game,
    but the disk can fill or the folder go)."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"ludex: error: cannot write the log to {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def cmd_check_log(args) -> int:
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .compliance.checker import LogReport, check_log, render_report
    from .compliance.log import load_log
    from .diagnostics import LudexError
    gamedef = load_one(args.game)
    if not args.log.is_file():
        print(f"ludex: error: no such file: {args.log}", file=sys.stderr)
        return EXIT_USAGE
    try:
        log = load_log(gamedef, args.log)
    except LudexError as exc:
        if not args.json:
            raise
        # the report's shape, nothing replayed, the log's errors (L001-L009, E...) under "errors"
        import json
        print(json.dumps(dict(LogReport(str(args.log), gamedef.key).as_json(), ok=False,
                              errors=[_diag_json(d) for d in exc.diagnostics]), indent=2))
        return exc.exit_code
    report = check_log(gamedef, log, args.all_violations)
    if args.json:
        import json
        print(json.dumps(dict(report.as_json(), errors=[]), indent=2))
    else:
        print(render_report(gamedef, report))
    return EXIT_OK if report.ok else EXIT_FAILURES


def cmd_simulate(args) -> int:
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .compliance.simulation import (
        DEFAULT_MAX_ROUNDS,
        load_for_simulation,
        progress_bar,
        render_simulation,
        simulate,
    )
    if args.seed + args.games - 1 > SEED_MOST:          # game i plays seed S+i: each must be a seed
        args.usage_error(f"argument --seed: {args.games} games from seed {args.seed} go past the last seed, "
                         f"{SEED_MOST}")
    gamedef = load_one(args.game)
    problem = table_problem(gamedef, args.players, args.format)
    if problem:
        print(f"ludex: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    load_for_simulation(args.game)
    summary = simulate(args.game, args.games, seed=args.seed, jobs=args.jobs, players=args.players,
                       fmt=args.format, max_rounds=args.max_rounds if args.max_rounds is not None else DEFAULT_MAX_ROUNDS,
                       max_steps=args.max_steps, progress=progress_bar())
    import json
    text = json.dumps(summary, indent=1) if args.json else render_simulation(summary)
    with held_signals():                # the summary is written whole; a stop now is obeyed after it
        print(text)
        sys.stdout.flush()
    return EXIT_FAILURES if summary["problems"] else EXIT_OK


def cmd_explain(args) -> int:
    # imported here, not at the top: only this command needs them (they run scenarios), and every
    # command starts faster
    from .explain import explain, game_meant
    name = args.game
    if not (Path(name).suffix or Path(name).exists() or name in bundled_games()):
        name = game_meant(name)             # a game's key in any case, or words of its title
        if name is None:
            return EXIT_USAGE
    gamedef = load_one(name)
    return explain(gamedef, name, args.words, original=args.original, python=args.python)


def cmd_site(args) -> int:
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .site import command
    return command(args)


def cmd_fmt(args) -> int:
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .diagnostics import SourceError, read_source, render_all
    changed, unsafe, unwritten, errors = 0, 0, 0, []
    paths = []
    for path in args.paths:
        if not path.exists():
            print(f"ludex: error: no such file: {path}", file=sys.stderr)
            return EXIT_USAGE
        if path.suffix == ".log" and not path.is_dir():
            print(f"ludex: error: {path} is a game log file: 'ludex fmt' formats rules and scenario files "
                  "(.ludex, .scenario)", file=sys.stderr)
            return EXIT_USAGE
        found = fmt_files(path) if path.is_dir() else [path]
        if not found:
            print(f"ludex: error: {path} holds no rules or scenario files (.ludex, .scenario) to format",
                  file=sys.stderr)
            return EXIT_USAGE
        paths += found
    for path in paths:
        scenario = path.suffix == ".scenario"
        try:
            text = read_source(path)        # a byte-order mark is not part of the form: it is kept
            pretty = _formatted(text, str(path), scenario)
        except SourceError as exc:          # reported with the others'; the other files are formatted
            errors += exc.diagnostics
            continue
        except OSError as exc:
            print(f"ludex: error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
            unwritten += 1
            continue
        says_the_same = _says_the_same_scenarios if scenario else _says_the_same
        if pretty != text and not says_the_same(text, pretty, str(path)):
            what = "scenarios" if scenario else "rules"
            print(f"ludex: error: formatting {path} would change what its {what} say (a fault in ludex fmt, "
                  "please report it): the file is left as it is", file=sys.stderr)
            unsafe += 1
            continue
        if args.check:
            if pretty != text:
                print(f"{path}: not in canonical form", file=sys.stderr)
                changed += 1
        elif args.write:
            if pretty != text:
                try:
                    mark = "\ufeff" if path.read_bytes().startswith(b"\xef\xbb\xbf") else ""
                    _replace(path, mark + pretty)
                except OSError as exc:
                    print(f"ludex: error: cannot write {path}: {exc.strerror or exc}; it is left as it is",
                          file=sys.stderr)
                    unwritten += 1
        else:
            sys.stdout.write(pretty)
    if errors:
        print(render_all(errors), file=sys.stderr)
        return EXIT_SOURCE
    if unwritten:
        return EXIT_USAGE
    return EXIT_FAILURES if changed or unsafe else EXIT_OK


def fmt_files(folder: Path) -> list:
    """The files ``ludex fmt`` formats in a folder, found as the rest of ludex finds them: its rules
    files (``*.ludex``, not in sub-folders: a game's rules sit side by side, as ``ludex check FOLDER``
    takes them), then its scenario files at any depth (``*.scenario``, as a game's scenarios are found
    under ``scenarios/<game>/``; so ``ludex fmt scenarios/`` formats every game's)."""
    return sorted(folder.glob("*.ludex")) + sorted(folder.rglob("*.scenario"))


def _formatted(text: str, path: str, scenario: bool) -> str:
    """The canonical form of a rules file's text, or of a scenario file's."""
    if scenario:
        # imported here, not at the top: only this command needs it, and every command starts faster
        from .fmt.scenarios import format_scenario_source
        return format_scenario_source(text, path)
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .fmt.rules import format_source
    return format_source(text, path)


def _says_the_same(text: str, pretty: str, path: str) -> bool:
    """Whether the formatted text parses to the same rules as the text, the header's parts given twice
    included (a check on the formatter before its output replaces or stands for a user's file)."""
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .diagnostics import SourceError
    from .parse import ast as A
    from .parse.syntax import parse_rules
    try:
        before, after = parse_rules(text, path), parse_rules(pretty, path)
    except SourceError:
        return False

    def twice(module):
        return [[part for part, _, _ in item.given_twice] for item in module.items if isinstance(item, A.GameHeader)]
    return before == after and twice(before) == twice(after)


def _says_the_same_scenarios(text: str, pretty: str, path: str) -> bool:
    """Whether the formatted text parses to the same scenarios as the text (the same check, for a
    scenario file: its nodes compared without their spans, see ``same_scenarios``)."""
    # imported here, not at the top: only this command needs it, and every command starts faster
    from .diagnostics import SourceError
    from .fmt.scenarios import same_scenarios
    from .parse.syntax import parse_scenarios
    try:
        return same_scenarios(parse_scenarios(text, path), parse_scenarios(pretty, path))
    except SourceError:
        return False


def _replace(path: Path, text: str):
    """Write ``text`` to ``path`` whole or not at all: to a new file beside it, then moved over it.
    ``OSError`` (a folder or a file that cannot be written) is the caller's to report."""
    import tempfile
    handle, spare = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".ludex-fmt", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(spare, path)
    except BaseException:
        os.unlink(spare)
        raise


if __name__ == "__main__":
    sys.exit(main())
