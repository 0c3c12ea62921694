"""``ludex check-log GAME LOG``: a game log replayed against the rules, what they refuse reported.

In: the game and the log file. Out: the report (text or JSON) and the exit code.
"""

from __future__ import annotations

import json
import sys

from ..compliance.checker import LogReport, check_log, render_report
from ..compliance.log import load_log
from ..diagnostics import LudexError
from . import EXIT_FAILURES, EXIT_OK, EXIT_USAGE
from .common import diag_json, load_one


def cmd_check_log(args) -> int:
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
        print(json.dumps(dict(LogReport(str(args.log), gamedef.key).as_json(), ok=False,
                              errors=[diag_json(d) for d in exc.diagnostics]), indent=2))
        return exc.exit_code
    report = check_log(gamedef, log, args.all_violations)
    if args.json:
        print(json.dumps(dict(report.as_json(), errors=[]), indent=2))
    else:
        print(render_report(gamedef, report))
    return EXIT_OK if report.ok else EXIT_FAILURES
