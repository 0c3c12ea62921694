"""``ludex ask GAME [FILE | -]``: a judge's question, as scenarios, answered.

In: the game and the question's file (or standard input). Out: the answer printed (``scenarios/answer.py``)
and its exit code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..diagnostics import SourceError, decode_source, read_source, render_all
from ..scenarios.answer import ask, exit_status, render_answer
from ..scenarios.runner import load_question, run_scenario
from . import EXIT_USAGE
from .common import diag_json, load_one


def cmd_ask(args) -> int:
    """``ludex ask GAME [FILE | -]``: a question as a scenario, answered: each expectation met or not,
    the winner and the whole trace (``scenarios/answer.py``). Exit 0 every expectation met, 1 one not
    met, 2 a question that cannot be answered as written, 3 rules that do not check or cannot run."""
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
        if args.json:
            answer, status, _ = ask(gamedef, text, path)
            print(json.dumps(answer, indent=1))
            return status
        question = load_question(gamedef, text, path)
    except SourceError as exc:
        if args.json:
            print(json.dumps({"game": gamedef.key, "source": path, "ok": False,
                              "errors": [diag_json(d) for d in exc.diagnostics], "scenarios": []}, indent=1))
        else:
            print(render_all(exc.diagnostics), file=sys.stderr)
        return EXIT_USAGE
    results = [run_scenario(gamedef, scenario) for scenario in question.scenarios]
    print(render_answer(results, path, brief=args.brief))
    errors = [d for r in results for d in r.diagnostics]
    if errors:
        print(render_all(errors), file=sys.stderr)
    return exit_status(results)
