"""The log file: a log's text in (``grammar/log.lark``), a ``LogFile`` out, and what is wrong with
it before it is played.

- ``parse_log(text)``: the ``LogFile`` (its players, format, seed, set-up, entries and stated
  outcome), or ``SourceError`` with positioned diagnostics;
- ``check_log_file(gamedef, log)``: the diagnostics of names and arguments the game does not have;
  ``load_log`` reads, parses and checks a file in one go;
- the copy numbers the log language writes (``"Hedge Knight #2"``): ``split_ordinal`` reads one,
  ``ordinal`` finds the one an option has among options that read alike.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..diagnostics import Diagnostic, Related, SourceError, read_source
from ..parse import ast as A
from ..parse.builders import ScenarioBuilder
from ..parse.definition import GameDef, format_problem
from ..parse.syntax import parse_with
from ..runtime.records import Play, _words
from ..scenarios.runner import arguments_of_the_wrong_kind, check_script_of


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
                    title = split_ordinal(arg.value)[0] if isinstance(arg, A.Text) else None
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


_ORDINAL = re.compile(r"^(.*\S) #([0-9]{1,18})$", re.S)


def split_ordinal(value):
    """``"Hedge Knight #2"``: the second of the options that read "Hedge Knight" (copies of a card
    are told apart by the order the rules offer them in). Returns (the value without it, n); n is 1
    when no copy number is written, and may be 0, which names no copy (``LogChecker._no_copy``)."""
    if isinstance(value, str):
        m = _ORDINAL.match(value)
        if m:
            return m.group(1), int(m.group(2))
    return value, 1


def option_words(option) -> str:
    return option.describe() if isinstance(option, Play) else _words(option)


def ordinal(options, answer) -> int:
    """Which of the options reading like ``answer`` it is (1 for the first). Copies of a card read
    alike; the rules offer them in the order they lie, so the place tells them apart exactly."""
    words = option_words(answer)
    same = [o for o in options if option_words(o) == words]
    for i, o in enumerate(same):
        if o is answer:
            return i + 1
    return 1
