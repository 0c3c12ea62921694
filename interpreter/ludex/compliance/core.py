"""Compliance: a game's log checked against its rules, and the rules checked by playing them.

- **Checking a log.** A log (``grammar/log.lark``) in, a ``LogReport`` out. The game's own flow plays
  from its start; every decision the rules ask takes the log's next play or decision line, and the
  force lines fix the random outcomes that come before the next decision line. The first play or
  outcome the rules refuse is reported (or, with ``all_violations``, every one reachable by skipping
  the refused line) with the log's line, the rule it breaks and that rule's text, the options the
  rules offered at that point, and the last consistent state. A log whose state breaks the state's
  invariants (``State.invariant_breaks``) is reported as impossible. ``LogRecorder`` writes such a
  log while a game is played (``ludex run --log``).
- **Checking the rules by playing them.** ``simulate_one(game_key, seed)`` plays one whole game with
  random agents and classifies how it ended: a pure function of its arguments returning plain data,
  the unit of work a distributed executor can run. ``simulate`` runs many, in parallel, and sums
  them up: games that did not end within the game's bound, players left with no legal option,
  invariant breaks, engine errors, rule coverage, winners, lengths and games per second.

The engine is used as it is: invariants are checked by wrapping ``Game.run_rule`` on the instance
and at every decision; rounds are counted the same way (see ``Watch``).
"""

from __future__ import annotations

import difflib
import os
import re
import statistics
import sys
import textwrap
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

from ..diagnostics import (
    SOURCES,
    Diagnostic,
    ForcedPickRefused,
    LudexError,
    Related,
    RuntimeRuleError,
    SourceError,
    read_source,
    render,
    source_text,
)
from ..engine.agents import RandomAgent
from ..engine.game import STEP_BUDGET, Game
from ..load import group_by_game, load_game, load_paths
from ..parse import ast as A
from ..parse.definition import GameDef, default_count, default_format, format_problem
from ..parse.syntax import ScenarioBuilder, parse_with
from ..runtime.records import Decision, Frame, GameOver, Goto, Play, Violation, _words
from ..runtime.state import Card, Player, Zone, items_of
from ..scenarios.runner import arguments_of_the_wrong_kind, check_script_of, resolve_card

#: How many rounds a simulated game may last before it is reported as not ending. A round is one
#: pass of the flow's outer ``repeat`` (counted when the first rule it runs begins). No bundled game
#: comes near it: AGoT's draw decks run out by round 22, Huntik ends after round 7.
DEFAULT_MAX_ROUNDS = 100


# ================================================================== the log file


@dataclass
class LogFile:
    """One parsed log: its set-up, its entries (script lines, in order) and its stated outcome."""

    span: A.Span
    path: str
    game: str = ""
    players: tuple = ()
    format: str = ""
    seed: Optional[int] = None
    setup: tuple = ()
    entries: tuple = ()                 # A.Step: plays passes chooses answers orders force-*
    outcome: Optional[A.Step] = None    # outcome-winner (names) or outcome-draw
    head_spans: dict = field(default_factory=dict)


class LogBuilder(ScenarioBuilder):
    """The scenario builder (its script lines and the rules' statements), plus the log's set-up."""

    def t_start(self, span, ch):
        log = LogFile(span, self.path)
        entries = []
        duplicates = list(self.twice)
        for item in ch:
            if item is None:
                continue
            if isinstance(item, tuple):
                key, value, item_span = item
                if key in log.head_spans:
                    duplicates.append(Diagnostic("log", "L009", f"the log gives its {key} twice", item_span,
                                                 related=(Related(log.head_spans[key], "first given here"),)))
                    continue
                log.head_spans[key] = item_span
                setattr(log, key, value)
            elif item.kind.startswith("outcome"):
                log.outcome = item
            else:
                entries.append(item)
        if duplicates:
            raise SourceError(duplicates)
        log.entries = tuple(entries)
        return log

    def t_log_game(self, span, ch):
        return ("game", str(ch[0]), span)

    def t_players(self, span, ch):
        return ("players", self.named_once(ch, "L010", "log"), span)

    def t_format(self, span, ch):
        return ("format", str(ch[0]), span)

    def t_seed(self, span, ch):
        return ("seed", self.number(ch[0]), span)

    def t_setup(self, span, ch):
        return ("setup", ch[0], span)

    def t_outcome_winner(self, span, ch):
        return A.Step(span, "outcome-winner", self.named_once(ch, "L010", "log"))

    def t_outcome_draw(self, span, ch):
        return A.Step(span, "outcome-draw", ())


def parse_log(text: str, path: str = "<log>") -> LogFile:
    """Parse a log; raise ``SourceError`` with positioned diagnostics if it is malformed."""
    return parse_with("log", LogBuilder, text, path)


def load_log(gamedef: GameDef, path: Path) -> LogFile:
    """Read, parse and statically check a log file (``SourceError`` on any error)."""
    log = parse_log(read_source(path), str(path))
    errors = check_log_file(gamedef, log)
    if errors:
        raise SourceError(errors)
    return log


def _near(name, names) -> str:
    close = difflib.get_close_matches(name, list(names), n=3, cutoff=0.5)
    return f"did you mean {', '.join(close)}?" if close else ""


def check_log_file(gamedef: GameDef, log: LogFile) -> list[Diagnostic]:
    """What is wrong with a log before it is played: the game, players, format, names of plays,
    players, dice and cards it uses, and plays' arguments of a kind their parameters never are."""
    errors = []

    def err(code, message, span, hint=""):
        errors.append(Diagnostic("log", code, message, span, hint=hint))

    header = gamedef.header
    if log.game and log.game != gamedef.key:
        err("L001", f"this is a log of {log.game}, not of {gamedef.key}", log.head_spans["game"])
    if not log.players:
        err("L002", "a log names its players first: players ann, bob", log.span)
    elif header and not header.min_players <= len(log.players) <= header.max_players:
        err("L003", f"{gamedef.key} is for {header.min_players} to {header.max_players} players, not "
            f"{len(log.players)}", log.head_spans["players"])
    if log.format and header and log.format not in header.formats:
        err("L004", f"{gamedef.key} has no format '{log.format}'", log.head_spans["format"],
            _near(log.format, header.formats))
    elif log.players and format_problem(header, log.format, len(log.players)):
        err("L004", format_problem(header, log.format, len(log.players)),
            log.head_spans["format" if log.format else "players"])
    players = set(log.players)
    for step in log.entries:
        if step.kind in ("plays", "passes", "chooses", "answers", "orders"):
            if players and step.args[0] not in players:
                err("L005", f"'{step.args[0]}' is not one of this log's players", step.span,
                    _near(step.args[0], players))
            if step.kind == "plays":
                action = gamedef.actions.get(step.args[1])
                if action is None:
                    err("L006", f"{gamedef.key} has no play called '{step.args[1]}'", step.span,
                        _near(step.args[1], gamedef.actions))
                    continue
                if len(step.args[2]) != len(action.params):
                    err("L006", f"{action.name} takes {len(action.params)} argument(s), not {len(step.args[2])}",
                        step.span)
                for param, arg in zip(action.params, step.args[2]):
                    title = _split_ordinal(arg.value)[0] if isinstance(arg, A.Text) else None
                    if str(param.type) == "card" and title is not None and title not in gamedef.cards:
                        err("L008", f"{gamedef.key} has no card \"{title}\"", arg.span, _near(title, gamedef.cards))
                errors.extend(arguments_of_the_wrong_kind(gamedef, log.players, action, step.args[2], "log", "L011"))
        elif step.kind == "force-dice":
            dice = gamedef.dice.get(step.args[0])
            if dice is None:
                err("L007", f"{gamedef.key} has no dice '{step.args[0]}'", step.span, _near(step.args[0], gamedef.dice))
    if log.outcome is not None and log.outcome.kind == "outcome-winner":
        for name in log.outcome.args:
            if players and name not in players:
                err("L005", f"'{name}' is not one of this log's players", log.outcome.span, _near(name, players))
    errors.extend(check_script_of(gamedef, log.players, log.setup, log.entries, "a log's set-up"))
    return errors


# ================================================================== watching a game


class UnendingGame(RuntimeRuleError):
    """A game that ran past its bound of rounds."""


class InvariantBroken(RuntimeRuleError):
    """The state broke its invariants: cards lost or duplicated, a supply or counter out of bounds."""

    def __init__(self, diagnostics, breaks=(), rule=""):
        super().__init__(diagnostics)
        self.breaks = list(breaks)
        self.rule = rule


def round_rule_of(gamedef: GameDef) -> tuple[Optional[str], Optional[A.Span]]:
    """The rule that begins each round, read from the game's flow: the first rule its outer
    ``repeat`` (or ``while``) runs. None when the flow has no such loop."""
    if gamedef.flow is None:
        return None, None
    for stmt in gamedef.flow.body:
        if isinstance(stmt, (A.Repeat, A.While)):
            for inner in stmt.body:
                if isinstance(inner, A.Run):
                    return inner.target, stmt.span
    return None, None


class Watch:
    """Hooks on one game, without touching the engine: ``run_rule`` is wrapped on the instance.

    - rounds: how many times the round rule (``round_rule_of``) began from the flow; past
      ``max_rounds`` the game is stopped with ``UnendingGame``;
    - invariants: ``State.invariant_breaks()`` after every rule run (unless the engine checks them
      itself, ``Game.check_invariants``) and at every decision, through ``check``; a break stops the
      game with ``InvariantBroken``;
    - ``on_round(n)`` is called as round n begins."""

    def __init__(self, game: Game, max_rounds: Optional[int] = None, invariants: bool = False,
                 on_round=None):
        self.game = game
        self.rounds = 0
        self.max_rounds = max_rounds
        self.invariants = invariants
        self.on_round = on_round
        self.round_rule, self.loop_span = round_rule_of(game.gamedef)
        self.last_rule = ""
        self._version = self._cards_moved = -1      # the state and its cards when ``check`` last looked
        original = game.run_rule
        engine_checks = bool(getattr(game, "check_invariants", False))

        def run_rule(rule_id, frame=None, jumps=False):
            if rule_id == self.round_rule and game.depth == 0:
                self.rounds += 1
                if self.max_rounds is not None and self.rounds > self.max_rounds:
                    raise UnendingGame([Diagnostic(
                        "runtime", "R002", f"the game did not end within {self.max_rounds} rounds: rule "
                        f"{rule_id} was about to begin round {self.rounds}", self.loop_span or A.NOWHERE,
                        rule=rule_id)])
                if self.on_round:
                    self.on_round(self.rounds)
            if not self.invariants or engine_checks:
                return original(rule_id, frame, jumps)
            try:
                jump = original(rule_id, frame, jumps)     # (a jump returned, ``Game.run_rule``)
            except (Goto, GameOver):
                self.check(rule_id)
                raise
            self.check(rule_id)
            return jump

        game.run_rule = run_rule

    def check(self, rule: str = ""):
        if not self.invariants:
            return
        game = self.game
        if game.version == self._version:
            return          # nothing changed since the last look, which found the state sound
        # Since the last look (the engine's, after a rule, or this one), only the zones the engine
        # notes as changed may have changed: the others are as that look found them.
        moved = game.cards_moved != self._cards_moved
        breaks = game.state.invariant_breaks(cards_moved=moved, changed=set(game.zones_changed),
                                             placed=set(game.cards_placed))
        self._version, self._cards_moved = game.version, game.cards_moved
        if breaks:
            where = f"after rule {rule} ran" if rule else "here"
            raise InvariantBroken([Diagnostic(
                "runtime", "R003", f"the state is impossible {where}: " + "; ".join(breaks),
                self.game.current_span or A.NOWHERE, rule=rule)], breaks, rule)


# ================================================================== the state, in words


def describe_state(game: Game, watch: Optional[Watch] = None) -> list[str]:
    """The whole state as a judge reads it: game entries, then each player's; the cards of every
    zone that holds any (a hidden ordered pile, or a long one, by its count)."""
    s = game.state

    def entries(fields: dict) -> list[str]:
        parts = []
        for name, value in fields.items():
            if isinstance(value, bool):
                if value:
                    parts.append(name)
            elif value is not None:
                parts.append(f"{name} {_words(value)}")
        return parts

    def zones(table: dict) -> list[str]:
        parts = []
        for zone in table.values():
            if not zone.cards:
                continue
            if (zone.hidden and zone.ordered) or len(zone.cards) > 10:
                parts.append(f"{zone.name} {len(zone.cards)} card{'s' if len(zone.cards) != 1 else ''}")
            else:
                parts.append(f"{zone.name}: " + ", ".join(c.title for c in zone.cards))
        return parts

    lines = []
    if watch is not None and watch.round_rule:
        lines.append(f"round {watch.rounds}")
    game_parts = entries(s.fields) + zones(s.zones)
    lines.append("game: " + ("; ".join(game_parts) if game_parts else "-"))
    for p in s.players:
        parts = entries(p.fields) + zones(p.zones)
        lines.append(f"{p.name}{' (eliminated)' if p.eliminated else ''}: " + ("; ".join(parts) if parts else "-"))
    for m in game.modifiers:
        kind, name, *rest = m.key
        target = (f"{name}({', '.join(_words(a) for a in rest[0])})" if rest and rest[0] else name) \
            if kind == "value" else name if kind == "field" else f"{name}.{rest[0]}"
        lines.append(f"modifier from rule {m.rule}: {target} {m.op} {_words(m.value)}")
    return lines


# ================================================================== checking a log


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
#: The words of the engine's own invariant check (``Game.check_invariants``).
_INCONSISTENT = "the game is inconsistent"
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


_ORDINAL = re.compile(r"^(.*\S) #([0-9]{1,18})$", re.S)


def _split_ordinal(value):
    """``"Hedge Knight #2"``: the second of the options that read "Hedge Knight" (copies of a card
    are told apart by the order the rules offer them in). Returns (the value without it, n); n is 1
    when no copy number is written, and may be 0, which names no copy (``LogChecker._no_copy``)."""
    if isinstance(value, str):
        m = _ORDINAL.match(value)
        if m:
            return m.group(1), int(m.group(2))
    return value, 1


def _option_words(option) -> str:
    return option.describe() if isinstance(option, Play) else _words(option)


def _ordinal(options, answer) -> int:
    """Which of the options reading like ``answer`` it is (1 for the first). Copies of a card read
    alike; the rules offer them in the order they lie, so the place tells them apart exactly."""
    words = _option_words(answer)
    same = [o for o in options if _option_words(o) == words]
    for i, o in enumerate(same):
        if o is answer:
            return i + 1
    return 1


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
                base, n = _split_ordinal(item)
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
        base, n = _split_ordinal(wanted)
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
            base, k = _split_ordinal(value)
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
                if _INCONSISTENT in d.message:
                    self.find("V010", f"the state this log leads to is impossible: "
                              f"{d.message.split(_INCONSISTENT + ': ', 1)[-1]}", self._here(), d.rule,
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
                self.find("V020", f"the rules cannot go on: a play was refused by rule {v.rule}: {v.message}",
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


# ================================================================== writing a log


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def literal(value) -> str:
    """A value as the log (and scenario) language writes it: a card by its title, a player by name."""
    if isinstance(value, Player):
        return value.name
    if isinstance(value, Card):
        return _quote(value.title)
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    return _quote(str(value))


def _with_ordinal(value, n: int) -> str:
    """A value's literal, marked as the n-th of the options that read alike (``"Hedge Knight #2"``)."""
    if n <= 1:
        return literal(value)
    return _quote(f"{value.title if isinstance(value, Card) else _words(value)} #{n}")


def answer_line(decision: Decision, answer) -> str:
    """The log line for a decision's answer. Copies that read alike are told apart by their place
    among the options (``"Hedge Knight #2"``), so that a replay makes exactly the same choices."""
    who = decision.player.name if isinstance(decision.player, Player) else "nobody"
    if decision.kind == "play":
        if answer.action == "pass":
            return f"{who} passes"
        n = _ordinal(decision.options, answer)
        args = [literal(a) for a in answer.args]
        if n > 1:
            # the copy number goes on a card, or else on text; plays alike in players and numbers only
            # are the same play, whichever copy is taken (and a player or number is never quoted text)
            i = next((i for i, a in enumerate(answer.args) if isinstance(a, Card)), None)
            if i is None:
                i = next((i for i, a in enumerate(answer.args) if not isinstance(a, (Player, int))), None)
            if i is not None:
                args[i] = _with_ordinal(answer.args[i], n)
        return f"{who} plays {answer.action}" + (f"({', '.join(args)})" if args else "")
    if decision.kind == "may":
        return f"{who} answers {'yes' if answer else 'no'}"
    if decision.kind == "order":
        remaining = list(decision.options)
        items = []
        for item in answer:
            items.append(_with_ordinal(item, _ordinal(remaining, item)))
            remaining = [o for o in remaining if o is not item]
        return f"{who} orders [{', '.join(items)}]"
    return f"{who} chooses {_with_ordinal(answer, _ordinal(decision.options, answer))}"


_DICE_EVENT = re.compile(r"^\d+ (\S+) dice roll")


class LogRecorder:
    """An agent that passes decisions to another and writes each answer as a log line; with
    ``attach``, every random outcome of the game becomes a force line. ``rules``: how the command line
    named the game (a bundled game's key, or the path of its rules), for the replay command the log's
    head gives."""

    def __init__(self, agent, gamedef: GameDef, players: list, seed: int, fmt: str = "", command: str = "",
                 rules: str = ""):
        self.agent = agent
        self.gamedef = gamedef
        self.players = set(players)
        self.game: Optional[Game] = None
        self.last_rule = None
        self.lines = [
            f"# A log of {gamedef.key}" + (f", written by `{command}`" if command else "") + ":",
            "# every decision, in the order the rules asked it, and every random outcome as a force line.",
            f"# `ludex check-log {rules or gamedef.key} FILE` replays it against the rules.",
            f"game {gamedef.key}",
            f"players {', '.join(players)}",
        ]
        if fmt or (gamedef.header and gamedef.header.formats):
            self.lines.append(f"format {fmt or default_format(gamedef.header, len(players))}")
        self.lines.append(f"seed {seed}")

    def attach(self, game: Game) -> "LogRecorder":
        self.game = game
        game.listen(self._event)
        return self

    def on_round(self, n: int):
        self.lines += ["", f"# round {n}"]
        self.last_rule = None

    def __call__(self, game, decision: Decision):
        answer = self.agent(game, decision)
        if decision.rule != self.last_rule:
            rule = game.gamedef.rules.get(decision.rule)
            self.lines.append(f"# {decision.rule} {rule.title}" if rule else f"# {decision.rule}")
            self.last_rule = decision.rule
        if not isinstance(decision.player, Player):
            self.lines.append(f"# rule {decision.rule} asked a decision of no player: {answer_line(decision, answer)}")
        else:
            self.lines.append(answer_line(decision, answer))
        return answer

    def _event(self, event):
        if event.kind != "random":
            return
        kind = event.data.get("random")
        if kind == "pick":
            choice = event.data.get("choice", "")
            self.lines.append(f"force pick {choice if choice in self.players else _quote(choice)}")
        elif kind == "dice":
            match = _DICE_EVENT.match(event.text)
            faces = event.data.get("faces") or []
            if match and faces:
                self.lines.append(f"force dice {match.group(1)}: {', '.join(faces)}")
        elif kind == "shuffle":
            name = event.text.split(" is shuffled", 1)[0]
            zone = next((z for z in self.game.state.all_zones() if str(z) == name), None) if self.game else None
            if zone is not None and zone.cards:
                self.lines += _wrap_force_order(name, [c.title for c in zone.cards])

    def text(self) -> str:
        lines = list(self.lines)
        game = self.game
        if game is not None and game.over:
            lines.append("")
            lines.append("winner " + ", ".join(p.name for p in game.winners) if game.winners else "draw")
        return "\n".join(lines) + "\n"


def _wrap_force_order(zone: str, titles: list, width: int = 100) -> list[str]:
    head = f"force order {zone}: "
    lines, current = [], head
    for i, title in enumerate(titles):
        item = _quote(title) + ("," if i < len(titles) - 1 else "")
        if len(current) + len(item) + 1 > width and current.strip() != head.strip():
            lines.append(current.rstrip())
            current = "  "
        current += item + " "
    lines.append(current.rstrip())
    return lines


def record_game(gamedef: GameDef, seed: int, players: Optional[list] = None, fmt: str = "",
                max_rounds: Optional[int] = None) -> tuple[Game, str]:
    """Play one game with random agents (as ``ludex run GAME --seed S`` does) and return it with its log."""
    names = players or default_players(gamedef, None, fmt)
    recorder = LogRecorder(RandomAgent(seed), gamedef, names, seed, fmt,
                           command=f"ludex run {gamedef.key} --seed {seed} --log FILE")
    game = Game(gamedef, names, recorder, seed=seed, format=fmt)
    recorder.attach(game)
    Watch(game, max_rounds=max_rounds, on_round=recorder.on_round)
    game.run()
    return game, recorder.text()


def default_players(gamedef: GameDef, count: Optional[int] = None, fmt: str = "") -> list[str]:
    """p1, p2, ...: as many as asked, or the fewest the game (or the format asked for) allows, as
    ``ludex run``."""
    return [f"p{i + 1}" for i in range(count or default_count(gamedef.header, fmt))]


# ================================================================== simulating games


@lru_cache(maxsize=None)
def load_for_simulation(game_key: str) -> GameDef:
    """A bundled game by key, or a rules file by path (cached per process)."""
    path = Path(game_key)
    if path.suffix == ".ludex" or path.exists():
        key, paths = next(iter(group_by_game([path]).items()))
        loaded = load_paths(key, paths)
    else:
        loaded = load_game(game_key)
    if not loaded.ok:
        raise SourceError(loaded.diagnostics)
    if not loaded.game.rules:
        raise SourceError([Diagnostic("static", "L000", f"no game '{game_key}' was found", A.NOWHERE)])
    return loaded.game


def replay_command(game_key: str, seed: int, players: Optional[int] = None, fmt: str = "",
                   max_rounds: Optional[int] = None, max_steps: Optional[int] = None) -> str:
    parts = [f"ludex run {game_key} --seed {seed}"]
    if players:
        parts.append(f"--players {players}")
    if fmt:
        parts.append(f"--format {fmt}")
    if max_rounds is not None:
        parts.append(f"--max-rounds {max_rounds}")
    if max_steps is not None:
        parts.append(f"--max-steps {max_steps}")
    return " ".join(parts)


def simulate_one(game_key: str, seed: int, players: Optional[int] = None, fmt: str = "",
                 max_rounds: Optional[int] = DEFAULT_MAX_ROUNDS, max_steps: Optional[int] = None) -> dict:
    """Play one whole game of ``game_key`` (a bundled game or a rules file) with random agents, as
    ``ludex run GAME --seed SEED`` plays it, checking the state's invariants after every rule run and
    at every decision. Returns plain data:

    status: won | draw (clean); unfinished (past ``max_rounds`` rounds, the step budget, or the
    nesting limit) | no-option (a player to act had no legal option) | invariant (an impossible
    state) | error (a rule could not run) | crash (a Python exception: an engine bug)."""
    gamedef = load_for_simulation(game_key)
    names = default_players(gamedef, players, fmt)
    random_agent = RandomAgent(seed)
    decisions = [0]
    watch_box: list = []

    def agent(game, decision):
        decisions[0] += 1
        watch_box[0].check(decision.rule)
        return random_agent(game, decision)

    budget = max_steps if max_steps is not None else STEP_BUDGET
    game = Game(gamedef, names, agent, seed=seed, format=fmt, step_budget=budget)
    watch = Watch(game, max_rounds=max_rounds, invariants=True)
    watch_box.append(watch)
    result = {"game": game_key, "seed": seed, "players": names, "format": game.state.format, "status": "",
              "winners": [], "rounds": 0, "decisions": 0, "steps": 0, "events": 0, "seconds": 0.0, "cpu": 0.0,
              "exercised": [], "problem": None,
              "replay": replay_command(game_key, seed, players, fmt)}
    start, cpu = time.perf_counter(), time.process_time()
    problem = None
    try:
        winners = game.run()
        result["status"] = "won" if winners else "draw"
        result["winners"] = [p.name for p in winners]
    except UnendingGame as exc:
        problem = ("unfinished", exc.diagnostics[0])
        result["replay"] = replay_command(game_key, seed, players, fmt, max_rounds=max_rounds)
    except InvariantBroken as exc:
        problem = ("invariant", exc.diagnostics[0])
    except LudexError as exc:
        d = exc.diagnostics[0]
        if "but has no option" in d.message:
            kind = "no-option"
        elif _INCONSISTENT in d.message:
            kind = "invariant"
        elif "steps without ending" in d.message or "rules run inside each other" in d.message:
            kind = "unfinished"
            if max_steps is not None:
                result["replay"] = replay_command(game_key, seed, players, fmt, max_steps=max_steps)
        else:
            kind = "error"
        problem = (kind, d)
    except Violation as v:
        problem = ("error", Diagnostic("runtime", "R004", f"a legal play was refused by rule {v.rule}: {v.message}",
                                       v.span or A.NOWHERE, rule=v.rule))
    except RecursionError as exc:
        problem = ("crash", Diagnostic("runtime", "R005", f"RecursionError: {exc}", game.current_span or A.NOWHERE))
    except Exception as exc:  # an engine bug: reported with its seed, never hidden
        import traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        problem = ("crash", Diagnostic("runtime", "R005", f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:"
                                       f"{where.lineno})", game.current_span or A.NOWHERE))
    result["seconds"] = time.perf_counter() - start
    result["cpu"] = time.process_time() - cpu
    if problem is not None:
        kind, d = problem
        result["status"] = kind
        result["problem"] = {"kind": kind, "message": d.message, "rule": d.rule, "code": d.code,
                             "where": str(d.span) if d.span and d.span.line else "",
                             "step": game.steps, "event": len(game.trace)}
    result["rounds"] = watch.rounds
    result["decisions"] = decisions[0]
    result["steps"] = game.steps
    result["events"] = len(game.trace)
    result["exercised"] = sorted(r for r in game.rules_exercised() if r in gamedef.rules)
    return result


def _simulate_task(task):
    return simulate_one(*task)


def _stats(values: list) -> dict:
    if not values:
        return {}
    return {"min": min(values), "median": statistics.median(values), "mean": round(statistics.fmean(values), 1),
            "max": max(values)}


def simulate(game_key: str, games: int, seed: int = 1, jobs: int = 1, players: Optional[int] = None,
             fmt: str = "", max_rounds: Optional[int] = DEFAULT_MAX_ROUNDS, max_steps: Optional[int] = None,
             progress=None) -> dict:
    """Play ``games`` games (seeds ``seed`` to ``seed + games - 1``) in ``jobs`` processes (0: all
    cores) and sum them up. ``progress(done, total, problems, elapsed)`` is called after each game."""
    gamedef = load_for_simulation(game_key)
    jobs = jobs or os.cpu_count() or 1
    tasks = [(game_key, s, players, fmt, max_rounds, max_steps) for s in range(seed, seed + games)]
    results = []
    problems = 0
    start = time.perf_counter()
    if jobs <= 1 or games <= 1:
        for task in tasks:
            results.append(_simulate_task(task))
            problems += results[-1]["problem"] is not None
            if progress:
                progress(len(results), games, problems, time.perf_counter() - start)
    else:
        import multiprocessing
        with multiprocessing.get_context().Pool(min(jobs, games)) as pool:
            try:
                for r in pool.imap_unordered(_simulate_task, tasks, chunksize=1):
                    results.append(r)
                    problems += r["problem"] is not None
                    if progress:
                        progress(len(results), games, problems, time.perf_counter() - start)
            except KeyboardInterrupt:
                pool.terminate()
                raise
    elapsed = time.perf_counter() - start
    results.sort(key=lambda r: r["seed"])
    transcribed = [rid for rid, rule in gamedef.rules.items() if not rule.outside]
    reached = Counter(rid for r in results for rid in r["exercised"])
    winners = Counter()
    for r in results:
        if r["status"] == "won":
            winners[", ".join(r["winners"])] += 1
        elif r["status"] == "draw":
            winners["(draw)"] += 1
    clean = [r for r in results if r["problem"] is None]
    return {
        "game": game_key, "key": gamedef.key, "games": games, "seeds": [seed, seed + games - 1], "jobs": jobs,
        "players": default_players(gamedef, players, fmt), "format": results[0]["format"] if results else fmt,
        "bound": {"max_rounds": max_rounds, "round_rule": round_rule_of(gamedef)[0],
                  "max_steps": max_steps if max_steps is not None else STEP_BUDGET},
        "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 2) if elapsed else 0.0,
        "cpu_seconds": round(sum(r["cpu"] for r in results), 3),
        "statuses": dict(Counter(r["status"] for r in results)),
        "problems": [{k: r[k] for k in ("seed", "status", "problem", "replay", "rounds", "steps")}
                     for r in results if r["problem"] is not None],
        "winners": dict(winners.most_common()),
        "lengths": {"rounds": _stats([r["rounds"] for r in clean]),
                    "decisions": _stats([r["decisions"] for r in clean]),
                    "steps": _stats([r["steps"] for r in clean]),
                    "events": _stats([r["events"] for r in clean])},
        "coverage": {"transcribed": len(transcribed),
                     "reached": sorted((rid for rid in transcribed if reached[rid]), key=transcribed.index),
                     "never": [rid for rid in transcribed if not reached[rid]],
                     "percent": round(100.0 * sum(1 for rid in transcribed if reached[rid]) / len(transcribed), 1)
                     if transcribed else 100.0,
                     "games_reaching": {rid: reached[rid] for rid in gamedef.rules}},
    }


def render_simulation(summary: dict) -> str:
    s = summary
    bound = s["bound"]
    lines = [f"{s['key']}: {s['games']} games (seeds {s['seeds'][0]} to {s['seeds'][1]}), players "
             f"{', '.join(s['players'])}" + (f", format {s['format']}" if s["format"] else "")
             + f", {s['jobs']} job{'s' if s['jobs'] != 1 else ''}"]
    rounds = (f"{bound['max_rounds']} rounds (a round: each time the flow's loop begins rule {bound['round_rule']})"
              if bound["round_rule"] and bound["max_rounds"] is not None else "no round limit")
    lines.append(f"  bound:     {rounds}; {bound['max_steps']:,} steps (the engine's step budget)")
    statuses = s["statuses"]
    ended = statuses.get("won", 0) + statuses.get("draw", 0)
    lines.append(f"  ended:     {ended} of {s['games']} (won {statuses.get('won', 0)}, draws {statuses.get('draw', 0)})")
    problem_kinds = {k: v for k, v in statuses.items() if k not in ("won", "draw")}
    lines.append("  problems:  " + (", ".join(f"{k} {v}" for k, v in sorted(problem_kinds.items())) or "none"))
    total = max(1, ended)
    lines.append("  winners:   " + (", ".join(f"{w} {n} ({100.0 * n / total:.1f}%)" for w, n in s["winners"].items())
                                    or "-"))
    for name in ("rounds", "decisions", "steps"):
        st = s["lengths"][name]
        if st:
            lines.append(f"  {name + ':':<10} min {st['min']}, median {st['median']:g}, mean {st['mean']:g}, "
                         f"max {st['max']}")
    cov = s["coverage"]
    lines.append(f"  coverage:  {len(cov['reached'])} of {cov['transcribed']} transcribed rules reached by play "
                 f"({cov['percent']:.1f}%)" + (f"; never reached: {', '.join(cov['never'])}" if cov["never"] else ""))
    lines.append(f"  speed:     {s['games']} games in {s['seconds']:.1f} s: {s['games_per_second']:.2f} games/s")
    for p in s["problems"][:50]:
        pr = p["problem"]
        lines.append(f"\nseed {p['seed']}: {p['status']}: {pr['message']}" + (f" (rule {pr['rule']})" if pr["rule"] else "")
                     + (f"\n  at {pr['where']}" if pr["where"] else "")
                     + f"\n  replay: {p['replay']}")
    if len(s["problems"]) > 50:
        lines.append(f"\n... and {len(s['problems']) - 50} more problems (--json lists them all)")
    return "\n".join(lines)


def progress_bar(stream=None):
    """A progress callback drawing a bar on ``stream`` (stderr) when it is a terminal, else None."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None

    def show(done, total, problems, elapsed):
        width = 30
        filled = int(width * done / total)
        rate = done / elapsed if elapsed else 0.0
        eta = (total - done) / rate if rate else 0.0
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:.1f}/s, "
                     f"{problems} problem{'s' if problems != 1 else ''}, {eta:.0f}s left ")
        if done == total:
            stream.write("\r" + " " * (width + 70) + "\r")
        stream.flush()
    return show
