"""Format: rules source text (or an AST ``Module``) in, the same rules in canonical layout out.

``format_source(text, path)`` parses (a ``SourceError`` propagates to the caller) and prints, keeping
the ``#`` comments (placed by ``comments.py``) and what the author wrote that the AST does not keep
(read by ``authored.py``); ``format_module(module)`` prints any AST, without comments. Parsing the
output gives an equal AST, and formatting the output again changes nothing.

The canonical layout: two-space indents, one statement per line, ``{`` on the line that opens the
block. A statement longer than 100 columns breaks before its message, prompt or ``cite`` (as many
pieces on a line as fit), then after an opening bracket and between the items of a list or call
(or of a value's or an event's parameters, where their line is too long with them, and of a
``formats`` line),
then before ``else`` (and ``then``), after a quantifier's ``:``, before ``or`` and ``and``
(layout.py); its lines after the first are indented two more (four more for a line opening a
block, and a break inside brackets in the first of them two more again).

Blank lines: one is kept where the source had any, between two items of a block, between comments
and what they stand above, and before the comments closing a block; top-level items are apart by
one, but for items the source wrote on consecutive lines (a run of cards), which stay together.
A comment after code stays at the end of its line; the comments trailing a run of one-line items of
a block line up two spaces past the longest of those lines (up to column 50), others are two spaces
past their code. Comments are not counted in the width.

What the author chose is kept where the AST cannot tell it: every line of a game header (the AST
keeps the last ``players``, ``formats`` or ``excerpt`` line only), in the source's order; a deck's
entries and a menu's parts with their comments; a string literal short or long as written, wherever
it is (a long one keeps its line breaks, only its indentation set to its line's or its statement's
continuation); a board's drawing as drawn; the parentheses the source put around an expression with
operators; words that say the default (``public``, ``at top``, ``exactly one``, ``copies 1``, a
role's ``game`` scope, ``players 2 to 2``), where written; a card, card type, deck or menu on one
line or as a block, as written (one line only if it fits), a card's fields on the lines the source
gave them; an ability, trigger or one-branch statement whose single statement the source wrote
``{ on one line }``, if it fits. The items of a rule and of a card keep their source order.

Printed from the AST alone (``format_module``): defaults are left out and so are words the AST does
not keep, expressions get the fewest parentheses that keep their tree (precedence as in
``grammar/common.lark``), a ``text``, ``note`` or ``example`` too long for a line, or of several
paragraphs, is a ``\"\"\"long string\"\"\"`` wrapped at 100 columns (the parser joins its lines into
paragraphs, so wrapping changes nothing), and other text is ``"quoted"`` with ``\\"`` and ``\\\\``
escapes.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..parse import ast as A
from ..parse import syntax
from ..parse.builders import Builder, unquote, unquote_lines
from .authored import Authored
from .comments import Placement, place
from .layout import (
    AND,
    BODY,
    ELSE,
    FILL,
    HEAD,
    INDENT,
    OR,
    STATEMENT,
    THEN,
    WIDTH,
    Remark,
    Trailed,
    align,
    as_written,
    board_text,
    fit,
    flat,
    joined,
    long_text,
    mark,
    quote,
    relaid,
    trailed,
)

# Precedence levels of grammar/common.lark, loosest first.
EXPR, LOR, LAND, NOT, CMP, SUM, PRODUCT, UNARY, POSTFIX, ATOM = range(10)
_BINARY = {"or": (LOR, LOR, LAND), "and": (LAND, LAND, NOT), "+": (SUM, SUM, PRODUCT),
           "-": (SUM, SUM, PRODUCT), "*": (PRODUCT, PRODUCT, UNARY), "/": (PRODUCT, PRODUCT, UNARY),
           "%": (PRODUCT, PRODUCT, UNARY)}
_COMPARISON = (CMP, SUM, SUM)          # == != < <= > >= in, not in: not associative
_BREAKS = {"or": OR, "and": AND}
_CONSTANTS = {True: "true", False: "false", None: "none"}
_COUNTS = {"one": "one", "any": "any number"}
_DURATIONS = {"until_end": "until end of", "for_next": "for next", "for_this": "for this"}
_COMMA = "," + mark(FILL)
_VISIBILITY = {"hidden", "public", "ordered", "in-play", "bookkeeping"}


def format_source(text: str, path: str = "<string>") -> str:
    """The canonical form of a rules file's text, comments kept (a byte-order mark is not text)."""
    text = text.removeprefix("\ufeff")      # as the parser does, so its positions fit this text
    builders = []
    module = syntax.parse_with("rules", lambda p: builders.append(_HeaderBuilder(p)) or builders[-1], text, path)
    parts = builders[-1].parts if builders else {}

    def with_parts(node):
        return [list(parts[id(node)])] if id(node) in parts else blocks(node)
    return Printer(place(text, module, with_parts), Authored(text), parts).module(module)


class HeaderLine:
    """A line of a game header other than a source (``players``, ``formats``, ``excerpt``), as the
    source wrote it: the AST keeps only the last of each, and not where it stood."""
    __slots__ = ("span", "kind", "data")

    def __init__(self, span, kind: str, data: tuple):
        self.span, self.kind, self.data = span, kind, data


class DeckEntry:
    """A deck's entry, with its place in the source (the AST keeps none, for its comments)."""
    __slots__ = ("span", "count", "title")

    def __init__(self, span, count: int, title: str):
        self.span, self.count, self.title = span, count, title


class _HeaderBuilder(Builder):
    """The parser's builder, noting the parts the AST keeps without a position, in source order
    (``parts``, by ``id`` of the node): a game header's lines, a deck's entries."""

    def __init__(self, path: str):
        super().__init__(path)
        self.parts = {}
        self.spans = {}            # id() of a built tuple -> its span

    def t_excerpt_decl(self, span, ch):
        built = super().t_excerpt_decl(span, ch)
        self.spans[id(built)] = span
        return built

    def t_deck_entry(self, span, ch):
        built = super().t_deck_entry(span, ch)
        self.spans[id(built)] = span
        return built

    def t_deck(self, span, ch):
        deck = super().t_deck(span, ch)
        self.parts[id(deck)] = [DeckEntry(self.spans[id(e)], e[0], e[1]) for e in deck.entries]
        return deck

    def t_game(self, span, ch):
        game = super().t_game(span, ch)
        lines = []
        for f in ch[2:]:
            if isinstance(f, A.Source):
                lines.append(f)
            elif f[0] == "excerpt":
                lines.append(HeaderLine(self.spans.get(id(f), f[-1]), "excerpt", tuple(f[1:3])))
            else:
                lines.append(HeaderLine(f[-1], f[0], tuple(f[1:-1])))
        self.parts[id(game)] = lines
        return game


def format_module(module: A.Module) -> str:
    """The canonical form of a parsed (or built) module."""
    return Printer().module(module)


# ------------------------------------------------------------------ structure


def _in_source_order(nodes) -> list:
    """Nodes by position in their file; nodes without one keep their order (the sort is stable)."""
    return sorted(nodes, key=lambda n: (getattr(n.span, "line", 0), getattr(n.span, "column", 0)))


def items(node) -> list:
    """A rule's or a card's items in print order: their source order."""
    if isinstance(node, A.CardDefinition):
        return _in_source_order(node.fields + node.abilities)
    return _in_source_order(node.docs + node.errata + node.actions + node.values + node.triggers
                            + node.checks + node.body)


def blocks(node):
    """What a node's blocks hold, in print order (for placing comments); None for a node printed
    whole. A rule's and a card's items are in one block, an if's branches each in its own, a
    window's or a turn's menu parts in one."""
    if isinstance(node, A.Module):
        return [list(node.items)]
    if isinstance(node, A.GameHeader):
        return [list(node.sources)]
    if isinstance(node, (A.State, A.CardType)):
        return [list(node.fields)]
    if isinstance(node, (A.CardDefinition, A.Rule)):
        return [items(node)]
    if isinstance(node, A.Deck):
        return [[]]
    if isinstance(node, (A.Window, A.Turn)):
        return [list(node.menu)]
    if isinstance(node, (A.Ability, A.Action, A.Trigger, A.Check, A.Flow, A.ForEach, A.Repeat, A.While)):
        return [list(node.body)]
    if isinstance(node, A.If):
        return [list(body) for _, body in node.branches] + ([list(node.otherwise)] if node.otherwise else [])
    if isinstance(node, A.May):
        return [list(node.body)] + ([list(node.otherwise)] if node.otherwise else [])
    return None


_TAIL = {A.Let: "value", A.Value: "body", A.Change: "amount", A.Transfer: "destination",
         A.Draw: "destination", A.Create: "destination", A.Shuffle: "zone", A.Reveal: "cards", A.Conceal: "cards",
         A.Win: "players", A.Eliminate: "players", A.Pick: "options", A.Perform: "actor", A.Repeat: "until"}


def _tail(node):
    """The field holding the expression a statement ends with, if any."""
    kind = type(node)
    if kind in _TAIL:
        return _TAIL[kind] if getattr(node, _TAIL[kind]) is not None else None
    if kind is A.Set:
        return "target" if node.value is None else "value"
    if kind is A.Move:
        return "destination" if node.place == "top" else None
    if kind in (A.Choose, A.Order):
        return "options" if not node.prompt and not getattr(node, "hidden", False) else None
    if kind is A.ChooseNumber:
        return "high" if not node.prompt else None
    if kind is A.Initiate:
        return "cards" if node.ordered_by is None else "ordered_by"
    return None


# Blocks that stay '{ on one line }' where the source wrote them so, with one statement (see
# ``Printer.one_liner``): an ability, a trigger and single-branch statements; not rules, actions or
# the flow, whose bodies are sections of the game.
_ONE_LINERS = (A.Ability, A.Trigger, A.Check, A.If, A.ForEach, A.Repeat, A.While, A.May)


class _Paren:
    """An expression to print in parentheses whatever its level (see ``Printer.guarded``)."""
    __slots__ = ("expr",)

    def __init__(self, expr):
        self.expr = expr


class _Forced(str):
    """An empty prompt to print as ``""`` (see ``Printer.guarded``)."""


# ------------------------------------------------------------------ the printer


class Printer:
    """Prints a module as lines; comments come from a ``Placement`` and the author's choices from an
    ``Authored`` source (neither for a built AST)."""

    def __init__(self, comments: Placement | None = None, source: Authored | None = None, parts=None):
        self.comments = comments or Placement()
        self.source = source
        self.parts = parts or {}        # id() of a Game or Deck -> its lines (see _HeaderBuilder)
        self.original = {}         # id() of a guarded copy of a node -> the node (for its comments)
        self.then = set()          # id() of each menu part after a menu's first (opens with 'then')

    # -- module and blocks
    def module(self, module: A.Module) -> str:
        """Top-level items apart by a blank line, but for runs the source wrote on consecutive lines."""
        rendered, previous = [], None
        for item in module.items:
            rendered.append([""] * (previous is not None and self.apart(previous, item)) + self.render(item, ""))
            previous = item
        end = self.comments.take_end(module) + self.comments.leftovers()
        if end:
            apart = previous is not None and (not self.source or previous.span.end_line + 1 != end[0][0])
            rendered.append([""] * apart + self.comment_lines(end, ""))
        lines = [line for item in align(rendered) for line in item]
        return "\n".join(lines) + ("\n" if lines else "")

    def apart(self, previous, item) -> bool:
        """Whether a blank line separates two top-level items."""
        return not self.source or previous.span.end_line + 1 != self.comments.first_line(item)

    def blank_between(self, previous, node) -> bool:
        """Whether the source had a blank line between two items of a block (and the comments
        above the second)."""
        start = self.comments.first_line(node)
        return bool(self.source) and previous.span.end_line + 1 < start and self.source.blank_above(start)

    def comment_lines(self, comments, pad: str) -> list:
        """Comments on lines of their own, a blank line kept where the source had one between two."""
        out = []
        for i, (line, text) in enumerate(comments):
            if i and self.source and self.source.blank_above(line):
                out.append("")
            out.append(Remark(pad + text))
        return out

    def render(self, node, pad: str, printed=None) -> list:
        """A node (printed as ``printed``, a guarded copy, if given) with its comments: those above
        it, then its lines, a comment trailing its first or last line."""
        comments = self.comments.take_before(node)
        out = self.comment_lines(comments, pad)
        start = getattr(node.span, "line", 0)
        if comments and self.source and comments[-1][0] < start and self.source.blank_above(start):
            out.append("")
        lines = list(self.node(printed or node, pad))
        for index, which in ((0, "first"), (-1, "last")):
            comment = self.comments.take_trailing(node, which)
            # a line with a comment already, or one that ends inside a long string: it goes above
            inside = index == 0 and len(lines) > 1 and (isinstance(node, (A.Doc, A.BoardDrawing))
                                                         or lines[0].count('"""') % 2 == 1)
            with_comment = None if inside else trailed(lines[index], comment)
            if comment and with_comment is None:
                out.append(Remark(pad + comment))
            elif comment:
                lines[index] = with_comment
        return out + lines

    def node(self, node, pad: str) -> list:
        method = getattr(self, "p_" + type(node).__name__, None)
        if method is None:
            raise TypeError(f"the formatter does not know {type(node).__name__}")
        return method(node, pad)

    def block(self, nodes, pad: str) -> list:
        """Statements (or other items) one per line, a blank line kept where the source had one.
        Each is printed knowing how the next begins (so, last first): see ``guarded``."""
        nodes = list(nodes)
        blanks = [i > 0 and self.blank_between(nodes[i - 1], n) for i, n in enumerate(nodes)]
        rendered, following = [None] * len(nodes), ""
        for i in reversed(range(len(nodes))):
            rendered[i] = [""] * blanks[i] + self.render(nodes[i], pad, self.guarded(nodes[i], following))
            following = next((line.lstrip()[:1] for line in rendered[i]
                              if line.strip() and not isinstance(line, Remark)), "")
        return [line for item in align(rendered) for line in item]

    def guarded(self, node, following: str):
        """Statements have no separator. Before one that starts with '(', a statement ending in a
        name would make a call of it: its last expression gets parentheses. Before one that starts
        with a quote, a choice without a prompt would take that text as its prompt: it gets ``""``."""
        field = _tail(node) if following == "(" else None
        if field and re.search(r"\w$", flat(self.x(getattr(node, field)))):
            guarded = replace(node, **{field: _Paren(getattr(node, field))})
        elif following == '"' and isinstance(node, (A.Choose, A.ChooseNumber, A.Order)) and not node.prompt:
            guarded = replace(node, prompt=_Forced(""))
        else:
            return node
        self.original[id(guarded)] = node
        return guarded

    def braces(self, pad: str, segments, owner, after: str = "") -> list:
        """``head { ... } head { ... }after``: one or more blocks, each given as (head, nodes) or
        (head, lines), each with the comments that close it; a comment trailing a line that opens a
        block stays there."""
        inner = pad + INDENT
        owner = self.original.get(id(owner), owner)
        bodies = []
        for i, (_, body) in enumerate(segments):
            lines = list(body) if body and isinstance(body[0], str) else self.block(body, inner)
            end = self.comments.take_end(owner, i)
            if end and lines and self.source and self.source.blank_above(end[0][0]):
                lines.append("")
            bodies.append(lines + self.comment_lines(end, inner))
        heads = [self.comments.take_head(owner, i) for i in range(len(segments))]
        if not any(heads):
            one = self.one_liner(pad, segments, bodies, owner, after)
            if one:
                return [one]
            if not any(bodies):
                return fit(pad, " ".join(f"{head} {{}}" for head, _ in segments) + after, HEAD)
        lines = []
        for i, ((head, _), body) in enumerate(zip(segments, bodies)):
            opening = fit(pad, (head if i == 0 else "} " + head) + " {", HEAD)
            opening[-1] = trailed(opening[-1], heads[i])
            lines += opening + body
        return lines + fit(pad, "}" + after)

    def one_liner(self, pad: str, segments, bodies, owner, after: str):
        """``head { statement }`` on one line, for a block the source wrote so (see ``_ONE_LINERS``)."""
        if not (isinstance(owner, _ONE_LINERS) and len(segments) == 1 and len(bodies[0]) == 1
                and self.source and self.source.one_line(owner) and not self.comments.has_within(owner)):
            return None
        line = pad + flat(f"{segments[0][0]} {{ {bodies[0][0].strip()} }}{after}")
        return line if len(line) <= WIDTH and "\n" not in line else None

    # -- expressions
    def x(self, e, need: int = EXPR, follow=None, around: int = 0) -> str:
        """An expression where the grammar wants level ``need``; ``follow`` is the level of the
        operator printed right after it (None for a keyword or a closing bracket). A quantifier's
        condition, a conditional's else part and a ranking's key run on to the right: followed by an
        operator they would take it, so they get parentheses. An expression with operators of its
        own keeps the parentheses its author put around it (one pair; ``around`` is how many pairs
        around it are not its own: a call's sole argument sits in the call's)."""
        if isinstance(e, _Paren):
            return "(" + self._x(e.expr, None) + ")"
        swallows = follow is not None and (isinstance(e, (A.Quantified, A.IfExpr))
                                           or (isinstance(e, A.Ranked) and follow >= SUM))
        grouped = self.source is not None and (_level(e) < POSTFIX or isinstance(e, A.Ranked)) \
            and self.source.parenthesized(e, around + 1)
        if _level(e) < need or swallows or grouped:
            return "(" + self._x(e, None) + ")"
        return self._x(e, follow)

    def _x(self, e, follow) -> str:
        kind = type(e)
        if kind is A.Number:
            return str(e.value)
        if kind is A.Text:
            literal = self.source.literal(e) if self.source else None
            if literal and literal.startswith('"""') and unquote(literal) == e.value:
                return relaid(literal, unquote, e.value)
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
            return self.call(e.name, e.args, bare=False)
        if kind is A.ListExpr:
            return f"[{self.xs(e.items)}]"
        if kind is A.Unary:
            if e.op == "not":
                return "not " + self.x(e.operand, NOT, follow)
            return "-" + self.x(e.operand, UNARY, follow)
        if kind is A.Binary:
            level, left, right = _BINARY.get(e.op, _COMPARISON)
            space = mark(_BREAKS[e.op]) if e.op in _BREAKS else " "
            return f"{self.x(e.left, left, level)}{space}{e.op} {self.x(e.right, right, follow)}"
        if kind is A.IsNone:
            return self.x(e.subject, SUM, CMP) + (" is not none" if e.negated else " is none")
        if kind is A.IfExpr:
            return (f"if {self.x(e.condition)}{mark(THEN)}then {self.x(e.then)}{mark(ELSE)}"
                    f"else {self.x(e.otherwise, EXPR, follow)}")
        if kind is A.Quantified:
            return (f"{e.kind} {e.var} in {self.x(e.iterable, SUM)}:{mark(BODY)}"
                    f"{self.x(e.body, EXPR, follow)}")
        if kind is A.Ranked:
            return f"{e.kind} {e.var} in {self.x(e.iterable, SUM)} by {self.x(e.key, SUM, follow)}"
        raise TypeError(f"the formatter does not know the expression {kind.__name__}")

    def xs(self, exprs, call: bool = False) -> str:
        """Items of a list or arguments of a call, which may break after the opening bracket too
        (but a call's sole argument hugs it: ``flatten([``); the sole argument of a call is within
        the call's brackets."""
        around = int(call and len(exprs) == 1)
        opening = mark(FILL, tight=True) if exprs and not around else ""
        return opening + _COMMA.join(self.x(e, around=around) for e in exprs)

    def p(self, e) -> str:
        """A postfix expression: a statement's target, zone or chooser."""
        return self.x(e, POSTFIX)

    def call(self, name: str, args, bare: bool = True) -> str:
        """``name(args)``; a call written ``name`` alone (``bare``) when it has none (emit, perform)."""
        return f"{name}({self.xs(args, call=True)})" if args or not bare else name

    def string(self, node, value: str, head: bool = False) -> str:
        """A string's literal: long where the author wrote one of that value in the node's source
        (``head``: before its block), its line breaks kept (see ``relaid``); else short."""
        if self.source is None:
            return quote(value)
        for literal in self.source.literals(self.original.get(id(node), node), head):
            if literal.startswith('"""') and unquote(literal) == value:
                return relaid(literal, unquote, value)
        return quote(value)

    def prompt(self, text: str, node) -> str:
        return f"{mark(STATEMENT)}{self.string(node, text)}" if text or isinstance(text, _Forced) else ""

    # -- top-level items
    def p_GameHeader(self, g: A.GameHeader, pad: str) -> list:
        inner = pad + INDENT
        head = f"game {g.key} {self.string(g, g.title, True)}"
        if id(g) in self.parts:           # every line the source has, in its order
            return self.braces(pad, [(head, self.parts[id(g)])], g)
        lines = self.block(g.sources, inner)
        if (g.min_players, g.max_players) != (2, 2) or self.source is None or _says_players(self.source.words(g)):
            lines += fit(inner, f"players {g.min_players} to {g.max_players}")     # 2 to 2 if none is said
        if g.formats:
            counted = list(g.format_players)     # in order: the names given a number of players

            def one(name):
                low = high = None
                if counted and counted[0][0] == name:       # a name written twice: the first takes it
                    _, low, high = counted.pop(0)
                return (name, low, high)
            lines += fit(inner, formats([one(name) for name in g.formats]))
        if g.excerpt_end:
            lines += fit(inner, f"excerpt ends after {g.excerpt_end}{mark(STATEMENT)}{quote(g.excerpt_note)}")
        return self.braces(pad, [(head, lines)], g)

    def p_HeaderLine(self, h: HeaderLine, pad: str) -> list:
        if h.kind == "players":
            return fit(pad, f"players {h.data[0]} to {h.data[1]}")
        if h.kind == "formats":
            return fit(pad, formats(h.data[0]))
        note = self.string(h, h.data[1])
        return fit(pad, f"excerpt ends after {h.data[0]}{mark(STATEMENT)}{note}")

    def p_Source(self, s: A.Source, pad: str) -> list:
        detail = f"{mark(STATEMENT)}{self.string(s, s.detail)}" if s.detail else ""
        return fit(pad, f"source {s.key} {self.string(s, s.title)} version {self.string(s, s.version)}"
                        f"{detail}")

    def p_State(self, s: A.State, pad: str) -> list:
        return self.braces(pad, [("state", s.fields)], s)

    def p_StateField(self, f: A.StateField, pad: str) -> list:
        written = self.source.words(f) if self.source else []
        # 'game' is the default scope; a role (one player, or none) is written without it, unless
        # the source gave a scope
        if written:
            scoped = written[0] in ("game", "player")
        else:
            scoped = (f.kind, f.scope) != ("role", "game")
        words = ([f.scope] if scoped else []) + [f.kind, f.name]
        for word, value in (("=", f.initial), ("min", f.minimum), ("max", f.maximum)):
            if value is not None:
                words += [word, self.x(value)]
        return fit(pad, " ".join(words + self.visibility(f, written[2 + scoped:])))

    def visibility(self, f: A.StateField, written: list) -> list:
        """A state field's visibility words: as the source wrote them (``public`` too, the default),
        if they say what the field holds; else those that are not the default, in canonical order."""
        flags = ["hidden"] * f.hidden + ["ordered"] * f.ordered + ["in-play"] * getattr(f, "in_play", False) + \
            ["bookkeeping"] * getattr(f, "bookkeeping", False)
        values = [v for v in (f.initial, f.minimum, f.maximum) if v is not None]
        if values and self.source:
            last = max(values, key=lambda v: self.source.bounds(v) or (0, 0))
            written = [w for w in self.source.words(f, upto=last) if w != ")"]    # a value's parentheses
        if set(written) <= _VISIBILITY and set(written) - {"public"} == set(flags):
            return written
        return flags

    def p_CardType(self, t: A.CardType, pad: str) -> list:
        head = f"card type {t.name}"
        if self.may_be_one_line(t):
            line = one_line(pad, head, [flat(self.field_decl(f)) for f in t.fields], "  ")
            if len(line) <= WIDTH:
                return [line]
        return self.braces(pad, [(head, t.fields)], t)

    def may_be_one_line(self, node) -> bool:
        """A card, card type or deck is printed on one line (if it fits) when it holds no comment
        and, printed from its source, the source wrote it on one line."""
        return not self.comments.has_within(node) and (self.source is None or self.source.one_line(node))

    def field_decl(self, f: A.FieldDecl) -> str:
        return f"{f.name}: {f.type}" + (f" = {self.x(f.default)}" if f.default is not None else "") + \
            (" hidden" if f.hidden else "")

    def p_FieldDecl(self, f: A.FieldDecl, pad: str) -> list:
        return fit(pad, self.field_decl(f))

    def p_CardDefinition(self, c: A.CardDefinition, pad: str) -> list:
        """Fields side by side while they fit (printed from the source, only those it wrote on one
        line), abilities as blocks, in their source order."""
        # 'card TYPE copies N': a type may be named 'copies'
        copies = c.copies != 1 or (self.source is not None and "copies" in self.head_words(c)[2:])
        head = f"card {self.string(c, c.title, True)} {c.type}" + (f" copies {c.copies}" if copies else "")
        card_items = items(c)
        if not c.abilities and self.may_be_one_line(c):
            line = one_line(pad, head, [flat(self.card_field(f)) for f in card_items])
            if len(line) <= WIDTH:
                return [line]
        inner, lines, run, previous = pad + INDENT, [], False, None
        for item in card_items:
            blank = previous is not None and self.blank_between(previous, item)
            rendered = self.render(item, inner)
            together = self.source is None or (previous is not None and previous.span.end_line == item.span.line)
            if (run and not blank and together and isinstance(item, A.CardField) and len(rendered) == 1
                    and len(lines[-1][-1]) + 1 + len(rendered[0].lstrip()) <= WIDTH):
                lines[-1][-1] = joined(lines[-1][-1], rendered[0])
            else:
                lines.append([""] * blank + rendered)
            run = isinstance(item, A.CardField) and len(rendered) == 1 and not isinstance(lines[-1][-1], Trailed)
            previous = item
        return self.braces(pad, [(head, [line for item in align(lines) for line in item])], c)

    def head_words(self, node) -> list:
        """The words of a node's source before its first '{'."""
        words = self.source.words(node)
        return words[:words.index("{")] if "{" in words else words

    def card_field(self, f: A.CardField) -> str:
        return f"{f.name} {self.x(f.value)}"

    def p_CardField(self, f: A.CardField, pad: str) -> list:
        return fit(pad, self.card_field(f))

    def p_Ability(self, a: A.Ability, pad: str) -> list:
        head = f"ability {self.string(a, a.name, True)}" + \
            (f" {quote(a.kind)}" if a.kind else "")       # short only, in the grammar
        if a.event is not None:
            head += f" when {self.event(a.event, len(pad + head))}"
        return self.braces(pad, [(head, a.body)], a)

    def p_Dice(self, d: A.Dice, pad: str) -> list:
        return fit(pad, f"dice {d.name} {{ faces {_COMMA.join(d.faces)} }}")

    def p_Deck(self, d: A.Deck, pad: str) -> list:
        parts = self.parts.get(id(d))
        entries = [self.deck_entry(e) for e in parts] if parts is not None else \
            [f"{count} {quote(title)}" for count, title in d.entries]
        if self.may_be_one_line(d):
            line = one_line(pad, f"deck {d.name}", entries)
            if len(line) <= WIDTH:
                return [line]
        if parts:
            return self.braces(pad, [(f"deck {d.name}", parts)], d)
        return self.braces(pad, [(f"deck {d.name}", [pad + INDENT + e for e in entries])], d)

    def deck_entry(self, e: DeckEntry) -> str:
        return f"{e.count} {self.string(e, e.title)}"

    def p_DeckEntry(self, e: DeckEntry, pad: str) -> list:
        return fit(pad, self.deck_entry(e))

    def p_BoardDrawing(self, b: A.BoardDrawing, pad: str) -> list:
        head = f"board {b.name} "
        literal = self.source.literal(b) if self.source else None
        if literal and unquote_lines(literal) == b.drawing:
            return (pad + head + literal).split("\n")         # a drawing as its author drew it
        return board_text(b.drawing, pad, head) or [pad + head + quote(b.drawing)]

    def p_Rule(self, r: A.Rule, pad: str) -> list:
        head = f"rule {r.id} {self.string(r, r.title, True)}" + (" outside source" if r.outside else "")
        return self.braces(pad, [(head, items(r))], r)

    def p_Doc(self, d: A.Doc, pad: str) -> list:
        short = f"{pad}{d.kind} {quote(d.text)}"
        literal = self.source.literal(d) if self.source else None
        if literal and literal.startswith('"""'):
            return as_written(literal, pad, d.kind + " ", unquote, d.text)
        if literal:
            return [short]
        if len(short) > WIDTH or "\n\n" in d.text:
            return long_text(d.text, pad, d.kind + " ") or [short]
        return [short]

    def p_Erratum(self, e: A.Erratum, pad: str) -> list:
        on = f" on {e.rule}" if e.rule and not pad else ""
        return fit(pad, f"erratum {e.source} {self.string(e, e.version)}{on} replaces "
                        f"{self.string(e, e.old)}{mark(STATEMENT)}with {self.string(e, e.new)}")

    def p_Action(self, a: A.Action, pad: str) -> list:
        head = f"action {a.name} {self.string(a, a.label, True)} by {a.actor}"
        if a.params:
            head += mark(STATEMENT) + "(" + _COMMA.join(self.param(p) for p in a.params) + ")"
        if a.cite:
            head += f" cite {a.cite}"
        return self.braces(pad, [(head, a.body)], a)

    def param(self, p: A.Param) -> str:
        return f"{p.name}: {p.type}" + (f" from {self.x(p.domain)}" if p.domain is not None else "")

    def p_Value(self, v: A.Value, pad: str) -> list:
        head = f"value {v.name}{names(v.params)} ="
        head = head if len(pad + flat(head)) > WIDTH else flat(head)      # its own line too long: breaks
        return fit(pad, f"{head} {self.x(v.body)}")

    def p_Trigger(self, t: A.Trigger, pad: str) -> list:
        return self.braces(pad, [(f"when {self.event(t.event, len(pad))}{self.over(t)}", t.body)], t)

    def p_Check(self, c: A.Check, pad: str) -> list:
        return self.braces(pad, [(f"whenever {self.x(c.condition)}{self.over(c)}", c.body)], c)

    def over(self, node) -> str:
        return f"{mark(STATEMENT)}for {node.var} in {self.x(node.iterable)}" if node.var else ""

    def p_Flow(self, f: A.Flow, pad: str) -> list:
        return self.braces(pad, [("flow", f.body)], f)

    def event(self, e: A.Event, column: int = 0) -> str:
        """An event, after ``column`` columns of its line: its parameters break only if its line
        (to the '{') would be too long with them on it."""
        if e.kind == "named":
            event = e.name + names(e.params)
            return event if column + len(" when ") + len(flat(event)) + 2 > WIDTH else flat(event)
        return f"{e.kind} {milestone(e.milestone, e.name)}"

    # -- statements
    def p_Let(self, s: A.Let, pad: str) -> list:
        return fit(pad, f"let {s.var} = {self.x(s.value)}")

    def p_Set(self, s: A.Set, pad: str) -> list:
        if s.value is None:
            return fit(pad, f"clear {self.p(s.target)}")
        return fit(pad, f"set {self.p(s.target)} = {self.x(s.value)}")

    def p_Change(self, s: A.Change, pad: str) -> list:
        word = "increase" if s.sign > 0 else "decrease"
        return fit(pad, f"{word} {self.p(s.target)} by {self.x(s.amount)}")

    def p_Transfer(self, s: A.Transfer, pad: str) -> list:
        return fit(pad, f"transfer {self.x(s.amount)} from {self.p(s.source)} to {self.p(s.destination)}")

    def p_Move(self, s: A.Move, pad: str) -> list:
        written = self.source is not None and "at" in self.source.words(s, upto=s.destination)
        place = f" at {s.place}" if s.place != "top" or written else ""
        return fit(pad, f"move {self.x(s.cards)} to {self.p(s.destination)}{place}")

    def p_Draw(self, s: A.Draw, pad: str) -> list:
        return fit(pad, f"draw {self.x(s.amount)} from {self.p(s.source)} to {self.p(s.destination)}")

    def p_Create(self, s: A.Create, pad: str) -> list:
        return fit(pad, f"create {self.x(s.cards)} into {self.p(s.destination)}")

    def p_Shuffle(self, s: A.Shuffle, pad: str) -> list:
        return fit(pad, f"shuffle {self.p(s.zone)}")

    def p_Reveal(self, s: A.Reveal, pad: str) -> list:
        return fit(pad, f"reveal {self.x(s.cards)}")

    def p_Conceal(self, s: A.Conceal, pad: str) -> list:
        return fit(pad, f"conceal {self.x(s.cards)}")

    def p_Emit(self, s: A.Emit, pad: str) -> list:
        return fit(pad, f"emit {self.call(s.event, s.args)}")

    def p_Milestone(self, s: A.Milestone, pad: str) -> list:
        return fit(pad, f"{s.edge} {milestone(s.kind, s.name)}")

    def p_If(self, s: A.If, pad: str) -> list:
        segments = [(("if " if i == 0 else "else if ") + self.x(c), body) for i, (c, body) in enumerate(s.branches)]
        if s.otherwise:
            segments.append(("else", s.otherwise))
        return self.braces(pad, segments, s)

    def p_ForEach(self, s: A.ForEach, pad: str) -> list:
        head = ("simultaneously " if s.simultaneous else "") + f"for each {s.var} in {self.x(s.iterable)}"
        return self.braces(pad, [(head, s.body)], s)

    def p_Repeat(self, s: A.Repeat, pad: str) -> list:
        until = f" until {self.x(s.until)}" if s.until is not None else ""
        return self.braces(pad, [("repeat", s.body)], s, until)

    def p_While(self, s: A.While, pad: str) -> list:
        return self.braces(pad, [(f"while {self.x(s.condition)}", s.body)], s)

    def p_Goto(self, s: A.Goto, pad: str) -> list:
        return fit(pad, f"{s.word} to {s.target}")

    def p_Skip(self, s: A.Skip, pad: str) -> list:
        return fit(pad, "skip this step")

    def p_Run(self, s: A.Run, pad: str) -> list:
        return fit(pad, f"run {s.target}")

    def p_Choose(self, s: A.Choose, pad: str) -> list:
        hidden = " hidden" if s.hidden else ""
        return fit(pad, f"{self.p(s.chooser)} chooses {s.var} from {self.x(s.options)}{hidden}{self.prompt(s.prompt, s)}")

    def p_ChooseNumber(self, s: A.ChooseNumber, pad: str) -> list:
        return fit(pad, f"{self.p(s.chooser)} chooses number {s.var} from {self.x(s.low)} to {self.x(s.high)}"
                        f"{self.prompt(s.prompt, s)}")

    def p_Order(self, s: A.Order, pad: str) -> list:
        return fit(pad, f"{self.p(s.chooser)} orders {s.var} from {self.x(s.options)}{self.prompt(s.prompt, s)}")

    def p_May(self, s: A.May, pad: str) -> list:
        segments = [(f"{self.p(s.chooser)} may {self.string(s, s.prompt, True)}", s.body)]
        if s.otherwise:
            segments.append(("else", s.otherwise))
        return self.braces(pad, segments, s)

    def p_Pick(self, s: A.Pick, pad: str) -> list:
        return fit(pad, f"pick {s.var} at random from {self.x(s.options)}")

    def p_Roll(self, s: A.Roll, pad: str) -> list:
        return fit(pad, f"roll {self.x(s.count)} {s.dice} dice as {s.var}")

    def p_Window(self, s: A.Window, pad: str) -> list:
        name = self.string(s, s.name, True)
        return self.menu_block(pad, f"window {name} starting with {self.x(s.starting)}", s)

    def p_Turn(self, s: A.Turn, pad: str) -> list:
        return self.menu_block(pad, f"turn of {self.x(s.player)}", s)

    def menu_block(self, pad: str, head: str, node) -> list:
        """A menu on one line if it fits (printed from the source, if the source wrote it on one);
        else one part per line, each after the first opening with 'then', as a block: each part
        with its comments, as a deck's entries."""
        if self.source is None or self.source.one_line(node):
            parts = menu(node.menu, self.source)
            line = f"{pad}{flat(head)} {{ {' then '.join(flat(p) for p in parts)} }}"
            if len(line) <= WIDTH and "\n" not in line:
                return [line]
        self.then.update(id(m) for m in node.menu[1:])
        return self.braces(pad, [(head, list(node.menu))], node)

    def p_MenuPart(self, m: A.MenuPart, pad: str) -> list:
        return fit(pad, ("then " if id(m) in self.then else "") + menu([m], self.source)[0])

    def p_InAnyOrder(self, m: A.InAnyOrder, pad: str) -> list:
        return fit(pad, ("then " if id(m) in self.then else "") + menu([m], self.source)[0])

    def p_Perform(self, s: A.Perform, pad: str) -> list:
        return fit(pad, f"perform {self.call(s.action, s.args)} by {self.x(s.actor)}")

    def p_Initiate(self, s: A.Initiate, pad: str) -> list:
        ordered = f"{mark(STATEMENT)}ordered by {self.x(s.ordered_by)}" if s.ordered_by is not None else ""
        return fit(pad, f"initiate {self.string(s, s.ability)} abilities of {self.x(s.cards)}{ordered}")

    def p_Require(self, s: A.Require, pad: str) -> list:
        return fit(pad, f"require {self.x(s.condition)}{mark(STATEMENT)}cite {s.cite}{mark(STATEMENT)}"
                        f"{self.string(s, s.message)}")

    def p_Modify(self, s: A.Modify, pad: str) -> list:
        d = s.duration
        duration = f"{_DURATIONS[d.kind]} {milestone(d.milestone, d.name)}"
        cite = f"{mark(STATEMENT)}cite {s.cite}" if s.cite else ""
        return fit(pad, f"modify {self.p(s.target)} {s.op} {self.x(s.value)}{mark(STATEMENT)}{duration}{cite}")

    def p_Win(self, s: A.Win, pad: str) -> list:
        return fit(pad, f"win {self.x(s.players)}")

    def p_Eliminate(self, s: A.Eliminate, pad: str) -> list:
        return fit(pad, f"eliminate {self.x(s.players)}")

    def p_Log(self, s: A.Log, pad: str) -> list:
        return fit(pad, f"log {self.string(s, s.message)}")


def one_line(pad: str, head: str, words, gap: str = " ") -> str:
    """An item on one line ('\n' in it, for a long string written on several: too long to be one)."""
    line = f"{pad}{head} {{ {gap.join(words)} }}" if words else f"{pad}{head} {{}}"
    return line if "\n" not in line else line + " " * WIDTH


def _says_players(words: list) -> bool:
    """Whether a game header's words hold 'players N to M'."""
    return any(word == "players" and i + 2 < len(words) and words[i + 1].isdigit() and words[i + 2] == "to"
               for i, word in enumerate(words))


def formats(items) -> str:
    """A ``formats`` line: (name, fewest, most) for each format, fewest None when not given."""
    def one(name, low, high):
        if low is None:
            return name
        if low == high:
            return f"{name} for {low} player{'s' if low != 1 else ''}"
        return f"{name} for {low} to {high} players"
    return "formats " + mark(FILL).join(one(*item) for item in items)


def names(params) -> str:
    """``(a, b)``: a value's or an event's parameters, which may break as a call's arguments."""
    return "(" + mark(FILL, tight=True) + _COMMA.join(params) + ")" if params else ""


def milestone(kind: str, name: str) -> str:
    return f"phase {name}" if kind == "phase" else kind


def menu(menu_parts, source: Authored | None = None) -> list:
    """A menu's parts (those joined by 'and' as one); 'exactly one' where the source wrote it."""
    def part(m: A.MenuPart) -> str:
        count = _COUNTS.get(m.count) or (f"up to {m.n}" if m.count == "up-to" else str(m.n))
        if m.count == "one" and source is not None and source.words(m)[:1] == ["exactly"]:
            count = "exactly one"
        return f"{count} of {_COMMA.join(m.actions)}" + (" repeats allowed" if m.repeats else "")

    def step(m) -> str:
        return " and ".join(part(p) for p in m.parts) if isinstance(m, A.InAnyOrder) else part(m)
    return [step(m) for m in menu_parts]


def _level(e) -> int:
    kind = type(e)
    if kind is A.Binary:
        return _BINARY.get(e.op, _COMPARISON)[0]
    if kind is A.Unary:
        return NOT if e.op == "not" else UNARY
    if kind is A.IsNone:
        return CMP
    if kind in (A.IfExpr, A.Quantified):
        return EXPR
    if kind in (A.Attr, A.Index):
        return POSTFIX
    return ATOM
