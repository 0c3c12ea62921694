"""Comments for the formatter: source text and its AST in, each ``#`` comment's place out.

Comments are not in the AST, so the formatter re-lexes the text for them (skipping string literals,
which may hold a ``#``) and ties each one to a node that has a span:

- a comment on a line of its own goes before the node that follows it in the same block, or, when
  nothing follows, to the end of that block (printed just before its closing ``}``);
- a comment after code on the same line (a trailing comment) goes on its own line above the node that
  starts (or ends) on that line: ``set a = 1  # why`` becomes ``# why`` over ``set a = 1``;
- a comment inside a node printed whole (a statement spanning several lines, a window's menu) goes
  before that node.

``blocks(node)`` (from the formatter) says what a node's blocks hold, in print order: one block for
most, one per branch for ``if`` and ``may``; a comment between two blocks belongs to the block
whose ``}`` follows it (found by counting braces in the text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# String literals exactly as the grammar's LONG_STRING and STRING, then comments.
_LEXEMES = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?!"")(?:[^"\\\n]|\\.)*"|#[^\n]*')
_BRACES = re.compile(_LEXEMES.pattern + r"|[{}]")


@dataclass(frozen=True)
class Comment:
    line: int               # 1-based, as Lark counts
    column: int
    offset: int
    text: str               # from '#' to the end of the line, trailing blanks removed
    full_line: bool         # nothing but blanks before it on its line


@dataclass
class Placement:
    """Comments as (position, text): ``before`` keyed by ``id(node)``, printed above the node;
    ``end`` keyed by ``(id(node), block index)``, printed before the closing ``}`` of that block of
    the node. Taking comments removes them."""

    before: dict = field(default_factory=dict)
    end: dict = field(default_factory=dict)

    def take_before(self, node) -> list:
        return [text for _, text in self.before.pop(id(node), [])]

    def take_end(self, node, index: int = 0) -> list:
        return [text for _, text in self.end.pop((id(node), index), [])]

    def has_before(self, node) -> bool:
        return id(node) in self.before

    def has_end(self, node, index: int = 0) -> bool:
        return (id(node), index) in self.end

    def blank_between(self, previous, node) -> bool:
        """Whether the source had a blank line between two nodes (and the comments above the second)."""
        end = getattr(previous.span, "end_line", 0)
        start = min([pos[0] for pos, _ in self.before.get(id(node), [])] + [getattr(node.span, "line", 0)])
        return 0 < end and end + 1 < start

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
            comments.append(Comment(text.count("\n", 0, start) + 1, start - line_start + 1, start,
                                    match.group().rstrip(), not text[line_start:start].strip()))
    return comments


def _start(node) -> tuple:
    return (node.span.line, node.span.column)


def _stop(node) -> tuple:
    return (node.span.end_line, node.span.end_column)


def place(text: str, module, blocks) -> Placement:
    """Tie each comment of ``text`` to a node of ``module``, its AST (see the module docstring).
    ``blocks(node)`` lists the blocks of a node (each a list of nodes), None for a node printed whole."""
    placement = Placement()
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    for comment in scan(text):
        table, key = _anchor(comment, module, blocks, text, line_starts)
        # kept with their position so that leftovers can be put back in source order
        (placement.before if table == "before" else placement.end).setdefault(key, []).append(
            ((comment.line, comment.column), comment.text))
    return placement


def _anchor(comment: Comment, module, blocks, text: str, line_starts: list) -> tuple:
    node, pos = module, (comment.line, comment.column)
    while True:
        node_blocks = blocks(node) or [[]]
        kids = [k for block in node_blocks for k in block]
        inner = next((k for k in kids if _start(k) < pos < _stop(k)), None)
        if inner is not None:
            if blocks(inner) is None:
                return "before", id(inner)
            node = inner
            continue
        if not comment.full_line:
            same_line = [k for k in kids if comment.line in (k.span.line, k.span.end_line) and _start(k) < pos]
            if same_line:
                return "before", id(same_line[0])
            if node is not module and node.span.line == comment.line:
                return "before", id(node)
        index = 0
        if len(node_blocks) > 1:
            start = line_starts[node.span.line - 1] + node.span.column - 1
            index = min(_closed_blocks(text, start, comment.offset), len(node_blocks) - 1)
        after = next((k for k in node_blocks[index] if _start(k) > pos), None)
        return ("before", id(after)) if after is not None else ("end", (id(node), index))


def _closed_blocks(text: str, start: int, stop: int) -> int:
    """How many blocks of the node starting at ``start`` are closed before ``stop``."""
    depth = closed = 0
    for match in _BRACES.finditer(text, start, stop):
        if match.group() == "{":
            depth += 1
        elif match.group() == "}":
            depth -= 1
            closed += depth == 0
    return closed
