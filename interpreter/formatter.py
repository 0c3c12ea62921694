"""Format: rules source text (or an AST ``Module``) in, the same rules in canonical layout out.

``format_source(text, path)`` parses (a ``SourceError`` propagates to the caller) and prints, keeping
the ``#`` comments (placed by ``comments.py``); ``format_module(module)`` prints any AST, without
comments. Parsing the output gives an equal AST, and formatting the output again changes nothing.

The canonical layout: two-space indents, one statement per line, ``{`` on the line that opens the
block, a blank line between top-level items. A rule's ``text``, ``note`` or ``example`` longer than
80 characters is a ``\"\"\"long string\"\"\"`` wrapped at 100 columns (the parser joins its lines
into paragraphs, so wrapping changes nothing); other text is ``"quoted"`` with ``\\"`` and ``\\\\``
escapes. Expressions get the fewest parentheses that keep their tree (precedence as in
``grammar/common.lark``). The items of a rule and of a card keep their source order.
"""

from __future__ import annotations

import re

from . import ast as A
from . import syntax
from .comments import Placement, place, scan

INDENT = "  "
WIDTH = 100
LONG_TEXT = 80

# Precedence levels of grammar/common.lark, loosest first.
EXPR, OR, AND, NOT, CMP, SUM, PRODUCT, UNARY, POSTFIX, ATOM = range(10)
_BINARY = {"or": (OR, OR, AND), "and": (AND, AND, NOT), "+": (SUM, SUM, PRODUCT), "-": (SUM, SUM, PRODUCT),
           "*": (PRODUCT, PRODUCT, UNARY), "/": (PRODUCT, PRODUCT, UNARY), "%": (PRODUCT, PRODUCT, UNARY)}
_COMPARISON = (CMP, SUM, SUM)          # == != < <= > >= in, not in: not associative
_CONSTANTS = {True: "true", False: "false", None: "none"}
_COUNTS = {"one": "one", "any": "any number"}
_DURATIONS = {"until_end": "until end of", "for_next": "for next", "for_this": "for this"}
_BREAK = re.compile(r"(?<=\S) (?=\S)")     # where a long text's line may break: a single space


def format_source(text: str, path: str = "<string>") -> str:
    """The canonical form of a rules file's text, comments kept."""
    module = syntax.parse_rules(text, path)
    return Printer(place(scan(text), module, parts)).module(module)


def format_module(module: A.Module) -> str:
    """The canonical form of a parsed (or built) module."""
    return Printer().module(module)


# ------------------------------------------------------------------ structure


def _in_source_order(nodes) -> list:
    """Nodes by position in their file; nodes without one keep their order (the sort is stable)."""
    return sorted(nodes, key=lambda n: (getattr(n.span, "line", 0), getattr(n.span, "column", 0)))


def parts(node):
    """What a block holds, in print order, for placing comments; None for a node printed whole."""
    if isinstance(node, A.Module):
        return list(node.items)
    if isinstance(node, A.Game):
        return list(node.sources)
    if isinstance(node, (A.State, A.CardType)):
        return list(node.fields)
    if isinstance(node, A.Card):
        return _in_source_order(node.fields + node.abilities)
    if isinstance(node, A.Deck):
        return []
    if isinstance(node, A.Rule):
        return _in_source_order(node.docs + node.errata + node.actions + node.values + node.triggers
                                + node.checks + node.body)
    if isinstance(node, (A.Ability, A.Action, A.Trigger, A.Check, A.Flow, A.ForEach, A.Repeat, A.While)):
        return list(node.body)
    if isinstance(node, A.If):
        return [s for _, body in node.branches for s in body] + list(node.otherwise)
    if isinstance(node, A.May):
        return list(node.body) + list(node.otherwise)
    return None


_TAIL = {A.Let: "value", A.Value: "body", A.Change: "amount", A.Transfer: "destination",
         A.Draw: "destination", A.Create: "destination", A.Shuffle: "zone", A.Reveal: "cards",
         A.Win: "players", A.Eliminate: "players", A.Pick: "options", A.Perform: "actor", A.Repeat: "until"}


def _tail(node):
    """The expression a statement ends with, if any: a '(' after it would make a call of its name."""
    kind = type(node)
    if kind in _TAIL:
        return getattr(node, _TAIL[kind])
    if kind is A.Set:
        return node.target if node.value is None else node.value
    if kind is A.Move:
        return node.destination if node.place == "top" else None
    if kind in (A.Choose, A.Order):
        return node.options if not node.prompt and not getattr(node, "hidden", False) else None
    if kind is A.ChooseNumber:
        return node.high if not node.prompt else None
    if kind is A.Initiate:
        return node.cards if node.ordered_by is None else node.ordered_by
    return None


# ------------------------------------------------------------------ text


def quote(value: str) -> str:
    """A short string literal: ``"..."`` with escapes."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _escape_long(text: str, at_end: bool) -> str:
    """Text inside triple quotes: backslashes escaped, and every '"' that a '"' follows (or that
    ends the literal), so that no '\"\"\"' appears before the closing quotes."""
    out = []
    for i, ch in enumerate(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"' and (text[i + 1:i + 2] == '"' or (at_end and i + 1 == len(text))):
            out.append('\\"')
        else:
            out.append(ch)
    return "".join(out)


def long_text(value: str, pad: str, head: str):
    """``head\"\"\"value\"\"\"`` as lines wrapped at WIDTH, or None if the literal could not hold it."""
    paragraphs = value.split("\n\n")
    if not value or any(not p or p != p.strip() or "\n" in p for p in paragraphs):
        return None
    lines = []
    for i, paragraph in enumerate(paragraphs):
        last = i == len(paragraphs) - 1
        words = _BREAK.split(_escape_long(paragraph, last))
        if last:
            words[-1] += '"""'
        if i:
            lines.append("")
        line = pad + (head + '"""' if i == 0 else "") + words[0]
        for word in words[1:]:
            if len(line) + 1 + len(word) <= WIDTH:
                line += " " + word
            else:
                lines.append(line)
                line = pad + word
        lines.append(line)
    literal = "\n".join(lines)[len(pad + head):]
    return lines if syntax.unquote(literal) == value else None


def board_text(value: str, pad: str, head: str):
    """A board's drawing, one line of the drawing per line, or None if the literal could not hold it."""
    unquote_lines = getattr(syntax, "unquote_lines", None)
    if unquote_lines is None or not value:
        return None
    body = [(pad + INDENT + _escape_long(line, False)).rstrip() for line in value.split("\n")]
    lines = [pad + head + '"""'] + body + [pad + INDENT + '"""']
    literal = "\n".join(lines)[len(pad + head):]
    return lines if unquote_lines(literal) == value else None


# ------------------------------------------------------------------ the printer


class Printer:
    """Prints a module as lines; comments come from a ``Placement`` (none for a built AST)."""

    def __init__(self, comments: Placement | None = None):
        self.comments = comments or Placement()
        self.force = None          # id() of an expression to parenthesise (see block())
        self.force_prompt = False  # print an empty prompt as "" (see block())

    # -- module and blocks
    def module(self, module: A.Module) -> str:
        chunks = [self.comments_before(item, "") + self.node(item, "") for item in module.items]
        end = self.comments.take_end(module) + self.comments.leftovers()
        if end:
            chunks.append(end)
        return "\n\n".join("\n".join(chunk) for chunk in chunks) + ("\n" if chunks else "")

    def comments_before(self, node, pad: str) -> list:
        return [pad + text for text in self.comments.take_before(node)]

    def node(self, node, pad: str) -> list:
        method = getattr(self, "p_" + type(node).__name__, None)
        if method is None:
            raise TypeError(f"the formatter does not know {type(node).__name__}")
        return method(node, pad)

    def block(self, nodes, pad: str) -> list:
        """Statements (or rule items), one after another. Statements have no separator: when the next
        one starts with '(' or a quote, the one before is printed so that it cannot swallow it."""
        rendered = [self.node(n, pad) for n in nodes]
        out = []
        for i, n in enumerate(nodes):
            lines = rendered[i]
            following = rendered[i + 1][0].lstrip()[:1] if i + 1 < len(nodes) else ""
            if following == "(" and _tail(n) is not None and re.search(r"\w$", lines[-1]):
                self.force = id(_tail(n))
                lines = self.node(n, pad)
                self.force = None
            elif following == '"' and isinstance(n, (A.Choose, A.ChooseNumber, A.Order)) and not n.prompt:
                self.force_prompt = True
                lines = self.node(n, pad)
                self.force_prompt = False
            out += self.comments_before(n, pad) + lines
        return out

    def braces(self, pad: str, segments, owner, after: str = "") -> list:
        """``head { ... } head { ... }after``: one or more blocks; the owner's closing comments go
        in the last. ``segments`` holds (head, nodes or lines)."""
        inner = pad + INDENT
        bodies = []
        for _, body in segments:
            bodies.append(body if body and isinstance(body[0], str) else self.block(body, inner))
        bodies[-1] = bodies[-1] + [inner + c for c in self.comments.take_end(owner)]
        if not any(bodies):
            return [pad + " ".join(f"{head} {{}}" for head, _ in segments) + after]
        lines = []
        for i, ((head, _), body) in enumerate(zip(segments, bodies)):
            lines.append((pad + head if i == 0 else pad + "} " + head) + " {")
            lines += body
        lines.append(pad + "}" + after)
        return lines

    # -- expressions
    def x(self, e, need: int = EXPR, follow=None) -> str:
        """An expression where the grammar wants level ``need``; ``follow`` is the level of the
        operator printed right after it (None for a keyword or a closing bracket)."""
        level = _level(e)
        swallows = follow is not None and (isinstance(e, (A.Quantified, A.IfExpr))
                                           or (isinstance(e, A.Ranked) and follow >= SUM))
        if level < need or swallows or id(e) == self.force:
            return "(" + self._x(e, None) + ")"
        return self._x(e, follow)

    def _x(self, e, follow) -> str:
        kind = type(e)
        if kind is A.Number:
            return str(e.value)
        if kind is A.Text:
            return quote(e.value)
        if kind is A.Constant:
            return _CONSTANTS[e.value]
        if kind is A.This:
            return "this"
        if kind is A.Name:
            return e.name
        if kind is A.Attr:
            return f"{self.x(e.subject, POSTFIX, POSTFIX)}.{e.name}"
        if kind is A.Index:
            return f"{self.x(e.subject, POSTFIX, POSTFIX)}[{self.x(e.index)}]"
        if kind is A.Call:
            return f"{e.name}({self.xs(e.args)})"
        if kind is A.ListExpr:
            return f"[{self.xs(e.items)}]"
        if kind is A.Unary:
            if e.op == "not":
                return "not " + self.x(e.operand, NOT, follow)
            return "-" + self.x(e.operand, UNARY, follow)
        if kind is A.Binary:
            level, left, right = _BINARY.get(e.op, _COMPARISON)
            return f"{self.x(e.left, left, level)} {e.op} {self.x(e.right, right, follow)}"
        if kind is A.IsNone:
            return self.x(e.subject, SUM, CMP) + (" is not none" if e.negated else " is none")
        if kind is A.IfExpr:
            return f"if {self.x(e.condition)} then {self.x(e.then)} else {self.x(e.otherwise, EXPR, follow)}"
        if kind is A.Quantified:
            return f"{e.kind} {e.var} in {self.x(e.iterable, SUM)}: {self.x(e.body, EXPR, follow)}"
        if kind is A.Ranked:
            return f"{e.kind} {e.var} in {self.x(e.iterable, SUM)} by {self.x(e.key, SUM, follow)}"
        raise TypeError(f"the formatter does not know the expression {kind.__name__}")

    def xs(self, exprs) -> str:
        return ", ".join(self.x(e) for e in exprs)

    def p(self, e) -> str:
        """A postfix expression: a statement's target, zone or chooser."""
        return self.x(e, POSTFIX)

    def call(self, name: str, args) -> str:
        return f"{name}({self.xs(args)})" if args else name

    def prompt(self, text: str) -> str:
        return f" {quote(text)}" if text or self.force_prompt else ""
