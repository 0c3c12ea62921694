"""Checking a log against the rules: a ``GameDef`` and a ``LogFile`` in, a ``LogReport`` out.

The game's own flow plays from its start; every decision the rules ask takes the log's next play or
decision line, and the force lines fix the random outcomes that come before the next decision line.
The first play or outcome the rules refuse is reported (or, with ``all_violations``, every one
reachable by skipping the refused line) with the log's line, the rule it breaks and that rule's text,
the options the rules offered at that point, and the last consistent state. A log whose state breaks
the state's invariants (``State.invariant_breaks``) is reported as impossible. ``render_report``
writes the report as a compiler writes its diagnostics.
"""

from __future__ import annotations

import textwrap
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Optional

from ..diagnostics import (
    SOURCES,
    Diagnostic,
    ForcedPickRefused,
    LudexError,
    Related,
    RuntimeRuleError,
    SourceError,
    render,
    source_text,
)
from ..engine.game import Game
from ..parse import ast as A
from ..parse.definition import GameDef
from ..runtime.records import Decision, Frame, Play, Violation, _words
from ..runtime.state import Card, Player, Zone, items_of
from ..scenarios.runner import resolve_card
from .log import LogFile, check_log_file, parse_log, split_ordinal
from .watch import INCONSISTENT, InvariantBroken, Watch, describe_state


@dataclass
class Finding:
    """One thing the rules refuse in a log: where, what, the rule, the options offered, the state."""

    code: str
    message: str
    span: A.Span
    rule: str = ""
    options: tuple = ()
    state: tuple = ()
    related: tuple = ()
    hint: str = ""

    def diagnostic(self) -> Diagnostic:
        shown = list(self.options[:15])
        if len(self.options) > 15:
            shown.append(f"... ({len(self.options) - 15} more)")
        expected = ("one of: " + ", ".join(shown)) if self.options else ""
        return Diagnostic("violation", self.code, self.message, self.span, rule=self.rule, expected=expected,
                          related=self.related, hint=self.hint)

    def as_json(self) -> dict:
        return {"code": self.code, "message": self.message, "path": self.span.path, "line": self.span.line,
                "column": self.span.column, "rule": self.rule, "options": list(self.options),
                "state": list(self.state), "hint": self.hint}


@dataclass
class LogReport:
    path: str
    game: str
    findings: list = field(default_factory=list)
    entries: int = 0                # decision lines in the log
    accepted: int = 0               # decision lines the rules accepted
    over: bool = False
    winners: Optional[list] = None
    stopped_at: str = ""            # the log ran out while the rules asked this
    events: int = 0

    @property
    def ok(self) -> bool:
        return not self.findings

    def as_json(self) -> dict:
        return {"log": self.path, "game": self.game, "ok": self.ok, "entries": self.entries,
                "accepted": self.accepted, "over": self.over, "winners": self.winners,
                "stopped_at": self.stopped_at, "violations": [f.as_json() for f in self.findings]}


class _Stop(Exception):
    """The first violation was found: the replay stops."""


class _LogEnded(Exception):
    def __init__(self, decision: Decision):
        self.decision = decision


_DECISION_KINDS = ("plays", "passes", "chooses", "answers", "orders")
_WHAT = {"play": "play or pass", "choose": "choose", "number": "choose a number", "may": "answer yes or no",
         "order": "put things in order"}


def _matches(option, wanted) -> bool:
    if option is wanted or option == wanted:
        return True
    if isinstance(option, Card) and isinstance(wanted, str):
        return option.title == wanted
    if isinstance(option, (list, tuple)) and isinstance(wanted, (list, tuple)):
        return len(option) == len(wanted) and all(_matches(o, w) for o, w in zip(option, wanted))
    return _words(option) == _words(wanted)


def _line_of(step: A.Step) -> str:
    text = SOURCES.line(step.span.path, step.span.line)
    return text.strip() if text else step.kind


class LogChecker:
    """Plays a game's flow, answering its decisions from a log's entries in order."""

    def __init__(self, gamedef: GameDef, log: LogFile, all_violations: bool = False):
        self.gamedef = gamedef
        self.log = log
        self.all = all_violations
        self.entries = list(log.entries)
        self.pos = 0
        self.game = Game(gamedef, list(log.players), self, seed=log.seed if log.seed is not None else 1,
                         format=log.format)
        self.watch = Watch(self.game, invariants=True)
        self.frame = Frame(self.game, {p.name: p for p in self.game.state.players}, "")
        self.game.compiler.note_variables(self.frame.vars)
        self.pending: dict[str, deque] = {}      # forced kind -> deque of (step, detail), as queued
        self.report = LogReport(log.path, gamedef.key,
                                entries=sum(1 for e in self.entries if e.kind in _DECISION_KINDS))
        self.last_entry: Optional[A.Step] = None
        self.last_good: list = []
        self.game.listen(self._on_event)

    # -- findings
    def find(self, code, message, span, rule="", options=(), related=(), hint="", state=None):
        finding = Finding(code, message, span, rule, tuple(options),
                          tuple(state if state is not None else describe_state(self.game, self.watch)),
                          tuple(related), hint)
        self.report.findings.append(finding)
        if not self.all:
            raise _Stop()
        return finding

    def _here(self) -> A.Span:
        """The log line the replay has reached: the last entry accepted, or the set-up."""
        if self.last_entry is not None:
            return self.last_entry.span
        return self.log.head_spans.get("setup") or self.log.head_spans.get("players") or self.log.span

    # -- forced outcomes
    def _queue_forces(self):
        while self.pos < len(self.entries) and self.entries[self.pos].kind.startswith("force"):
            step = self.entries[self.pos]
            self.pos += 1
            try:
                self._queue(step)
            except LudexError as exc:
                d = exc.diagnostics[0]
                self.find("V011", f"this random outcome cannot happen: {d.message}", step.span)

    def _queue(self, step: A.Step):
        game = self.game
        if step.kind == "force-dice":
            key = f"dice {step.args[0]}"
            faces = list(step.args[1])
            game.force(key, *faces)
            self.pending.setdefault(key, deque()).extend((step, face) for face in faces)
        elif step.kind == "force-order":
            zone = game.compiler.expr(step.args[0])(self.frame)
            if not isinstance(zone, Zone):
                raise game.error(f"{_words(zone)} is not a zone", "")
            key = f"order {zone}"
            titles = list(step.args[1])
            game.force(key, titles)
            self.pending.setdefault(key, deque()).append((step, (zone, titles)))
        else:
            value = game.compiler.expr(step.args[0])(self.frame)
            game.force("pick", _words(value))
            self.pending.setdefault("pick", deque()).append((step, value))

    def _sync(self) -> list:
        """The forced outcomes the engine has used since the last look, each checked; returned as
        (key, step, detail)."""
        used = []
        for key, queue in self.pending.items():
            left = len(self.game.forced.get(key, ()))
            while len(queue) > left:
                step, detail = queue.popleft()
                used.append((key, step, detail))
        for key, step, detail in used:
            if key.startswith("dice "):
                dice = self.gamedef.dice[key[5:]]
                if detail not in dice.faces:
                    self.find("V011", f"the {key[5:]} dice have no face '{detail}' (their faces: "
                              f"{', '.join(dict.fromkeys(dice.faces))})", step.span, self.game.trace[-1].rule)
            elif key.startswith("order "):
                self._apply_order(step, *detail)
        return used

    def _apply_order(self, step: A.Step, zone: Zone, titles: list):
        """Put the shuffled zone in the log's order, copy by copy (cards of one title are
        interchangeable; the engine's own forced order groups them), checking that the zone holds
        every card the log names."""
        held = Counter(c.title for c in zone.cards)
        named = Counter(titles)
        missing = [t for t, n in named.items() if n > held.get(t, 0)]
        if missing:
            extra = ", ".join(f"{named[t] - held.get(t, 0)} more {t}" for t in missing)
            self.find("V011", f"the log orders cards that are not in {zone}: it names {extra} than {zone} holds "
                      f"({len(zone.cards)} cards)", step.span, self.game.trace[-1].rule)
            return
        remaining = list(zone.cards)
        ordered = []
        for title in titles:
            card = next(c for c in remaining if c.title == title)
            remaining.remove(card)
            ordered.append(card)
        zone.cards[:] = ordered + remaining
        self.game.zone_reordered(zone)

    def _on_event(self, event):
        if event.kind == "random":
            self._sync()

    def _unused_forces(self, decision: Optional[Decision]):
        for key, queue in self.pending.items():
            while queue:
                step, _ = queue[0]
                what = {"dice": "dice roll", "order": "shuffle", "pick": "random pick"}[key.split(" ")[0]]
                if decision is not None:
                    asked = f"before rule {decision.rule} asks {decision.player} to {_WHAT.get(decision.kind, 'decide')}"
                    rule = decision.rule
                else:
                    asked = "before the game ended"
                    rule = ""
                # drop every outcome this line forced (the engine's queue and ours are aligned)
                dropped = 0
                while queue and queue[0][0] is step:
                    queue.popleft()
                    dropped += 1
                forced = self.game.forced.get(key)
                for _ in range(dropped):
                    if forced:
                        forced.popleft()
                self.find("V012", f"the log fixes a {what} here ({_line_of(step)}), but the rules make no such "
                          f"random outcome {asked}", step.span, rule)

    # -- decisions: the engine's agent
    def __call__(self, game: Game, decision: Decision):
        self._sync()
        self.watch.check(decision.rule)
        self._unused_forces(decision)
        self.last_good = describe_state(game, self.watch)
        while True:
            if self.pos >= len(self.entries):
                raise _LogEnded(decision)
            step = self.entries[self.pos]
            self.pos += 1
            answer = self._resolve(step, decision)
            if answer is not _REFUSED:
                self.last_entry = step
                self.report.accepted += 1
                self._queue_forces()
                return answer
            self._queue_forces()
            # The refused entry is skipped. When the next one is not this player's play (the log moved
            # on as if the refused play had happened), the player is taken to have passed.
            following = self.entries[self.pos] if self.pos < len(self.entries) else None
            passing = next((o for o in decision.options if isinstance(o, Play) and o.action == "pass"), None)
            if passing is not None and following is not None and (
                    following.args[0] != decision.player.name or following.kind not in ("plays", "passes")):
                finding = self.report.findings[-1]
                finding.hint = (finding.hint + "; " if finding.hint else "") + \
                    f"the entry is skipped and the replay goes on as if {decision.player} had passed"
                return passing

    def _resolve(self, step: A.Step, decision: Decision):
        game = self.game
        who = decision.player.name if isinstance(decision.player, Player) else ""
        options = decision.describe_options()
        if decision.kind == "may":
            options = ["yes", "no"]
        rule = decision.rule
        asking = Related(decision.span, f"rule {rule} asks {who or 'no player'} to {_WHAT.get(decision.kind, 'decide')} here") \
            if decision.span else None
        related = (asking,) if asking else ()
        if not who:
            raise game.error(f"rule {rule} asks a decision ({decision.prompt or decision.kind}) of no player",
                             rule, decision.span)
        player, kind = step.args[0], step.kind
        if player != who:
            self.find("V002", f"it is {who}'s turn to {_WHAT.get(decision.kind, 'decide')} here "
                      f"({decision.prompt or decision.kind}), not {player}'s", step.span, rule, options, related)
            return _REFUSED
        expected_kinds = {"play": ("plays", "passes"), "choose": ("chooses",), "number": ("chooses",),
                          "may": ("answers",), "order": ("orders",)}[decision.kind]
        if kind not in expected_kinds:
            self.find("V003", f"the log says {player} {kind}, but rule {rule} asks {who} to "
                      f"{_WHAT.get(decision.kind, 'decide')} ({decision.prompt or decision.kind})", step.span, rule,
                      options, related)
            return _REFUSED
        if kind == "passes":
            for option in decision.options:
                if option.action == "pass":
                    return option
            self.find("V004", f"{who} may not pass here: {decision.prompt or 'this part of the turn'} asks for a play "
                      f"(rule {rule})", step.span, rule, options, related)
            return _REFUSED
        if kind == "plays":
            return self._resolve_play(step, decision, options, related)
        if kind == "answers":
            return bool(step.args[1])
        wanted = game.compiler.expr(step.args[1])(self.frame)
        if kind == "orders":
            remaining = list(decision.options)
            ordered = []
            items = wanted if isinstance(wanted, list) else [wanted]
            written = step.args[1].items if isinstance(step.args[1], A.ListExpr) and \
                len(step.args[1].items) == len(items) else [step.args[1]] * len(items)
            for item, expr in zip(items, written):
                base, n = split_ordinal(item)
                same = [o for o in remaining if _matches(o, base)]
                if n < 1 or (same and n > len(same)):
                    self._no_copy(f"{who} cannot order {_words(item)}", _words(base), n, len(same), expr.span, rule,
                                  options, related)
                    return _REFUSED
                if len(same) < n:
                    self.find("V004", f"{who} cannot order {_words(item)} here: it is not one of the things to "
                              f"order (rule {rule})", step.span, rule, options, related)
                    return _REFUSED
                ordered.append(same[n - 1])
                remaining.remove(same[n - 1])
            return ordered + remaining
        base, n = split_ordinal(wanted)
        same = [o for o in decision.options if _matches(o, base)]
        if n < 1 or (same and n > len(same)):
            self._no_copy(f"{who} cannot choose {_words(wanted)}", _words(base), n, len(same), step.args[1].span,
                          rule, options, related)
            return _REFUSED
        if len(same) >= n:
            return same[n - 1]
        self.find("V004", f"{who} cannot choose {_words(wanted)} here: it is not one of the options rule {rule} "
                  f"offers ({decision.prompt or decision.kind})", step.span, rule, options, related)
        return _REFUSED

    def _resolve_play(self, step: A.Step, decision: Decision, options, related):
        game = self.game
        player = decision.player
        name = step.args[1]
        n, numbered, zero = 1, None, None       # the copy number, the argument giving it; one giving #0
        args, written = [], []
        for i, expr in enumerate(step.args[2]):
            value = game.compiler.expr(expr)(self.frame)
            base, k = split_ordinal(value)
            args.append(base)
            written.append(value)
            if k < 1 and zero is None:
                zero = i
            elif k > n:
                n, numbered = k, i
        same = [o for o in decision.options if o.action == name and len(o.args) == len(args)
                and all(_matches(a, w) for a, w in zip(o.args, args))]
        wrong = zero if zero is not None else numbered if same and n > len(same) else None
        if wrong is not None:
            self._no_copy(f"{player} cannot play {name}({', '.join(_words(a) for a in written)})",
                          _words(args[wrong]), 0 if wrong == zero else n, len(same), step.args[2][wrong].span,
                          decision.rule, options, related)
            return _REFUSED
        if len(same) >= n:
            return same[n - 1]
        described = f"{name}({', '.join(_words(a) for a in args)})" if args else name
        action = game.actions[name]
        candidates = [c for c in action.candidates(game, player)
                      if len(c) == len(args) and all(_matches(o, w) for o, w in zip(c, args))]
        if not candidates:
            # named outside the play's choices: the card of that title wherever it is (the player's
            # own first), so that the rules refuse the play for what it is
            candidates = [tuple(resolve_card(game, player, a) for a in args)]
        for candidate in candidates:
            try:
                refusal = action.refusal(game, player, candidate)
            except LudexError:
                refusal = None
            if refusal is not None:
                self.find("V001", f"{player} may not play {described}: {refusal.message}", step.span, refusal.rule,
                          options, (Related(refusal.span, f"rule {refusal.rule} refuses the play here"),)
                          if refusal.span else related)
                return _REFUSED
        # no requirement refuses it: a choice outside the play's domain, or a play the menu does not offer
        frame = Frame(game, {action.node.actor: player}, action.rule)
        for (param, domain), arg in zip(action.domains, args):
            if domain is None:
                pool = list(game.state.players) if param.type == "player" else []
            else:
                pool = items_of(domain(frame))
            if not any(_matches(x, arg) for x in pool):
                where = source_text(param.domain, "its choices") if param.domain is not None else str(param.type)
                self.find("V005", f"{player} cannot play {described}: {_words(arg)} is not one of the choices for "
                          f"its {param.name} ({where})", step.span, action.rule, options,
                          (Related(param.span, f"{name}'s {param.name} is chosen from here"),) + related)
                return _REFUSED
        self.find("V006", f"{player} cannot play {described} here: rule {decision.rule}'s "
                  f"{decision.prompt or 'menu'} does not offer {name} now", step.span, decision.rule, options, related)
        return _REFUSED

    def _no_copy(self, what: str, base: str, n: int, offered: int, span: A.Span, rule: str, options, related):
        """A copy number naming no copy among the options that read alike: ``#0`` (they count from
        #1), or one past the last copy offered. Reported at the copy number's value (V007)."""
        hint = f'copies that read alike are told apart by their place among the options: "{base} #2" is ' \
               f"the second {base} offered"
        if n < 1:
            first = f", the first {base} offered" if offered else ""
            self.find("V007", f"{what}: copy numbers start at #1{first}", span, rule, options, related, hint)
        else:
            self.find("V007", f"{what}: there is no {base} #{n} ({offered} {'is' if offered == 1 else 'are'} "
                      "offered)", span, rule, options, related, hint)

    # -- the run
    def run(self) -> LogReport:
        game, report = self.game, self.report
        try:
            try:
                self.last_good = describe_state(game, self.watch)
                if self.log.setup:
                    game.compiler.block(self.log.setup)(self.frame)
                    self.watch.check()
                self._queue_forces()
                game.run()
            except InvariantBroken as exc:
                self.find("V010", f"the state this log leads to is impossible: {'; '.join(exc.breaks)}",
                          self._here(), exc.rule, state=self.last_good or None,
                          hint="the state shown is the last consistent one, before this entry's consequences")
            except _LogEnded as ended:
                d = ended.decision
                report.stopped_at = (f"rule {d.rule} asks {d.player} to {_WHAT.get(d.kind, 'decide')} "
                                     f"({d.prompt or d.kind})")
            except RuntimeRuleError as exc:
                self._sync_quietly()
                d = exc.diagnostics[0]
                pick = self._consumed_pick
                if INCONSISTENT in d.message:
                    self.find("V010", f"the state this log leads to is impossible: "
                              f"{d.message.split(INCONSISTENT + ': ', 1)[-1]}", self._here(), d.rule,
                              state=self.last_good or None,
                              hint="the state shown is the last consistent one, before this entry's consequences")
                elif isinstance(exc, ForcedPickRefused) and pick is not None:
                    self.find("V011", f"this random pick cannot happen: {_words(pick[1])} is not one of the "
                              f"choices ({exc.options})", pick[0].span, d.rule)
                else:
                    self.find("V020", f"the rules cannot go on from the state this log describes: {d.message}",
                              self._here(), d.rule, related=(Related(d.span, "the rules stop here"),)
                              if d.span and d.span.line else ())
            except Violation as v:
                self.find("V020", f"the rules cannot go on: {v.words()}",
                          self._here(), v.rule)
            if game.over:
                report.over = True
                report.winners = [p.name for p in game.winners or []]
                self._sync()
                self._unused_forces(None)
                leftover = [e for e in self.entries[self.pos:] if e.kind in _DECISION_KINDS]
                if leftover:
                    end = next((e for e in reversed(game.trace) if e.kind in ("win", "event")), None)
                    result = (", ".join(report.winners) + " won") if report.winners else "a draw"
                    self.find("V013", f"the game is over ({result}), but the log goes on for {len(leftover)} more "
                              f"entr{'ies' if len(leftover) != 1 else 'y'}", leftover[0].span,
                              end.rule if end else "")
            self._check_outcome()
        except _Stop:
            pass
        report.events = len(game.trace)
        return report

    _consumed_pick = None

    def _sync_quietly(self):
        """After an engine error: note the forced pick the engine took last, without judging it."""
        queue = self.pending.get("pick")
        left = len(self.game.forced.get("pick", ()))
        while queue and len(queue) > left:
            self._consumed_pick = queue.popleft()

    def _check_outcome(self):
        outcome, report = self.log.outcome, self.report
        if outcome is None:
            return
        said = list(outcome.args) if outcome.kind == "outcome-winner" else []
        said_words = " and ".join(said) + " won" if said else "a draw"
        if not report.over:
            self.find("V014", f"the log says the game ended ({said_words}), but it is not over: "
                      f"{report.stopped_at or 'the rules stopped earlier'}", outcome.span)
        elif sorted(said) != sorted(report.winners or []):
            actual = (", ".join(report.winners) + " won") if report.winners else "a draw"
            end = next((e for e in reversed(self.game.trace) if e.kind == "win"), None)
            self.find("V014", f"the log says {said_words}, but by the rules {actual}", outcome.span,
                      end.rule if end else "")


_REFUSED = object()


def check_log(gamedef: GameDef, log: LogFile, all_violations: bool = False) -> LogReport:
    """Replay a log through the engine; the report lists what the rules refuse (see ``LogChecker``)."""
    return LogChecker(gamedef, log, all_violations).run()


def check_log_text(gamedef: GameDef, text: str, path: str = "<log>", all_violations: bool = False) -> LogReport:
    log = parse_log(text, path)
    errors = check_log_file(gamedef, log)
    if errors:
        raise SourceError(errors)
    return check_log(gamedef, log, all_violations)


def render_report(gamedef: GameDef, report: LogReport) -> str:
    """Every finding like a compiler's diagnostic, with the rule's text and the state; then a summary."""
    blocks = []
    for f in report.findings:
        lines = [render(f.diagnostic())]
        rule = gamedef.rules.get(f.rule)
        if rule is not None:
            words = [d.text for d in rule.docs if d.kind == "text"]
            lines.append(f"  = rule {rule.id} \"{rule.title}\"" + (":" if words else
                                                                   " (no reference text: outside the source)"))
            for paragraph in "\n\n".join(words).split("\n\n") if words else ():
                lines += textwrap.wrap(paragraph, 96, initial_indent="      ", subsequent_indent="      ") or [""]
        if f.state:
            lines.append("  = state before this entry (the last consistent one):")
            for s in f.state:
                lines += textwrap.wrap(s, 100, initial_indent="      ", subsequent_indent="          ",
                                       break_on_hyphens=False)
        blocks.append("\n".join(lines))
    if report.findings:
        n = len(report.findings)
        summary = (f"{n} violation{'s' if n != 1 else ''} found in {report.path} "
                   f"({report.accepted} of {report.entries} decisions accepted)")
    else:
        summary = f"{report.path}: legal: {report.accepted} decision{'s' if report.accepted != 1 else ''} checked"
        if report.over:
            summary += "; the game ended: " + (", ".join(report.winners) + " won" if report.winners else "a draw")
        elif report.stopped_at:
            summary += f"; the log ends before the game does ({report.stopped_at})"
    blocks.append(summary)
    return "\n\n".join(blocks)
