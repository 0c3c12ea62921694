"""``ludex mutate GAME [RULE...]``: every rule's mutants run against the game's scenarios, the report
(``compliance/mutation.py``).

In: the game, the rules named and the options. Out: the report (text or JSON) and the exit code: 0
with the report, 1 if a scenario fails with the rules as written (its rulings measure nothing), 2 an
unknown rule, 3 rules that do not check.
"""

from __future__ import annotations

import json
import sys

from ..command import held_signals
from ..compliance.mutation import mutate, render_report, scenarios_of
from ..compliance.simulation import progress_bar
from ..diagnostics import SourceError
from ..lookup import nearest_rules, rule_named
from . import EXIT_FAILURES, EXIT_OK, EXIT_USAGE
from .common import loaded_one


def cmd_mutate(args) -> int:
    loaded = loaded_one(args.game)
    if not loaded.ok:
        raise SourceError(loaded.diagnostics)
    gamedef = loaded.game
    rules = None
    if args.rules:
        rules = []
        for word in args.rules:
            rid = rule_named(gamedef, word)
            if rid is None:
                near = nearest_rules(gamedef, word, 3)
                hint = f" (did you mean {', '.join(near)}?)" if near else ""
                print(f"ludex: error: {gamedef.key} has no rule {word}{hint}", file=sys.stderr)
                return EXIT_USAGE
            rules.append(rid)
    paths = [str(p) for p in loaded.paths]
    report = mutate(gamedef.key, paths, [str(p) for p in scenarios_of(gamedef.key, paths)], rules=rules,
                    jobs=args.jobs, progress=progress_bar("mutants"))
    text = json.dumps(report, indent=1) if args.json else render_report(report)
    with held_signals():                # the report is written whole; a stop now is obeyed after it
        print(text)
        sys.stdout.flush()
    return EXIT_FAILURES if report["failing_scenarios"] else EXIT_OK
