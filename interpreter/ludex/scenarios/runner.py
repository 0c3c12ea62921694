"""Scenarios: scenario files in, rulings checked out (passed, failed with the difference, or in error).

A scenario sets up a state, scripts what the players decide and play, runs rules, and states what the
rules say happens. The runner answers the engine's decisions from the script in order; a decision the
script does not answer, or a scripted answer the rules never ask for, is an error naming the rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from ..check.checks import Checker, walk
from ..check.kinds import article
from ..check.spans import word_span
from ..check.values import Scope
from ..diagnostics import (
    SOURCES,
    Diagnostic,
    ForcedPickRefused,
    LudexError,
    Related,
    SourceError,
    read_source,
    render,
    render_all,
    source_text,
)
from ..engine.game import Game
from ..engine.trace import JUDGE, format_event, is_bookkeeping, reasons, rule_width, rules_behind
from ..parse import ast as A
from ..parse.definition import GameDef, format_problem
from ..parse.syntax import parse_question, parse_scenarios
from ..runtime.board import Board
from ..runtime.operations import explain
from ..runtime.records import Decision, Frame, GameOver, Goto, Play, Violation, _words
from ..runtime.state import Card
from .cards import scenario_game


@dataclass
class Failure:
    span: A.Span
    message: str
    expected: str = ""
    actual: str = ""
    at: int = -1                        # how many events the trace had when it was found (-1: at the end)


@dataclass
class Checked:
    """An expectation as the run found it, met or not: what it expects and what was there, in words,
    and how many events the trace had when it was checked (its place in the trace)."""

    step: A.Step
    met: bool
    expected: str
    actual: str
    at: int


@dataclass
class Result:
    scenario: A.Scenario
    status: str = "passed"              # passed | failed | error
    failures: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)
    trace: list = field(default_factory=list)
    exercised: set = field(default_factory=set)
    setup_events: int = 0               # the trace's first events, made by the set-up (cited to no rule)
    expectations: list = field(default_factory=list)    # each expectation checked (``Checked``), in order
    game_over: bool = False             # how the run left the game: over or not, and who won
    winners: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.status == "passed"


#: A scenario is a few rounds at most: a run this long is a rule that loops.
SCENARIO_STEP_BUDGET = 200_000


class ScriptError(LudexError):
    exit_code = 1


# ------------------------------------------------------------------ static checks of a scenario


def check_scenarios(gamedef: GameDef, file: A.ScenarioFile) -> list[Diagnostic]:
    """Every diagnostic of a scenario file (or question): each scenario's cards checked as a rules
    file's (``scenario_game``), then the scenario against the game with its cards."""
    errors = []
    for sc in file.scenarios:
        game, problems = scenario_game(gamedef, sc)
        errors.extend(problems)
        errors.extend(check_scenario(game, sc))
    return errors


def check_scenario(gamedef: GameDef, sc: A.Scenario) -> list[Diagnostic]:
    """A scenario's own static checks against its game (with the scenario's cards)."""
    errors = []

    def err(code, message, span, hint=""):
        errors.append(Diagnostic("scenario", code, message, span, hint=hint))

    import difflib

    def near(name, names):
        close = difflib.get_close_matches(name, list(names), n=3, cutoff=0.5)
        return f"did you mean {', '.join(close)}?" if close else ""

    for drawn in sc.boards:
        if drawn.name not in gamedef.boards:
            err("C015", f"the game has no board '{drawn.name}' for this drawing to replace", drawn.span,
                near(drawn.name, gamedef.boards))
        else:
            try:
                Board.parse(drawn.drawing, drawn.span)
            except LudexError as exc:
                errors.extend(exc.diagnostics)
    for rule_id, span in sc.cites:
        if rule_id not in gamedef.rules:
            err("C001", f"scenario cites rule {rule_id}, which does not exist", span, near(rule_id, gamedef.rules))
    if not sc.players:
        err("C002", "a scenario names its players: players ann, bob", sc.span)
    if gamedef.header and sc.players and not (gamedef.header.min_players <= len(sc.players)
                                              <= gamedef.header.max_players):
        err("C003", f"{gamedef.key} is for {gamedef.header.min_players} to {gamedef.header.max_players} players, "
            f"not {len(sc.players)}", sc.span)
    if sc.format and gamedef.header and sc.format not in gamedef.header.formats:
        err("C004", f"unknown format '{sc.format}'", sc.span, near(sc.format, gamedef.header.formats))
    elif sc.players and format_problem(gamedef.header, sc.format, len(sc.players)):
        err("C004", format_problem(gamedef.header, sc.format, len(sc.players)), sc.span)
    for step in sc.steps:
        if step.kind == "run":
            for rid in step.args:
                if rid and rid not in gamedef.rules:
                    err("C001", f"there is no rule {rid} to run", step.span, near(rid, gamedef.rules))
        elif step.kind in ("plays", "tries", "passes", "chooses", "answers", "orders"):
            if step.args[0] not in sc.players:
                err("C005", f"'{step.args[0]}' is not one of this scenario's players", step.span,
                    near(step.args[0], sc.players))
            if step.kind in ("plays", "tries"):
                if step.args[1] not in gamedef.actions:
                    err("C006", f"unknown play '{step.args[1]}'", step.span, near(step.args[1], gamedef.actions))
        elif step.kind == "expect-offered" and step.args[0] not in sc.players:
            err("C005", f"'{step.args[0]}' is not one of this scenario's players",
                word_span(step.span, step.args[0], before=r"offered\s+"), near(step.args[0], sc.players))
        elif step.kind == "expect-refused":
            if step.args[0] not in gamedef.rules:
                err("C001", f"there is no rule {step.args[0]}", step.args[2], near(step.args[0], gamedef.rules))
        elif step.kind == "expect-trace":
            for rid, _, span in step.args:
                if rid not in gamedef.rules:
                    err("C001", f"there is no rule {rid}", span, near(rid, gamedef.rules))
        elif step.kind == "force-dice" and step.args[0] not in gamedef.dice:
            err("C007", f"unknown dice '{step.args[0]}'", step.span, near(step.args[0], gamedef.dice))
        elif step.kind in ("expect-winner", "expect-eliminated") and isinstance(step.args[0], A.ListExpr):
            # 'expect winner [dana, dana]' held when dana alone won: a player is named once
            seen = {}
            for item in step.args[0].items:
                if isinstance(item, A.Name) and item.name in sc.players:
                    if item.name in seen:
                        first = Related(seen[item.name], "first named here")
                        errors.append(Diagnostic("scenario", "C016", f"player '{item.name}' is named twice",
                                                 item.span, related=(first,)))
                    else:
                        seen[item.name] = item.span
    for step in sc.steps:
        if step.kind in ("plays", "tries") and step.args[1] in gamedef.actions:
            params = gamedef.actions[step.args[1]].params
            if len(step.args[2]) != len(params):
                err("C009", f"play '{step.args[1]}' takes {len(params)} argument(s), not {len(step.args[2])}",
                    step.span)
            for arg, param in zip(step.args[2], params):
                if param.type == "card" and isinstance(arg, A.Text) and arg.value not in gamedef.cards:
                    err("C008", f"unknown card \"{arg.value}\"", arg.span, near(arg.value, gamedef.cards))
            errors.extend(arguments_of_the_wrong_kind(gamedef, sc.players, gamedef.actions[step.args[1]],
                                                      step.args[2], "scenario", "C018"))
    errors.extend(check_script_of(gamedef, sc.players, sc.setup, sc.steps, "a scenario's set-up"))
    for s in _creates(sc.setup):
        items = s.cards.items if isinstance(s.cards, A.ListExpr) else (s.cards,)
        for item in items:
            if isinstance(item, A.Text) and item.value not in gamedef.cards:
                err("C008", f"unknown card \"{item.value}\"", item.span, near(item.value, gamedef.cards))
    return errors


#: What a play's argument may be written as, for each kind of parameter an action declares: a card
#: by its title, a space by its name (both text), the rest as themselves. Any other kind of value is
#: never among the play's choices: the play would be refused for a rule it does not break (``play-card(5)``
#: failed 'You can only play a card from your hand.'), so it is refused where it is written.
PLAY_ARGUMENTS = {
    "card": ({"card", "text"}, "a card", "a card is named by its title, in quotes"),
    "space": ({"space", "text"}, "a space", "a space is named in quotes, as the board names it"),
    "player": ({"player"}, "a player", "a player is named by name, without quotes"),
    "number": ({"number"}, "a number", ""),
    "text": ({"text"}, "text", "text is written in quotes"),
    "flag": ({"bool"}, "true or false", ""),
    "list": ({"list", "cards", "players"}, "a list", ""),
}
#: The kinds of value a script's expression is known to be; an expression of another kind ("any": a
#: name the checks do not know, a value's result) is left to the run.
_KNOWN_KINDS = {"number", "text", "bool", "none", "player", "card", "zone", "board", "space", "list", "cards",
                "players"}


def arguments_of_the_wrong_kind(gamedef: GameDef, players, action: A.Action, args, kind: str,
                                code: str) -> list[Diagnostic]:
    """A play's arguments (a scenario's or a log's), each of a kind its parameter can never be: a
    number for a card, text for a player ... reported at the argument, with the parameter."""
    scope = Scope(Checker(gamedef), {name: "player" for name in players})
    errors = []
    for arg, param in zip(args, action.params):
        accepted, wanted, hint = PLAY_ARGUMENTS.get(str(param.type), (None, "", ""))
        got = scope.type_of(arg)
        if accepted is None or got not in _KNOWN_KINDS or got in accepted:
            continue
        this = {"space": "a space", "board": "a board"}.get(got) or article(got)
        errors.append(Diagnostic(kind, code, f"{wanted} is needed here ({action.name}'s {param.name}), but this "
                                 f"is {this}", arg.span, hint=hint,
                                 related=(Related(param.span, f"{action.name}'s {param.name} is {wanted}"),)))
    return errors


def check_script_of(gamedef: GameDef, players, setup, steps, set_up: str) -> list[Diagnostic]:
    """The rules' static checks of a scenario's or a log's set-up and of the expressions its lines
    hold (expectations, choices, plays' arguments, forced outcomes), its players being names of
    players: an unknown name or a value of the wrong kind is found before anything runs."""
    expressions, zones, winners, conditions = [], [], [], []
    for step in steps:
        if step.kind == "expect-true":
            conditions.append(step.args[0])       # true or false: 'expect 5' would always hold
        elif step.kind == "force-pick":
            expressions.append(step.args[0])
        elif step.kind in ("expect-winner", "expect-eliminated"):
            winners.append(step.args[0])
        elif step.kind == "force-order":
            zones.append(step.args[0])
        elif step.kind in ("chooses", "orders"):
            expressions.append(step.args[1])
        elif step.kind in ("plays", "tries"):
            expressions.extend(step.args[2])
    return Checker(gamedef).check_script(players, setup, expressions, zones, winners, set_up, conditions)


def _creates(body):
    return [s for s in walk(body) if isinstance(s, A.Create)]


# ------------------------------------------------------------------ the scripted agent


class Script:
    """The scenario's answers, consumed in order by the decisions the rules ask."""

    def __init__(self, runner: "Runner"):
        self.runner = runner
        self.queue: list[A.Step] = []
        self.offered: dict[str, Decision] = {}
        self.last: Optional[A.Step] = None      # the answer given last

    def __call__(self, game: Game, decision: Decision):
        who = decision.player.name if decision.player else ""
        if who:
            self.offered[who] = decision
        if not self.queue:
            asking = f"rule {decision.rule}" if decision.rule else "the set-up"
            span = self.runner.current.span
            if not decision.rule and decision.span is not None and decision.span.line > 0:
                span = decision.span        # a decision outside any rule: where it is asked
            hint = "the options are: " + ", ".join(decision.describe_options())
            if self.runner.current.kind in ("tries", "run", "play-game"):
                # the answers a line's decisions take are those written before it
                hint += f"; write the answer before the '{self.runner.current.kind.replace('-', ' ')}' line"
            raise ScriptError([Diagnostic(
                "scenario", "C010", f"{asking} asks {who or 'the game'} to decide "
                f"({decision.prompt or decision.kind}), but the script says nothing more",
                span, rule=decision.rule, hint=hint)])
        step = self.queue[0]
        player = step.args[0]
        if player != who:
            raise ScriptError([Diagnostic(
                "scenario", "C011", f"the script's next line is for {player}, but rule {decision.rule} asks "
                f"{who or 'the game'} to decide ({decision.prompt or decision.kind})", step.span,
                rule=decision.rule, hint="the options are: " + ", ".join(decision.describe_options()))])
        self.queue.pop(0)
        self.last = step
        return self.runner.answer(step, decision)


# ------------------------------------------------------------------ running


class Runner:
    def __init__(self, gamedef: GameDef, scenario: A.Scenario):
        gamedef, problems = scenario_game(gamedef, scenario)    # the game with the scenario's own cards
        if problems:            # (found by the checks first; a run through the API meets them here)
            raise SourceError(problems)
        self.gamedef = gamedef
        self.scenario = scenario
        self.script = Script(self)
        self.game = Game(gamedef, list(scenario.players), self.script, seed=0, format=scenario.format,
                         step_budget=SCENARIO_STEP_BUDGET, reasons=True)
        self.frame = Frame(self.game, {p.name: p for p in self.game.state.players}, "")
        self.game.compiler.note_variables(self.frame.vars)
        self.refusal: Optional[Violation] = None
        #: every refusal, with the line of the play refused; an 'expect refused' accounts for those
        #: before it (``accounted``), and one left unaccounted for fails the scenario
        self.refusals: list[tuple[Violation, A.Span]] = []
        self.accounted = 0
        self.game.choose_again = self._choose_again
        self.current: A.Step = A.Step(scenario.span, "setup")
        self.result = Result(scenario)
        #: for each kind of random outcome (``dice attack``, ``pick``): the line fixing each outcome, in order
        self.forced_at: dict = {}
        self._texts: Optional[set] = None       # the words the rules write (``_names_something``)

    # -- resolving the script's words against the game
    def value(self, expr):
        """What an expression of the script (an expectation, a choice ...) reads now. A value of the
        wrong kind that the static checks could not see is an error at the expression."""
        try:
            return self.game.compiler.expr(expr)(self.frame)
        except LudexError:
            raise
        except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
            raise ScriptError([Diagnostic("scenario", "C014", "this cannot be worked out with these values "
                                          f"({explain(exc)})", expr.span)]) from None

    def matches(self, option, wanted) -> bool:
        if option is wanted or option == wanted:
            return True
        if isinstance(option, Card) and isinstance(wanted, str):
            return option.title == wanted
        if isinstance(getattr(option, "card", None), Card):
            # a card's ability (``Bell (Ring)``), named by its card, its card's title, or in full
            if isinstance(wanted, Card):
                return option.card is wanted
            if isinstance(wanted, str):
                return wanted == option.card.title or wanted == str(option)
        if isinstance(option, (list, tuple)) and isinstance(wanted, (list, tuple)):
            return len(option) == len(wanted) and all(self.matches(o, w) for o, w in zip(option, wanted))
        return _words(option) == _words(wanted)

    def answer(self, step: A.Step, decision: Decision):
        kind = step.kind
        if kind in ("plays", "passes"):
            if decision.kind != "play":
                raise self._mismatch(step, decision)
            if kind == "passes":
                return Play("pass", decision.player)
            name, args = step.args[1], [self.value(a) for a in step.args[2]]
            for option in decision.options:
                if option.action == name and len(option.args) == len(args) and \
                        all(self.matches(o, w) for o, w in zip(option.args, args)):
                    return option
            # not among the legal plays: build it so that the engine refuses it with its rule
            return self.play_of(decision.player, name, args)
        if kind == "answers":
            if decision.kind != "may":
                raise self._mismatch(step, decision)
            return step.args[1]
        if kind == "orders":
            wanted = self.value(step.args[1])
            ordered = []
            remaining = list(decision.options)
            for w in wanted:
                matching = [o for o in remaining if self.matches(o, w)]
                if not matching:
                    raise self._mismatch(step, decision)
                self._unambiguous(step, decision, w, matching)
                ordered.append(matching[0])
                remaining.remove(matching[0])
            return ordered + remaining
        wanted = self.value(step.args[1])
        for option in decision.options:
            if self.matches(option, wanted):
                self._unambiguous(step, decision, wanted,
                                  [o for o in decision.options if self.matches(o, wanted)])
                return option
        if self._names_something(wanted):
            return self._refuse_choice(step, decision, wanted)
        raise ScriptError([Diagnostic(
            "scenario", "C012", f"{step.args[0]} cannot choose {_words(wanted)} here: the game has nothing of "
            "that name", step.span, rule=decision.rule,
            hint="the options are: " + ", ".join(decision.describe_options()))])

    def _names_something(self, wanted) -> bool:
        """Whether a choice names something of the game, offered or not: any value but text, and text
        that is a card's title, a space of a board or words the rules write (``"stop"``). Other text
        names nothing (a misspelt title): the script's mistake, not a ruling."""
        if not isinstance(wanted, str):
            return True
        if wanted in self.gamedef.cards or any(wanted in board for board in self.game.boards.values()):
            return True
        if self._texts is None:
            self._texts = {x.value for x in A.descendants(tuple(self.gamedef.modules)) if isinstance(x, A.Text)}
        return wanted in self._texts

    def _refuse_choice(self, step: A.Step, decision: Decision, wanted):
        """A choice outside the options a rule offers: refused citing the rule that asks it, in the
        words of what it offers (the choice's prompt and its options as written), and not made. When the
        script's next line is another choice by the same player, the refusal is traced and the player
        chooses again; otherwise it stops the run, as a refused play does."""
        who, words = step.args[0], _words(wanted)
        asked = self._choice_asked(decision)
        offered = f'"{decision.prompt}"' if decision.prompt else "this choice"
        limit = f": {asked}" if asked else ""
        refusal = Violation(decision.rule, f"{words} is not one of the options of {offered}{limit}", None,
                            decision.span, self.game.state.snapshot(), tried=f"{who} chooses {words}")
        queue = self.script.queue
        if queue and queue[0].kind == "chooses" and queue[0].args[0] == who:
            self.refused(refusal, step.span)
            self.game.record(refusal.rule, "refused", refusal.words(operands=False), decision.player, **refusal.data())
            return self.script(self.game, decision)
        raise refusal

    def _choice_asked(self, decision: Decision) -> str:
        """The options of the choice a decision asks, as the rules write them (``row-neighbours(p.locales,
        mover.locale)``, ``those h in ...: h.ready``; ``0 to l.amount``), or "" where it is not found."""
        if decision.span is None:
            return ""
        for x in A.descendants(tuple(self.gamedef.modules)):
            if isinstance(x, A.Choose) and x.span == decision.span:
                return _written(x.options.span)
            if isinstance(x, A.ChooseNumber) and x.span == decision.span:
                return f"{_written(x.low.span)} to {_written(x.high.span)}"
        return ""

    def play_of(self, player, name: str, args: list) -> Play:
        """The play the script names: its arguments matched to the play's choices (a card by title), or
        taken as written where none matches, for the engine to refuse with its rule."""
        action = self.game.actions[name]
        for candidate in action.candidates(self.game, player):
            if len(candidate) == len(args) and all(self.matches(o, w) for o, w in zip(candidate, args)):
                return Play(name, player, candidate)
        return Play(name, player, tuple(resolve_card(self.game, player, a) for a in args))

    def _unambiguous(self, step, decision, wanted, matching):
        """A title naming options that are different players' cards (each player's copy of a plot) does
        not say which is meant: taking the first would answer for the script."""
        if not isinstance(wanted, str):
            return
        cards = [o if isinstance(o, Card) else getattr(o, "card", None) for o in matching]
        owners = {id(c.owner): c.owner for c in cards if isinstance(c, Card)}
        if len(owners) > 1:
            whose = ", ".join(f"{o}'s" if o is not None else "no one's" for o in owners.values())
            raise ScriptError([Diagnostic(
                "scenario", "C012", f"{_words(wanted)} names {len(matching)} options here, cards of different "
                f"players ({whose}): the script does not say which", step.span, rule=decision.rule,
                hint="name the card by where it is, e.g. top(ann.revealed-plots), "
                "first(those c in cards-in-play: c.title == \"...\" and c.owner == ann)")])

    def _mismatch(self, step, decision):
        return ScriptError([Diagnostic(
            "scenario", "C011", f"the script says {step.args[0]} {step.kind}, but rule {decision.rule} asks "
            f"{decision.player} to {decision.kind} ({decision.prompt})", step.span, rule=decision.rule,
            hint="the options are: " + ", ".join(decision.describe_options()))])

    # -- the run
    def run(self) -> Result:
        r = self.result
        try:
            if self.scenario.boards:
                for drawn in self.scenario.boards:
                    self.game.boards[drawn.name] = Board.parse(drawn.drawing, drawn.span)
            setup = self.game.compiler.block(self.scenario.setup)
            self._guarded(lambda: setup(self.frame))
            r.setup_events = len(self.game.events)
            self.game.checks_active = True
            for step in self.scenario.steps:
                self.current = step
                self.step(step)
            for kind, queue in self.game.forced.items():
                if queue:
                    lines = self.forced_at.get(kind, [])     # the outcomes left over are the last ones forced
                    r.failures.append(Failure(lines[-len(queue)] if len(queue) <= len(lines) else self.scenario.span,
                                              "the scenario fixes a random outcome that "
                                              "never happened", f"{kind}: {_words(list(queue))}",
                                              "no such random outcome was drawn"))
            if len(self.refusals) > self.accounted:
                refused, span = self.refusals[self.accounted]
                r.failures.append(Failure(span, "this play was refused, and no 'expect refused' after it says so",
                                          "the play made", refused.words()))
            if self.script.queue:
                leftover = self.script.queue[0]
                r.failures.append(Failure(leftover.span, "the rules never asked for this decision",
                                          f"a decision for {leftover.args[0]}", "no such decision was asked"))
        except LudexError as exc:
            r.status = "error"
            if isinstance(exc, ForcedPickRefused):
                r.diagnostics = [self._forced_pick(exc)]
            else:
                r.diagnostics = [self._from_here(d) for d in exc.diagnostics]
        if r.status != "error" and r.failures:
            r.status = "failed"
        r.trace = self.game.trace
        r.game_over, r.winners = bool(self.game.over), list(self.game.winners or ())
        r.exercised = {x for x in self.game.rules_exercised() if x in self.gamedef.rules}
        return r

    def _forced_pick(self, exc: ForcedPickRefused) -> Diagnostic:
        """A pick the script fixed to what the rules do not pick from is the script's mistake: it is
        reported at its 'force pick' line (C012), the rules' pick shown beside it."""
        (d,) = exc.diagnostics
        lines = self.forced_at.get("pick", [])
        used = len(lines) - len(self.game.forced.get("pick", ())) - 1
        if not 0 <= used < len(lines):
            return self._from_here(d)
        return Diagnostic("scenario", "C012", f"force pick {exc.forced}, which is not one of {exc.options}, the "
                          f"options rule {d.rule} picks from here", lines[used], rule=d.rule,
                          related=(Related(d.span, "the pick"),))

    def _from_here(self, d: Diagnostic) -> Diagnostic:
        """An error the rules met while running this scenario, placed in the rules file, also points at
        the scenario's line that ran them: the mistake may well be there (a set-up that leaves out what
        the rules read)."""
        here = self.current.span
        if d.span.path == here.path or here.line <= 0 or any(r.span == here for r in d.related):
            return d
        said = "the scenario whose set-up ran the rules" if self.current.kind == "setup" else \
            "the scenario's line that ran the rules"
        return replace(d, related=tuple(d.related) + (Related(here, said),))

    def step(self, step: A.Step):
        game, kind = self.game, step.kind
        if kind in ("plays", "passes", "chooses", "answers", "orders"):
            self.script.queue.append(step)
        elif kind == "force-dice":
            game.force(f"dice {step.args[0]}", *step.args[1])
            self.forced_at.setdefault(f"dice {step.args[0]}", []).extend([step.span] * len(step.args[1]))
        elif kind == "force-order":
            zone = self.value(step.args[0])
            game.force(f"order {zone}", list(step.args[1]))
            self.forced_at.setdefault(f"order {zone}", []).append(step.span)
        elif kind == "force-pick":
            game.force("pick", _words(self.value(step.args[0])))
            self.forced_at.setdefault("pick", []).append(step.span)
        elif kind == "run":
            first, last = step.args
            ids = [first]
            if last:
                parent = self.gamedef.parent_of(first)
                siblings = [r for r in self.gamedef.rules if self.gamedef.parent_of(r) == parent]
                if first not in siblings or last not in siblings or siblings.index(last) < siblings.index(first):
                    raise ScriptError([Diagnostic("scenario", "C013", f"run {first} to {last}: {last} is not a later "
                                                  f"rule beside {first}", step.span)])
                ids = siblings[siblings.index(first): siblings.index(last) + 1]
            self._guarded(lambda: game.run_sequence(ids))
        elif kind == "tries":
            # A play no decision offers (out of turn, outside any window): checked against its
            # requirements now, made if they hold, refused with its rule otherwise.
            player = game.state.player(step.args[0])
            if game.over or player.eliminated:
                why = "the game is over" if game.over else f"{player} is out of the game"
                raise ScriptError([Diagnostic("scenario", "C011", f"{why}: {player} can try no play",
                                              step.span)])
            play = self.play_of(player, step.args[1], [self.value(a) for a in step.args[2]])
            self.refusal = None
            self._guarded(lambda: game.attempt(play, game.actions[play.action].rule))
        elif kind == "play-game":
            # The game is played from its start: its state checks look from its own 'begin game' on,
            # not at the empty zones its set-up is about to fill.
            game.checks_active = False
            self._guarded(game.run)     # (as a game is run: a stray jump in the flow is an error at it)
        else:
            self.checked(step)

    def _choose_again(self, refused, player) -> bool:
        """A refused play is taken back when the script's next line is another choice by the same
        player (as at the table: the player is told why, and chooses again). A refused choice inside a
        play's effect (no play of its own) is not a play to take back: it stops the run."""
        if refused.play is None:
            return False
        self.refused(refused, self.script.last.span if self.script.last is not None else self.current.span)
        queue = self.script.queue
        return bool(queue) and queue[0].args[0] == player.name

    def refused(self, refusal: Violation, span: A.Span):
        self.refusal = refusal
        self.refusals.append((refusal, span))

    def _guarded(self, action):
        try:
            action()
        except Violation as v:
            last = self.script.last
            # the play refused: a 'tries' line's, or the answer given last (a play the rules asked for)
            self.refused(v, last.span if last is not None and self.current.kind != "tries" else self.current.span)
            self.game.record(v.rule, "refused", v.words(operands=False),
                             v.play.player if v.play is not None else None, **v.data())
        except GameOver as over:
            self.game.over = True
            self.game.winners = over.winners
        except Goto as g:
            # the procedure goes on beyond what this step runs: the step ends here
            self.game.record(g.target, "goto", f"the procedure goes on at step {g.target} (the scenario's "
                             "run stops here)")
        except RecursionError:
            # outside any rule (a play tried, a set-up's 'perform'), where no rule's level reports it
            running = self.game.running
            raise self.game.error("the rules nest deeper than Python's stack allows: a play keeps performing "
                                  "itself", running[-1] if running else "", self.current.span) from None

    # -- expectations
    def fail(self, step, message, expected="", actual=""):
        self.result.failures.append(Failure(step.span, message, expected, actual, len(self.game.events)))

    def checked(self, step: A.Step):
        """An expectation checked, and what it found, met or not, kept for the judge's answer."""
        before = len(self.result.failures)
        self.expect(step)
        failed = self.result.failures[before:]
        expected, actual = (failed[0].expected, failed[0].actual) if failed else self.observed(step)
        self.result.expectations.append(Checked(step, not failed, expected, actual, len(self.game.events)))

    def observed(self, step: A.Step) -> tuple[str, str]:
        """What a met expectation expects and what the run shows, in words (a failed one says both in
        its failure)."""
        kind, game = step.kind, self.game
        if kind == "expect-true":
            expr = step.args[0]
            if isinstance(expr, A.Binary) and expr.op in ("==", "!=", "<", "<=", ">", ">="):
                left, right = self.value(expr.left), self.value(expr.right)
                return (f"{source_text(expr.left)} {expr.op} {_words(right)}",
                        f"{source_text(expr.left)} is {_words(left)}")
            return source_text(expr), "true"
        if kind == "expect-winner":
            return _words(self.value(step.args[0])), _words(game.winners)
        if kind == "expect-no-winner":
            return "no winner", "the game is over, with no winner" if game.over else "no winner yet"
        if kind == "expect-eliminated":
            who = self.value(step.args[0])
            return f"{_words(who)} eliminated", f"{_words(who)} out of the game"
        if kind == "expect-refused":
            rule, message, _ = step.args
            return (f"a play refused by rule {rule}" + (f": {message}" if message else ""),
                    self.refusal.words())
        if kind == "expect-trace":
            wanted = [(rid, words) for rid, words, _ in step.args]
            met = [f"event {event.seq} [{event.rule}] {event.text}" for event in trace_met(game.trace, wanted)]
            return ", ".join(rid + (f' "{words}"' if words else "") for rid, words in wanted), "; ".join(met)
        if kind == "expect-offered":
            return ", ".join(step.args[1]), ", ".join(self.script.offered[step.args[0]].describe_options())
        return "", ""

    def expect(self, step: A.Step):
        kind, game = step.kind, self.game
        if kind == "expect-true":
            expr = step.args[0]
            if not self.value(expr):
                if isinstance(expr, A.Binary) and expr.op in ("==", "!=", "<", "<=", ">", ">="):
                    left, right = self.value(expr.left), self.value(expr.right)
                    self.fail(step, "expectation not met", f"{source_text(expr.left)} {expr.op} {_words(right)}",
                              f"{source_text(expr.left)} is {_words(left)}")
                else:
                    self.fail(step, "expectation not met", source_text(expr), "false")
        elif kind == "expect-winner":
            wanted = self.value(step.args[0])
            wanted = wanted if isinstance(wanted, list) else [wanted]
            actual = game.winners
            if actual is None or Counter(map(id, actual)) != Counter(map(id, wanted)):
                self.fail(step, "the winner is not the one expected", _words(wanted),
                          "no winner yet" if not actual else _words(actual))
        elif kind == "expect-no-winner":
            if game.winners:
                self.fail(step, "the game has a winner", "no winner", _words(game.winners))
        elif kind == "expect-eliminated":
            who = self.value(step.args[0])
            for p in who if isinstance(who, list) else [who]:
                if not p.eliminated:
                    self.fail(step, f"{p} is not eliminated", f"{p} eliminated", f"{p} still in the game")
        elif kind == "expect-refused":
            rule, message, _ = step.args
            self.accounted = len(self.refusals)
            if self.refusal is None:
                kinds = {e[1] for e in game.events}
                self.fail(step, "no play was refused", f"a play refused by rule {rule}",
                          "every play was allowed" if "play" in kinds else
                          "no play was made: every player asked passed" if "pass" in kinds else
                          "no play was made: the rules asked no one for one")
            elif self.refusal.rule != rule or (message and self.refusal.message != message):
                self.fail(step, "a play was refused, but not as expected", f"rule {rule}" + (f": {message}" if message else ""),
                          self.refusal.words())
        elif kind == "expect-trace":
            # each item in turn: an event citing the rule (and saying the words, when given, in the
            # judge's view: a hidden choice's too), later in the trace than the event that met the
            # item before it
            wanted = [(rid, words) for rid, words, _ in step.args]
            i = len(trace_met(game.trace, wanted))
            if i < len(wanted):
                def item(rid, words):
                    return rid + (f' "{words}"' if words else "")
                described = ", ".join(item(rid, words) for rid, words in wanted)
                if any(words for _, words in wanted):
                    missing = f"no event cites {wanted[i][0]}" + (f' saying "{wanted[i][1]}"' if wanted[i][1] else "")
                    after = f" after the one matching {item(*wanted[i - 1])}" if i else ""
                    self.fail(step, "the trace does not have these events in this order", described,
                              missing + after)
                else:
                    self.fail(step, "the trace does not cite these rules in this order", described,
                              _compress([e.rule for e in game.trace if e.rule]))
        elif kind == "expect-offered":
            who, labels = step.args
            decision = self.script.offered.get(who)
            offered = decision.describe_options() if decision else []
            if sorted(offered) != sorted(labels):
                self.fail(step, f"the options offered to {who} differ", ", ".join(labels),
                          ", ".join(offered) if offered else "no decision was offered")


def trace_met(trace, wanted: list) -> list:
    """The events meeting an ``expect trace``'s items in turn (``(rule, words)``; words may be ""): each
    the first after the one before that cites the rule, itself or in its reasons, and says the words, in
    its text or its reasons. Fewer events than items: the item after the last met is not."""
    met = []
    for event in trace:
        if len(met) < len(wanted):
            rule, words = wanted[len(met)]
            if rule in rules_behind(event) and (words in event.view(JUDGE)[0] or words in reasons(event)):
                met.append(event)
    return met


def resolve_card(game, player, value):
    """A title named in a play outside the action's domain: the card of that title wherever it is
    (the player's own first), so that the rules refuse the play for what it is."""
    if not isinstance(value, str):
        return value
    titled = [c for c in game.state.cards if c.title == value]
    own = [c for c in titled if c.owner is player]
    return (own or titled or [value])[0]


def _written(span: A.Span) -> str:
    """The rules' text at a span, its lines joined into one (for a message), or "" if it is not to be
    read."""
    lines = [SOURCES.line(span.path, n) for n in range(span.line, span.end_line + 1)]
    if not lines or any(line is None for line in lines):
        return ""
    if len(lines) == 1:
        return lines[0][span.column - 1: span.end_column - 1]
    lines[0], lines[-1] = lines[0][span.column - 1:], lines[-1][: span.end_column - 1]
    return " ".join(" ".join(lines).split())


def _compress(ids) -> str:
    out = []
    for rid in ids:
        if not out or out[-1] != rid:
            out.append(rid)
    text = ", ".join(out)
    return text if len(text) < 300 else text[:300] + " ..."


# ------------------------------------------------------------------ files and games


def scenario_files(folder: Path, game: str) -> list[Path]:
    return sorted((folder / game).rglob("*.scenario")) if (folder / game).is_dir() else []


def stray_scenarios(folder: Path, games) -> list[Diagnostic]:
    """C019 at each scenario file under ``folder`` in a folder that names no game of ``games`` (a
    misspelt ``scenarios/hunitk/``): nothing would run its scenarios, and a check would pass without
    them."""
    import difflib
    errors = []
    if not folder.is_dir():
        return errors
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in games):
        close = difflib.get_close_matches(sub.name, list(games), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        for path in sorted(sub.rglob("*.scenario")):
            errors.append(Diagnostic(
                "scenario", "C019", f"this scenario is in the folder '{sub.name}', which names no game: "
                f"scenarios/<game>/ holds a game's scenarios", A.Span(str(path), 1, 1, 1, 2),
                hint=f"{hint}the games are {', '.join(sorted(games))}"))
    return errors


def load_scenarios(gamedef: GameDef, path: Path) -> A.ScenarioFile:
    text = read_source(path)
    file = parse_scenarios(text, str(path))
    errors = check_scenarios(gamedef, file)
    if errors:
        raise SourceError(errors)
    return file


def load_question(gamedef: GameDef, text: str, path: str) -> A.ScenarioFile:
    """A question put to ``ludex ask``, whole scenarios or a bare script, parsed and checked against
    its game (``SourceError`` with its diagnostics, placed in ``text``, if it does not check)."""
    file = parse_question(text, path)
    errors = check_scenarios(gamedef, file)
    if errors:
        raise SourceError(errors)
    return file


def game_folder_of(path: Path) -> Optional[Path]:
    """The folder naming the game a scenario file is for: the one in a ``scenarios/`` folder above it
    (``scenarios/agot/round.scenario``: ``agot``), or None."""
    for parent in path.absolute().parents:
        if parent.parent.name == "scenarios":
            return parent
    return None


def rules_folder_of(path: Path) -> Optional[Path]:
    """The ``rules/`` folder beside the ``scenarios/`` folder a scenario file is under, or None."""
    for parent in path.absolute().parents:
        if parent.name == "scenarios" and (parent.parent / "rules").is_dir():
            return parent.parent / "rules"
    return None


def run_scenario(gamedef: GameDef, scenario: A.Scenario) -> Result:
    return Runner(gamedef, scenario).run()


#: A failure's report shows the whole trace up to this many events: past it, this many up to the
#: last failing point (a scenario that plays a whole game); ``ludex ask`` shows them all.
FAILURE_EVENTS_SHOWN = 400


def trace_lines(result: Result, marks=(), limit: Optional[int] = None, brief: bool = False) -> list[str]:
    """A run's trace as a judge reads it (``format_event``; the set-up's events, cited to no rule,
    marked ``[set-up]``), each of ``marks`` (``(at, words)``) a line of its own after the event it
    came after (``at`` events into the trace; -1: at its end). With ``limit``, a longer trace is shown
    by that many events, up to the last mark; ``brief``: without the transcription's bookkeeping."""
    trace = result.trace
    width = rule_width([e.rule for e in trace] + ["set-up"])
    placed = sorted(((len(trace) if at < 0 else min(at, len(trace)), words) for at, words in marks),
                    key=lambda mark: mark[0])
    start, end = 0, len(trace)
    if limit is not None and len(trace) > limit:
        start = max(0, (placed[-1][0] if placed else len(trace)) - limit)
        end = start + limit
    lines = [f"  ... {start} earlier events left out"] if start else []
    marks = iter(at_words for at_words in placed if start <= at_words[0] <= end)
    mark = next(marks, None)
    for event in trace[start:end]:
        while mark is not None and mark[0] < event.seq:         # (after the event numbered ``at``)
            lines.append(f"        >>> {mark[1]}")
            mark = next(marks, None)
        if brief and is_bookkeeping(event):
            continue
        lines.append("  " + format_event(event, "set-up" if event.seq <= result.setup_events else "flow",
                                          width=width))
    while mark is not None:
        lines.append(f"        >>> {mark[1]}")
        mark = next(marks, None)
    if end < len(trace):
        lines.append(f"  ... {len(trace) - end} later events left out")
    return lines


def failure_marks(result: Result) -> list:
    """Where each failure was found, to mark it in the trace: its line and message."""
    return [(f.at, f"line {f.span.line}: {f.message}") for f in result.failures]


def render_failure(result: Result, limit: Optional[int] = FAILURE_EVENTS_SHOWN) -> str:
    """A failed or broken scenario, for a judge: where, what was expected, what happened, the rules,
    and the trace of what ran, each failing point marked in it."""
    lines = []
    if result.status == "error":
        lines.append(render_all(result.diagnostics))
    for f in result.failures:
        lines.append(render(Diagnostic("scenario", "C100", f.message, f.span)))
        if f.expected:
            lines.append(f"  expected: {f.expected}")
        if f.actual:
            lines.append(f"  actual:   {f.actual}")
    if result.trace:
        lines.append(f"  the trace ({len(result.trace)} events; '>>>' marks where a failure was found):"
                     if result.failures else f"  the trace ({len(result.trace)} events):")
        lines += trace_lines(result, failure_marks(result), limit)
    return "\n".join(lines)
