"""What the author wrote that the AST does not keep: source text in, the author's choices out.

The AST keeps what the rules mean, not how they were spelled. So that ``ludex fmt`` changes layout
and nothing the author chose, the printer asks this module, for a node with a span, how its source
spelled what the AST drops:

- optional words (``words``): ``public`` on a zone, ``at top`` on a move, ``exactly one`` in a menu,
  ``copies 1`` on a card, the ``game`` scope of a role, and the order of a state field's words;
- grouping parentheses around a part of an expression (``parenthesized``);
- the literal of a rule's text, a board's drawing, a text expression (``literal``) or any other
  string (``literals``): short or long, and a long one's line breaks;
- line breaks: whether a node was written on one line (``one_line``), whether a blank line is
  above a source line (``blank_above``).

A module printed without its source (``format_module``) has no ``Authored``: the printer uses its
own defaults, and positions of nodes built by hand (line 0) are never looked up.
"""

from __future__ import annotations

import re

# String literals exactly as the grammar's LONG_STRING and STRING, then comments (as comments.py).
_LEXEMES = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?!"")(?:[^"\\\n]|\\.)*"|#[^\n]*')
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*|[0-9]+|\S")


class Authored:
    """A source text, read for the choices its author made (see the module docstring)."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        # the code alone: every string literal and comment blanked (its line breaks kept), so that
        # searching for a word or a bracket never finds one inside them
        self.code = _LEXEMES.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)

    # -- positions
    def _offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column - 1

    def bounds(self, node):
        """(start, end) offsets of a node in the text, or None for a node without a position."""
        span = getattr(node, "span", None)
        if span is None or span.line < 1 or span.line > len(self.starts):
            return None
        return self._offset(span.line, span.column), self._offset(span.end_line, span.end_column)

    def one_line(self, node) -> bool:
        """Whether the source wrote the node on a single line (False when it has no position)."""
        span = getattr(node, "span", None)
        return span is not None and span.line > 0 and span.line == span.end_line

    def blank_above(self, line: int) -> bool:
        """Whether the source line above ``line`` (1-based) is blank."""
        return 2 <= line <= len(self.lines) + 1 and not self.lines[line - 2].strip()

    # -- words
    def words(self, node, upto=None) -> list:
        """The node's code as words (names, numbers, single characters); strings and comments are
        left out. With ``upto`` (a node inside it), only the words after that node."""
        where = self.bounds(node)
        if where is None:
            return []
        start, end = where
        if upto is not None and self.bounds(upto) is not None:
            start = self.bounds(upto)[1]
        return _TOKEN.findall(self.code, start, end)

    # -- parentheses
    def parenthesized(self, expr, pairs: int = 1) -> bool:
        """Whether the source put the expression in ``pairs`` pairs of parentheses: '(' right before
        it and ')' right after it, blanks, comments and line breaks between (the caller knows when a
        pair belongs to something else: a call's sole argument sits in the call's)."""
        where = self.bounds(expr)
        if where is None:
            return False
        start, end = where
        code = self.code
        for _ in range(pairs):
            start -= 1
            while start >= 0 and code[start].isspace():
                start -= 1
            while end < len(code) and code[end].isspace():
                end += 1
            if start < 0 or end >= len(code) or code[start] != "(" or code[end] != ")":
                return False
            end += 1
        return True

    # -- literals
    def literals(self, node, head: bool = False) -> list:
        """The string literals in the node's source, in order (``head``: only those before its
        first '{', for a node with a block)."""
        where = self.bounds(node)
        if where is None:
            return []
        start, end = where
        if head:
            brace = self.code.find("{", start, end)
            end = brace if brace >= 0 else end
        return [m.group() for m in _LEXEMES.finditer(self.text, start, end) if m.group()[0] == '"']

    def literal(self, node):
        """The first string literal in the node's source (for a text expression, the literal
        itself), or None."""
        where = self.bounds(node)
        if where is None:
            return None
        start, end = where
        for match in _LEXEMES.finditer(self.text, start, end):
            if match.group()[0] == '"':
                return match.group()
        return None
