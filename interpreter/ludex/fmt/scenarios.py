"""Format scenarios: scenario source text (or a parsed ``ScenarioFile``) in, the same scenarios in
canonical layout out.

``format_scenario_source(text, path)`` parses (a ``SourceError`` propagates to the caller) and
prints, keeping the ``#`` comments (placed by ``comments.py``) and the author's string literals and
parentheses (read by ``authored.py``); ``format_scenario_file(file)`` prints any parsed or built
``ScenarioFile``, without comments. Parsing the output gives the same scenarios (``same_scenarios``),
and formatting the output again changes nothing.

The canonical layout, the one the bundled scenarios are written in: two-space indents, a blank line
between two scenarios, one line per part or step of a scenario, in the source's order (printed from
the AST alone: question, answer, cite, tags, players, format, boards, cards and decks, set-up, then
the script). A scenario's own cards and deck lists are printed by the rules formatter's printer, as
in a rules file.
A step is one line however long: a question, an answer or an expectation is not broken (a long
string written on several lines keeps its line breaks). A ``setup { ... }`` block is printed by the
rules formatter's printer, so its statements look exactly as in a rules procedure (one per line,
broken at 100 columns as there); a board's drawing is printed as the rules formatter prints one.
Blank lines between steps and comments (above a step, closing a block, trailing a line) are kept
where the source had them, as in rules files.

What the author wrote that the AST does not keep: ``plays NAME()`` with empty brackets, and a
string literal's form (long or short), where written.
"""

from __future__ import annotations

from dataclasses import fields, replace

from ..parse import ast as A
from ..parse import syntax
from ..parse.builders import ScenarioBuilder
from .authored import Authored
from .comments import place
from .layout import align, fit, flat
from .rules import Printer
from .rules import blocks as rule_blocks

#: A scenario's parts that the AST keeps as fields, in the order they are printed from the AST alone.
PARTS = ("question", "answer", "cites", "tags", "players", "format", "setup")


def format_scenario_source(text: str, path: str = "<string>") -> str:
    """The canonical form of a scenario file's text, comments kept (a byte-order mark is not text)."""
    text = text.removeprefix("\ufeff")      # as the parser does, so its positions fit this text
    builders = []
    file = syntax.parse_with("scenario", lambda p: builders.append(_PartsBuilder(p)) or builders[-1], text, path)
    parts = builders[-1].parts if builders else {}

    def with_parts(node):
        if isinstance(node, A.Scenario):
            return [list(parts[id(node)])] if id(node) in parts else [lines_of(node)]
        return blocks(node)
    return ScenarioPrinter(place(text, file, with_parts), Authored(text), parts).file(file)


def format_scenario_file(file: A.ScenarioFile) -> str:
    """The canonical form of a parsed (or built) scenario file, printed from its AST alone."""
    return ScenarioPrinter().file(file)


class Part:
    """A line of a scenario that the AST keeps as a field, not a node (``question``, ``answer``,
    ``cites``, ``tags``, ``players``, ``format``, ``setup``), with its place in the source (for its
    comments and blank lines); ``value`` is the field's value."""
    __slots__ = ("span", "kind", "value")

    def __init__(self, span, kind: str, value):
        self.span, self.kind, self.value = span, kind, value


class _PartsBuilder(ScenarioBuilder):
    """The parser's builder, noting each scenario's lines in source order (``parts``, by ``id`` of
    the scenario): its parts (as ``Part``), boards and steps."""

    def __init__(self, path: str):
        super().__init__(path)
        self.parts = {}
        self.spans = {}            # id() of a built (kind, value) tuple without a span -> its span

    def t_cites(self, span, ch):
        built = super().t_cites(span, ch)
        self.spans[id(built)] = span
        return built

    def t_tags(self, span, ch):
        built = super().t_tags(span, ch)
        self.spans[id(built)] = span
        return built

    def t_scenario(self, span, ch):
        scenario = super().t_scenario(span, ch)
        lines = []
        for step in ch[1:]:
            if isinstance(step, tuple):
                lines.append(Part(step[2] if len(step) > 2 else self.spans[id(step)], step[0], step[1]))
            else:
                lines.append(step)
        self.parts[id(scenario)] = lines
        return scenario


def lines_of(s: A.Scenario) -> list:
    """A scenario's lines printed from its AST alone: its parts (those given), its boards, its own cards
    and decks, its script."""
    given = [Part(None, kind, getattr(s, kind)) for kind in PARTS if getattr(s, kind) or kind == "setup"]
    setup = [p for p in given if p.kind == "setup" and p.value]
    return [p for p in given if p.kind != "setup"] + list(s.boards) + list(s.cards) + setup + list(s.steps)


def blocks(node):
    """What a node's blocks hold, in print order (see ``formatter.blocks``): a file's scenarios, a
    scenario's lines, a set-up's statements; None for a line printed whole."""
    if isinstance(node, A.ScenarioFile):
        return [list(node.scenarios)]
    if isinstance(node, A.Scenario):
        return [lines_of(node)]
    if isinstance(node, Part):
        return [list(node.value)] if node.kind == "setup" else None
    if isinstance(node, (A.Step, A.BoardDrawing)):
        return None
    return rule_blocks(node)


class ScenarioPrinter(Printer):
    """The rules printer, taught the scenario language's lines (``parts``: by ``id`` of a scenario,
    its lines as the source wrote them)."""

    def file(self, file: A.ScenarioFile) -> str:
        """Scenarios apart by a blank line; the comments closing the file after them."""
        rendered = [[""] * (i > 0) + self.render(s, "") for i, s in enumerate(file.scenarios)]
        end = self.comments.take_end(file) + self.comments.leftovers()
        if end:
            last = file.scenarios[-1] if file.scenarios else None
            apart = last is not None and (not self.source or last.span.end_line + 1 != end[0][0])
            rendered.append([""] * apart + self.comment_lines(end, ""))
        lines = [line for item in align(rendered) for line in item]
        return "\n".join(lines) + ("\n" if lines else "")

    def p_Scenario(self, s: A.Scenario, pad: str) -> list:
        lines = self.parts.get(id(s))
        return self.braces(pad, [(f"scenario {self.string(s, s.title, True)}",
                                  lines if lines is not None else lines_of(s))], s)

    def line(self, pad: str, code: str) -> list:
        """A scenario's line: never broken (a long string written on several lines keeps its own)."""
        return fit(pad, flat(code))

    def p_Part(self, p: Part, pad: str) -> list:
        if p.kind == "setup":
            return self.braces(pad, [("setup", p.value)], p)
        if p.kind in ("question", "answer"):
            return self.line(pad, f"{p.kind} {self.string(p, p.value)}")
        if p.kind == "cites":
            return self.line(pad, "cite " + ", ".join(rule for rule, _ in p.value))
        if p.kind in ("tags", "players"):
            return self.line(pad, f"{p.kind} " + ", ".join(p.value))
        return self.line(pad, f"format {p.value}")

    def p_Step(self, s: A.Step, pad: str) -> list:
        return self.line(pad, getattr(self, "step_" + s.kind.replace("-", "_"))(s, *s.args))

    def strings(self, node, values) -> str:
        return ", ".join(self.string(node, v) for v in values)

    # -- the script
    def step_plays(self, s, player, action, args) -> str:
        # 'plays pass()' and 'plays pass' are one play: the brackets as written
        bracketed = args or (self.source is not None and "(" in self.source.words(s))
        return f"{player} plays {action}" + (f"({', '.join(self.x(a) for a in args)})" if bracketed else "")

    def step_tries(self, s, player, action, args) -> str:
        bracketed = args or (self.source is not None and "(" in self.source.words(s))
        return f"{player} tries {action}" + (f"({', '.join(self.x(a) for a in args)})" if bracketed else "")

    def step_passes(self, s, player) -> str:
        return f"{player} passes"

    def step_chooses(self, s, player, choice) -> str:
        return f"{player} chooses {self.x(choice)}"

    def step_answers(self, s, player, yes) -> str:
        return f"{player} answers {'yes' if yes else 'no'}"

    def step_orders(self, s, player, order) -> str:
        return f"{player} orders {self.x(order)}"

    def step_force_dice(self, s, dice, faces) -> str:
        return f"force dice {dice}: {', '.join(faces)}"

    def step_force_order(self, s, zone, titles) -> str:
        return f"force order {self.p(zone)}: {self.strings(s, titles)}"

    def step_force_pick(self, s, pick) -> str:
        return f"force pick {self.x(pick)}"

    def step_run(self, s, first, last) -> str:
        return f"run {first}" + (f" to {last}" if last else "")

    def step_play_game(self, s) -> str:
        return "play the game"

    # -- expectations
    def step_expect_true(self, s, condition) -> str:
        return f"expect {self.x(condition)}"

    def step_expect_winner(self, s, players) -> str:
        return f"expect winner {self.x(players)}"

    def step_expect_no_winner(self, s) -> str:
        return "expect no winner"

    def step_expect_eliminated(self, s, players) -> str:
        return f"expect eliminated {self.x(players)}"

    def step_expect_refused(self, s, rule, message, _span) -> str:
        return f"expect refused {rule}" + (f" {self.string(s, message)}" if message else "")

    def step_expect_trace(self, s, *items) -> str:
        return "expect trace " + ", ".join(rule + (f" {self.string(s, words)}" if words else "")
                                           for rule, words, _ in items)

    def step_expect_offered(self, s, player, options) -> str:
        return f"expect offered {player}: {self.strings(s, options)}"


# ------------------------------------------------------------------ the same scenarios


def same_scenarios(a: A.ScenarioFile, b: A.ScenarioFile) -> bool:
    """Whether two parsed scenario files say the same. Nodes compare without their spans, but a
    scenario's ``cite`` line and the rule ids of ``expect refused`` and ``expect trace`` keep theirs
    in plain tuples (for the checks' messages): those are left out, as layout."""
    return _unplaced(a) == _unplaced(b)


def _unplaced(x):
    """``x`` with every span held in a tuple taken out (spans in a node's fields are not compared)."""
    if isinstance(x, tuple):
        return tuple(_unplaced(item) for item in x if not isinstance(item, A.Span))
    if isinstance(x, (A.ScenarioFile, A.Scenario, A.Step)):
        return replace(x, **{f.name: _unplaced(getattr(x, f.name)) for f in fields(x)
                             if f.compare and isinstance(getattr(x, f.name), tuple)})
    return x
