"""The ``ludex`` command: argument parsing and output. Every pass's diagnostics are rendered here,
in one place; a user's mistake never ends in a Python traceback.

Exit codes: 0 ok, 1 failures found (scenarios, violations), 2 usage error, 3 errors in rules or
scenario sources; 130 and 143 stopped by SIGINT (Ctrl-C) and SIGTERM (``ludex.command``, the entry
point, sets their handlers; called in-process, ``main`` answers Ctrl-C the same way).

Start-up: ``ludex --help``, a command's ``--help`` and a usage error import nothing of the pipeline
(no parser, no AST, no checker, no engine: ``tests/test_startup.py``); each command's body is a
module of ``commands/``, imported when the command runs, so the modules imported (and, with no
bytecode cached, compiled) at the top here are only those the argument parser needs.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from .command import exit_code as stop_exit_code
from .command import stopped_line
from .commands import EXIT_FAILURES, EXIT_OK, EXIT_SOURCE, EXIT_USAGE, SEED_MOST  # noqa: F401  (cli.EXIT_*)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"ludex: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


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


def path_given(value: str):
    """An argument type: a path, as ``pathlib.Path``. (pathlib, with urllib.parse behind it, is imported
    when an argument is one, not at the top: ``--help`` starts without it.)"""
    from pathlib import Path
    return Path(value)


def writable_file(value: str):
    """An argument type: a file that can be written (made, or overwritten), checked before any work
    is done, so that a game is not played only to find its log cannot be kept."""
    if not value.strip():
        raise argparse.ArgumentTypeError("expected the name of a file to write")
    path = path_given(value)
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
    p.add_argument("paths", nargs="*", type=path_given, metavar="GAME|PATH",
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
    p.add_argument("paths", nargs="+", type=path_given,
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
    p.add_argument("log", type=path_given, help="the log: a set-up, then plays, decisions and force lines")
    p.add_argument("--all", action="store_true", dest="all_violations",
                   help="report every violation reachable by skipping each refused entry")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=cmd_check_log)
    p = sub.add_parser("simulate", help="play many games with random agents; report problems with their seeds")
    p.add_argument("game", help="a bundled game (e.g. agot) or a rules file")
    p.add_argument("--games", type=at_least(1), default=100, metavar="N", help="how many games (default 100)")
    p.add_argument("--seed", type=at_least(0), default=1, help="the first seed; game i plays seed S+i (default 1)")
    p.add_argument("--jobs", type=at_least(0, " (0: every core)"), nargs="?", const=0, default=None, metavar="J",
                   help="processes to use (default 1); --jobs alone (or --jobs 0) uses every core; with "
                        "--cluster local, the workers to start")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="play the games on the workers of the Dask scheduler at ADDRESS (tcp://host:8786), "
                        "or 'local' to start one here (needs the 'cluster' extra)")
    p.add_argument("--players", type=at_least(1), default=None, metavar="N",
                   help="how many players (default: the fewest allowed)")
    p.add_argument("--format", default="", help="the format to play (default: the first the game names)")
    p.add_argument("--max-rounds", type=at_least(1), default=None, metavar="N",
                   help="a game not over after N rounds is reported (default 100)")
    p.add_argument("--max-steps", type=at_least(1), default=None, metavar="N",
                   help="the engine's step budget per game (default: the engine's own)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(run=cmd_simulate)
    p = sub.add_parser("mutate", help="a mutation score for every rule: small changes to each rule's transcription, "
                                      "and whether a scenario notices")
    p.add_argument("game", help="a bundled game (e.g. huntik) or its rules (its scenarios: scenarios/GAME/ beside "
                                "the rules/ folder)")
    p.add_argument("rules", nargs="*", metavar="RULE", help="only these rules' mutants (default: every rule's)")
    p.add_argument("--jobs", type=at_least(0, " (0: every core)"), nargs="?", const=0, default=1, metavar="J",
                   help="processes to use; --jobs alone (or --jobs 0) uses every core")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=cmd_mutate)
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


# The commands' bodies (``commands/``), each imported when its command runs: ``--help`` and a usage
# error, which end before any runs, compile and import none of them (``tests/test_startup.py``).

def cmd_check(args) -> int:
    # imported here, not at the top: only this command needs it, and every command starts faster; a
    # check of rules files alone runs no scenario, and starts without the scenario runner and the engine
    from .commands import check
    if not check.runs_scenarios(args):
        return check.cmd_check(args)
    # imported here, not at the top: only a check that runs scenarios needs it
    from .commands import scenario_runs
    return check.cmd_check(args, scenario_runs)


def cmd_ask(args) -> int:
    """``ludex ask GAME [FILE | -]``: a question as a scenario, answered: each expectation met or not,
    the winner and the whole trace (``scenarios/answer.py``). Exit 0 every expectation met, 1 one not
    met, 2 a question that cannot be answered as written, 3 rules that do not check or cannot run."""
    from .commands.ask import cmd_ask as run  # imported here: only this command needs it
    return run(args)


def cmd_fmt(args) -> int:
    from .commands.fmt import cmd_fmt as run  # imported here: only this command needs it
    return run(args)


def cmd_run(args) -> int:
    from .commands.run import cmd_run as run  # imported here: only this command needs it
    return run(args)


def cmd_explain(args) -> int:
    from .commands.explain import cmd_explain as run  # imported here: only this command needs it
    return run(args)


def cmd_check_log(args) -> int:
    from .commands.check_log import cmd_check_log as run  # imported here: only this command needs it
    return run(args)


def cmd_simulate(args) -> int:
    from .commands.simulate import cmd_simulate as run  # imported here: only this command needs it
    return run(args)


def cmd_mutate(args) -> int:
    from .commands.mutate import cmd_mutate as run  # imported here: only this command needs it
    return run(args)


def cmd_site(args) -> int:
    from .site import command  # imported here: only this command needs it
    return command(args)


if __name__ == "__main__":
    sys.exit(main())
