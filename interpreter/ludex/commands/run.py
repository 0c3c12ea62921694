"""``ludex run GAME``: a whole game played (by random agents, or one seat at the terminal), its cited
trace printed as it goes, its log written if asked.

In: the game and the options. Out: the trace (text or JSON) and the exit code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from shlex import quote

from ..command import Stopped, held_signals
from ..compliance.recorder import LogRecorder
from ..compliance.watch import Watch
from ..diagnostics import Diagnostic, RuntimeRuleError
from ..engine.agents import InteractiveAgent, RandomAgent
from ..engine.game import DECISION_EVENTS, Game, Violation
from ..engine.trace import JUDGE, PUBLIC, format_event, is_bookkeeping, rule_width
from ..parse.ast import NOWHERE
from ..parse.definition import default_count
from . import EXIT_OK, EXIT_USAGE
from .common import load_one, show_boards, table_problem

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
        extra = (f" --players {args.players}" if args.players else "") + (f" --format {args.format}" if args.format else "")
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
