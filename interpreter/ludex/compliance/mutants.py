"""Mutants: a game's rules files (their text and AST) in, mutants of each rule's transcription out.

A mutant is one small change to one rule, found on the AST and made as a text edit at the node's
span, on one line, so that it reads as a one-line diff of the rules source (the line as written and
the line as changed) and goes through the whole pipeline again (parse, check, compile) like any
rules text: nothing of it enters generated code but what the parser makes of it (docs/untrusted.md).

The operators (``OPERATORS``): a condition negated (``if``, ``while``, ``until``, ``require``,
``whenever``, ``if ... then ... else``; a ``not`` taken away); a comparison swapped (``<`` and ``<=``,
``>`` and ``>=``, ``==`` and ``!=``, ``in`` and ``not in``); ``and`` and ``or``; ``+`` and ``-``; a
number plus or minus one; a statement dropped; an ``if ... then ... else`` with its two values swapped;
another role, zone or counter of the same kind (the next one the state declares). Swapping an ``if``
statement's branches is the same rules as negating its condition, so it is made once, as that (one
line, where swapped bodies would be many).

Equivalent mutants, which no ruling can tell from the rules as written, are marked in the rule's block
by a comment the tool reads: ``# equivalent: `LINE AS WRITTEN` -> `LINE AS CHANGED`: why``, the two
lines as the report prints them (``equivalences``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..parse import ast as A

#: The operators, by the name a mutant's report and id give them.
OPERATORS = ("negate", "compare", "logic", "arithmetic", "number", "drop", "swap-values", "other-name")

_COMPARE_SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
_LOGIC_SWAP = {"and": "or", "or": "and"}
_ARITHMETIC_SWAP = {"+": "-", "-": "+"}
_MEMBER_SWAP = {"in": "not in", "not in": "in"}


@dataclass(frozen=True)
class Mutant:
    """One change to one rule: in ``path``, line ``line`` (1-based), the characters from ``column`` to
    ``end_column`` (1-based, end exclusive) replaced by ``replacement``. ``before`` and ``after`` are the
    whole line as written and as changed, stripped: with the rule and the count among the rule's
    mutants of the same two lines (``nth``), they are the mutant's id."""

    rule: str
    operator: str
    path: str
    line: int
    column: int
    end_column: int
    replacement: str
    before: str
    after: str
    nth: int = 0

    @property
    def key(self) -> str:
        """The mutant's id, the same while the rule's lines stay as they are (not their place in the file)."""
        return f"{self.rule}\0{self.operator}\0{self.before}\0{self.after}\0{self.nth}"

    @property
    def diff(self) -> str:
        return f"`{self.before}` -> `{self.after}`"

    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def apply(self, text: str) -> str:
        """The rules text with this mutant's change made."""
        lines = text.split("\n")
        row = lines[self.line - 1]
        lines[self.line - 1] = row[:self.column - 1] + self.replacement + row[self.end_column - 1:]
        return "\n".join(lines)


def _one_line(span) -> bool:
    return span is not None and span.line > 0 and span.line == span.end_line


class _Maker:
    """The mutants of one rule, made from its nodes and its file's lines."""

    def __init__(self, rule_id: str, path: str, lines: list, fields: dict):
        self.rule_id, self.path, self.lines, self.fields = rule_id, path, lines, fields
        self.made: list = []
        self.seen: set = set()

    def add(self, operator: str, line: int, column: int, end_column: int, replacement: str):
        row = self.lines[line - 1]
        changed = row[:column - 1] + replacement + row[end_column - 1:]
        if changed == row or (line, column, end_column, replacement) in self.seen:
            return
        self.seen.add((line, column, end_column, replacement))
        before, after = row.strip(), changed.strip()
        nth = sum(1 for m in self.made if (m.operator, m.before, m.after) == (operator, before, after))
        self.made.append(Mutant(self.rule_id, operator, self.path, line, column, end_column, replacement,
                                before, after, nth))

    def text(self, span) -> str:
        return self.lines[span.line - 1][span.column - 1:span.end_column - 1]

    def replace(self, operator: str, span, replacement: str):
        if _one_line(span):
            self.add(operator, span.line, span.column, span.end_column, replacement)

    # -- the operators
    def negate(self, condition):
        if condition is None or not _one_line(condition.span):
            return
        if isinstance(condition, A.Unary) and condition.op == "not" and _one_line(condition.operand.span):
            self.replace("negate", condition.span, self.text(condition.operand.span))
        else:
            self.replace("negate", condition.span, f"not ({self.text(condition.span)})")

    def operator_between(self, node, left, right, words: dict, operator: str):
        """``a < b`` -> ``a <= b``: the operator found in the text between the two operands."""
        if not (_one_line(node.span) and _one_line(left.span) and _one_line(right.span)
                and left.span.line == right.span.line):
            return
        row = self.lines[left.span.line - 1]
        start, end = left.span.end_column - 1, right.span.column - 1
        between = row[start:end]
        op = node.op
        pattern = r"not\s+in" if op == "not in" else (rf"\b{op}\b" if op.isalpha() else re.escape(op))
        found = list(re.finditer(pattern, between))
        if len(found) != 1 or op not in words:
            return
        hit = found[0]
        self.add(operator, left.span.line, start + hit.start() + 1, start + hit.end() + 1, words[op])

    def binary(self, node: A.Binary):
        if node.op in _COMPARE_SWAP:
            self.operator_between(node, node.left, node.right, _COMPARE_SWAP, "compare")
        elif node.op in _MEMBER_SWAP:
            self.operator_between(node, node.left, node.right, _MEMBER_SWAP, "compare")
        elif node.op in _LOGIC_SWAP:
            self.operator_between(node, node.left, node.right, _LOGIC_SWAP, "logic")
        elif node.op in _ARITHMETIC_SWAP:
            self.operator_between(node, node.left, node.right, _ARITHMETIC_SWAP, "arithmetic")

    def number(self, node: A.Number):
        if not _one_line(node.span) or not self.text(node.span).isdigit():
            return
        for value in (node.value + 1, node.value - 1):
            if value >= 0:
                self.replace("number", node.span, str(value))

    def other_name(self, node, name: str, span, suffix: bool):
        """A role, zone or counter of the state replaced by the next of the same scope and kind."""
        mine = self.fields.get(name)
        if mine is None or not _one_line(span):
            return
        if isinstance(node, A.Name) and mine.scope != "game":
            return
        if isinstance(node, A.Attr) and mine.scope != "player":
            return
        same = [f.name for f in self.fields.values() if (f.scope, f.kind) == (mine.scope, mine.kind)]
        if len(same) < 2:
            return
        other = same[(same.index(name) + 1) % len(same)]
        written = self.text(span)
        if suffix:
            if not written.endswith("." + name):
                return
            self.add("other-name", span.line, span.end_column - len(name), span.end_column, other)
        elif written == name:
            self.replace("other-name", span, other)

    def drop(self, statement):
        if isinstance(statement, A.Let) or not _one_line(statement.span):
            return
        self.replace("drop", statement.span, "")

    def swap_values(self, node: A.IfExpr):
        if _one_line(node.then.span) and _one_line(node.otherwise.span) and \
                node.then.span.line == node.otherwise.span.line:
            row = self.lines[node.then.span.line - 1]
            a = (node.then.span.column, node.then.span.end_column)
            b = (node.otherwise.span.column, node.otherwise.span.end_column)
            middle = row[a[1] - 1:b[0] - 1]
            replacement = row[b[0] - 1:b[1] - 1] + middle + row[a[0] - 1:a[1] - 1]
            self.add("swap-values", node.then.span.line, a[0], b[1], replacement)

    def visit(self, x):
        for y in A.descendants(x):
            if isinstance(y, A.If):
                for condition, _ in y.branches:
                    self.negate(condition)
            elif isinstance(y, (A.While, A.Check)):
                self.negate(y.condition)
            elif isinstance(y, A.Repeat):
                self.negate(y.until)
            elif isinstance(y, A.Require):
                self.negate(y.condition)
            elif isinstance(y, A.IfExpr):
                self.negate(y.condition)
                self.swap_values(y)
            elif isinstance(y, A.Binary):
                self.binary(y)
            elif isinstance(y, A.Number):
                self.number(y)
            elif isinstance(y, A.Name):
                self.other_name(y, y.name, y.span, suffix=False)
            elif isinstance(y, A.Attr):
                self.other_name(y, y.name, y.span, suffix=True)
            if isinstance(y, STATEMENTS):
                self.drop(y)


STATEMENTS = tuple(t for t in A.Stmt.__args__)


def rule_parts(rule: A.Rule) -> tuple:
    """What of a rule is its transcription: its plays, values, triggers, state checks and procedure
    (not its text, notes, examples or errata)."""
    return (rule.actions, rule.values, rule.triggers, rule.checks, rule.body)


def mutants_of(gamedef, texts: dict, rules=None) -> list[Mutant]:
    """Every mutant of each rule of ``gamedef`` (of those in ``rules``, if given), in the order of the
    rules and then of their lines. ``texts``: each rules file's text, by the path its spans name."""
    made = []
    fields = gamedef.fields
    for rule_id, rule in gamedef.rules.items():
        if rules is not None and rule_id not in rules:
            continue
        text = texts.get(rule.span.path)
        if text is None:
            continue
        maker = _Maker(rule_id, rule.span.path, text.split("\n"), fields)
        maker.visit(rule_parts(rule))
        made.extend(sorted(maker.made, key=lambda m: (m.line, m.column, OPERATORS.index(m.operator),
                                                      m.replacement)))
    return made


#: ``# equivalent: `line as written` -> `line as changed`: why``
EQUIVALENT = re.compile(r"#\s*equivalent:\s*`([^`]*)`\s*->\s*`([^`]*)`\s*:\s*(\S.*?)\s*$")


@dataclass(frozen=True)
class Equivalence:
    """A comment saying a mutant is equivalent: the rule it is in, the two lines and why."""

    rule: str
    path: str
    line: int
    before: str
    after: str
    reason: str


def equivalences(gamedef, texts: dict) -> list[Equivalence]:
    """The equivalent-mutant comments in each rule's block, in the order of the file."""
    found = []
    for rule_id, rule in gamedef.rules.items():
        text = texts.get(rule.span.path)
        if text is None:
            continue
        lines = text.split("\n")
        for number in range(rule.span.line, min(rule.span.end_line, len(lines)) + 1):
            m = EQUIVALENT.search(lines[number - 1])
            if m:
                found.append(Equivalence(rule_id, rule.span.path, number, m.group(1).strip(),
                                         m.group(2).strip(), m.group(3)))
    return found


def without_equivalences(text: str) -> str:
    """A rules text as the mutation results depend on it: the equivalent-mutant comments, and the
    lines that hold only one, left out (marking a mutant changes no run)."""
    kept = []
    for row in text.split("\n"):
        m = EQUIVALENT.search(row)
        if m is None:
            kept.append(row)
        elif row[:m.start()].strip():
            kept.append(row[:m.start()].rstrip())
    return "\n".join(kept)
