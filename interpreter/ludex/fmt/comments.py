"""Comments for the formatter: source text and its AST in, each ``#`` comment's place out.

Comments are not in the AST, so the formatter re-lexes the text for them (skipping string literals,
which may hold a ``#``) and ties each one to a node that has a span:

- a comment on a line of its own goes before the node that follows it in the same block, or, when
  nothing follows, to the end of that block (printed just before its closing ``}``);
- a comment after code on the same line (a trailing comment) stays at the end of that line: after the
  node that ends there (``last``), after the ``{`` that opens a block there (``head``), or, inside a
  node printed whole, after that node's first line (``first``);
- a comment in the head of a block written on several lines (``if a  # why`` / ``and b {``) goes
  before the node (after code in the head of a later block, ``} else if ...``, it trails the line
  opening that block if no later comment does); never into the block's body.
- any other comment inside a node printed whole (a statement spanning several lines, a menu part
  spanning several) goes before that node.

``blocks(node)`` (from the formatter) says what a node's blocks hold, in print order: one block for
most (a window's or a turn's menu parts, a deck's entries), one per branch for ``if`` and
``may``; a comment between two blocks belongs to the block whose ``}`` follows it (found by
counting braces in the text).
"""

from __future__ import annotations

import bisect
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
    """Comments as ((line, column), text) in tables keyed by node: ``before`` (by ``id(node)``),
    printed on lines of their own above the node; ``end`` (by ``(id(node), block index)``), printed
    before the closing ``}`` of that block; ``head`` (the same keys), trailing the line that opens
    the block; ``first`` and ``last`` (by ``id(node)``), trailing the node's first or last line.
    Taking comments removes them."""

    before: dict = field(default_factory=dict)
    end: dict = field(default_factory=dict)
    head: dict = field(default_factory=dict)
    first: dict = field(default_factory=dict)
    last: dict = field(default_factory=dict)
    positions: list = field(default_factory=list)      # (line, column) of every comment, sorted

    def _tables(self):
        return (self.before, self.end, self.head, self.first, self.last)

    def take_before(self, node) -> list:
        """(line, text) of each comment above the node."""
        return [(pos[0], text) for pos, text in self.before.pop(id(node), [])]

    def take_end(self, node, index: int = 0) -> list:
        """(line, text) of each comment closing a block of the node."""
        return [(pos[0], text) for pos, text in self.end.pop((id(node), index), [])]

    def take_head(self, node, index: int = 0) -> str:
        return " ".join(text for _, text in self.head.pop((id(node), index), []))

    def take_trailing(self, node, which: str) -> str:
        """The comment trailing the node's ``first`` or ``last`` line ('' when none)."""
        return " ".join(text for _, text in getattr(self, which).pop(id(node), []))

    def first_line(self, node) -> int:
        """The line of the first comment above the node, or of the node itself."""
        return min([pos[0] for pos, _ in self.before.get(id(node), [])] + [getattr(node.span, "line", 0)])

    def has_within(self, node) -> bool:
        """Whether a comment sits inside the node's span (a node printed on one line cannot hold it)."""
        span = getattr(node, "span", None)
        if span is None or span.line < 1:
            return False
        i = bisect.bisect_left(self.positions, (span.line, span.column))
        return i < len(self.positions) and self.positions[i] < (span.end_line, span.end_column)

    def leftovers(self) -> list:
        """(line, text) of the comments no printed node claimed (none, for a module printed
        whole), in source order."""
        rest = sorted(c for table in self._tables() for cs in table.values() for c in cs)
        for table in self._tables():
            table.clear()
        return [(pos[0], text) for pos, text in rest]


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
    anchored = [(comment, _anchor(comment, module, blocks, text, line_starts)) for comment in scan(text)]
    last_head = {key: comment for comment, (table, key) in anchored if table == "head"}
    for comment, (table, key) in anchored:
        if table == "head" and last_head[key] is not comment:
            table, key = "before", key[0]       # a line trails one comment: its last, the others go above
        # kept with their position so that leftovers can be put back in source order
        getattr(placement, table).setdefault(key, []).append(((comment.line, comment.column), comment.text))
        placement.positions.append((comment.line, comment.column))
    return placement


def _anchor(comment: Comment, module, blocks, text: str, line_starts: list) -> tuple:
    node, pos = module, (comment.line, comment.column)
    while True:
        node_blocks = blocks(node) or [[]]
        kids = [k for block in node_blocks for k in block]
        inner = next((k for k in kids if _start(k) < pos < _stop(k)), None)
        if inner is not None:
            if blocks(inner) is None:
                trailing = not comment.full_line and comment.line == inner.span.line
                return ("first" if trailing else "before"), id(inner)
            node = inner
            continue
        if not comment.full_line:
            ended = [k for k in kids if k.span.end_line == comment.line and _stop(k) <= pos]
            if ended:
                return "last", id(max(ended, key=_stop))
        index = 0
        if node is not module:
            start = line_starts[node.span.line - 1] + node.span.column - 1
            closed, opened, opener = _blocks_so_far(text, start, comment.offset)
            index = min(closed, len(node_blocks) - 1)
            if opened == closed and closed < len(node_blocks):
                # in the head of a block, on a line the head continues on: with the others of
                # that head (above the node, or trailing the line opening a later block)
                if closed and not comment.full_line:
                    return "head", (id(node), closed)
                return "before", id(node)
            if not comment.full_line:
                if opened == closed + 1 and closed < len(node_blocks) and "\n" not in text[opener:comment.offset]:
                    return "head", (id(node), closed)
                if node.span.line == comment.line:
                    return "before", id(node)
        after = next((k for k in node_blocks[index] if _start(k) > pos), None)
        return ("before", id(after)) if after is not None else ("end", (id(node), index))


def _blocks_so_far(text: str, start: int, stop: int) -> tuple:
    """For the node starting at ``start``: how many of its blocks are closed and how many opened
    before ``stop``, and where the last one opened."""
    depth = closed = opened = 0
    opener = start
    for match in _BRACES.finditer(text, start, stop):
        if match.group() == "{":
            if depth == 0:
                opened, opener = opened + 1, match.start()
            depth += 1
        elif match.group() == "}":
            depth -= 1
            closed += depth == 0
    return closed, opened, opener
