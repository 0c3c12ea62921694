"""Comments for the formatter: source text and its AST in, each ``#`` comment's place out.

Comments are not in the AST, so the formatter re-lexes the text for them (skipping string literals,
which may hold a ``#``) and ties each one to a node that has a span:

- a comment on a line of its own goes before the node that follows it in the same block, or, when
  nothing follows, to the end of that block (printed just before its closing ``}``);
- a comment after code on the same line (a trailing comment) goes on its own line above the node that
  starts (or ends) on that line: ``set a = 1  # why`` becomes ``# why`` over ``set a = 1``;
- a comment inside a node printed on one line (a statement spanning several lines, a menu) goes
  before that node.

``parts(node)`` (from the formatter) says which nodes are blocks and what they hold, in print order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# String literals exactly as the grammar's LONG_STRING and STRING, then comments.
_LEXEMES = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?!"")(?:[^"\\\n]|\\.)*"|#[^\n]*')


@dataclass(frozen=True)
class Comment:
    line: int               # 1-based, as Lark counts
    column: int
    text: str               # from '#' to the end of the line, trailing blanks removed
    full_line: bool         # nothing but blanks before it on its line


@dataclass
class Placement:
    """Comments keyed by ``id(node)`` as (position, text): printed before the node, or before the
    closing ``}`` of the block the node is. Taking a node's comments removes them."""

    before: dict = field(default_factory=dict)
    end: dict = field(default_factory=dict)

    def take_before(self, node) -> list:
        return [text for _, text in self.before.pop(id(node), [])]

    def take_end(self, node) -> list:
        return [text for _, text in self.end.pop(id(node), [])]

    def leftovers(self) -> list:
        """Comments no printed node claimed (none, for a module printed whole), in source order."""
        rest = sorted(c for table in (self.before, self.end) for cs in table.values() for c in cs)
        self.before.clear()
        self.end.clear()
        return [text for _, text in rest]


def scan(text: str) -> list[Comment]:
    """Every comment in a source text, in order."""
    comments = []
    for match in _LEXEMES.finditer(text):
        if match.group().startswith("#"):
            start = match.start()
            line_start = text.rfind("\n", 0, start) + 1
            comments.append(Comment(text.count("\n", 0, start) + 1, start - line_start + 1,
                                    match.group().rstrip(), not text[line_start:start].strip()))
    return comments


def _start(node) -> tuple:
    return (node.span.line, node.span.column)


def _stop(node) -> tuple:
    return (node.span.end_line, node.span.end_column)


def place(comments: list[Comment], module, parts) -> Placement:
    """Tie each comment to a node of ``module`` (see the module docstring)."""
    placement = Placement()
    for comment in comments:
        table, anchor = _anchor(comment, module, parts)
        table_of = placement.before if table == "before" else placement.end
        # kept as (position, text) so that leftovers can be put back in source order
        table_of.setdefault(id(anchor), []).append(((comment.line, comment.column), comment.text))
    return placement


def _anchor(comment: Comment, module, parts) -> tuple:
    node, pos = module, (comment.line, comment.column)
    while True:
        kids = parts(node) or []
        inner = next((k for k in kids if _start(k) < pos < _stop(k)), None)
        if inner is not None:
            if parts(inner) is None:
                return "before", inner
            node = inner
            continue
        if not comment.full_line:
            same_line = [k for k in kids if comment.line in (k.span.line, k.span.end_line) and _start(k) < pos]
            if same_line:
                return "before", same_line[0]
            if node is not module and node.span.line == comment.line:
                return "before", node
        after = next((k for k in kids if _start(k) > pos), None)
        return ("before", after) if after is not None else ("end", node)
