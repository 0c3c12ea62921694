"""Format: rules source text (or an AST ``Module``) in, the same rules in canonical layout out.

``format_source(text, path)`` parses (a ``SourceError`` propagates to the caller) and prints, keeping
the ``#`` comments (placed by ``comments.py``); ``format_module(module)`` prints any AST, without
comments. Parsing the output gives an equal AST, and formatting the output again changes nothing.

The canonical layout: two-space indents, one statement per line, ``{`` on the line that opens the
block, a blank line between top-level items (inside a block, one blank line is kept where the source
had any). A ``text``, ``note`` or ``example`` too long for a line of 100 columns, or of several
paragraphs, is a ``\"\"\"long string\"\"\"`` wrapped at 100 columns (the parser joins its lines
into paragraphs, so wrapping changes nothing); other text is ``"quoted"`` with ``\\"`` and ``\\\\``
escapes. A statement longer than 100 columns breaks before its message or prompt, then between the
items of a list or call, then before ``else``, ``or`` and ``and`` (layout.py). Expressions get the
fewest parentheses that keep their tree (precedence as in ``grammar/common.lark``). The items of a
rule and of a card keep their source order; defaults are left out (``copies 1``, ``at top``, a
role's ``game`` scope) and so are words the AST does not keep (``public``, ``exactly``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from . import ast as A
from . import syntax
from .comments import Placement, place
from .layout import (AND, ELSE, FILL, INDENT, OR, STATEMENT, WIDTH, board_text, fit, flat, long_text,
                     mark, quote)

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


def format_source(text: str, path: str = "<string>") -> str:
    """The canonical form of a rules file's text, comments kept (a byte-order mark is not text)."""
    text = text.removeprefix("\ufeff")      # as the parser does, so its positions fit this text
    module = syntax.parse_rules(text, path)
    return Printer(place(text, module, blocks)).module(module)


def format_module(module: A.Module) -> str:
    """The canonical form of a parsed (or built) module."""
    return Printer().module(module)


# ------------------------------------------------------------------ structure


def _in_source_order(nodes) -> list:
    """Nodes by position in their file; nodes without one keep their order (the sort is stable)."""
    return sorted(nodes, key=lambda n: (getattr(n.span, "line", 0), getattr(n.span, "column", 0)))


def items(node) -> list:
    """A rule's or a card's items in print order: their source order."""
    if isinstance(node, A.Card):
        return _in_source_order(node.fields + node.abilities)
    return _in_source_order(node.docs + node.errata + node.actions + node.values + node.triggers
                            + node.checks + node.body)


def blocks(node):
    """What a node's blocks hold, in print order (for placing comments); None for a node printed
    whole. A rule's and a card's items are in one block, an if's branches each in its own."""
    if isinstance(node, A.Module):
        return [list(node.items)]
    if isinstance(node, A.Game):
        return [list(node.sources)]
    if isinstance(node, (A.State, A.CardType)):
        return [list(node.fields)]
    if isinstance(node, (A.Card, A.Rule)):
        return [items(node)]
    if isinstance(node, A.Deck):
        return [[]]
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


class _Paren:
    """An expression to print in parentheses whatever its level (see ``Printer.guarded``)."""
    __slots__ = ("expr",)

    def __init__(self, expr):
        self.expr = expr


class _Forced(str):
    """An empty prompt to print as ``""`` (see ``Printer.guarded``)."""


# ------------------------------------------------------------------ the printer


class Printer:
    """Prints a module as lines; comments come from a ``Placement`` (none for a built AST)."""

    def __init__(self, comments: Placement | None = None):
        self.comments = comments or Placement()
        self.original = {}         # id() of a guarded copy of a node -> the node (for its comments)

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
        """Statements (or other items) one per line, a blank line kept where the source had one.
        Each is printed knowing how the next begins (so, last first): see ``guarded``."""
        nodes = list(nodes)
        blanks = [i > 0 and self.comments.blank_between(nodes[i - 1], n) for i, n in enumerate(nodes)]
        rendered, following = [None] * len(nodes), ""
        for i in reversed(range(len(nodes))):
            rendered[i] = self.node(self.guarded(nodes[i], following), pad)
            following = rendered[i][0].lstrip()[:1]
        out = []
        for i, n in enumerate(nodes):
            out += [""] * blanks[i] + self.comments_before(n, pad) + rendered[i]
        return out

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
        (head, lines), each with the comments that close it."""
        inner = pad + INDENT
        bodies = [(body if body and isinstance(body[0], str) else self.block(body, inner))
                  + [inner + c for c in self.comments.take_end(self.original.get(id(owner), owner), i)]
                  for i, (_, body) in enumerate(segments)]
        if not any(bodies):
            return fit(pad, " ".join(f"{head} {{}}" for head, _ in segments) + after)
        lines = []
        for i, ((head, _), body) in enumerate(zip(segments, bodies)):
            lines += fit(pad, (head if i == 0 else "} " + head) + " {")
            lines += body
        return lines + fit(pad, "}" + after)

    # -- expressions
    def x(self, e, need: int = EXPR, follow=None) -> str:
        """An expression where the grammar wants level ``need``; ``follow`` is the level of the
        operator printed right after it (None for a keyword or a closing bracket). A quantifier's
        condition, a conditional's else part and a ranking's key run on to the right: followed by an
        operator they would take it, so they get parentheses."""
        swallows = follow is not None and (isinstance(e, (A.Quantified, A.IfExpr))
                                           or (isinstance(e, A.Ranked) and follow >= SUM))
        if isinstance(e, _Paren) or _level(e) < need or swallows:
            return "(" + self._x(getattr(e, "expr", e), None) + ")"
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
            space = mark(_BREAKS[e.op]) if e.op in _BREAKS else " "
            return f"{self.x(e.left, left, level)}{space}{e.op} {self.x(e.right, right, follow)}"
        if kind is A.IsNone:
            return self.x(e.subject, SUM, CMP) + (" is not none" if e.negated else " is none")
        if kind is A.IfExpr:
            return (f"if {self.x(e.condition)} then {self.x(e.then)}{mark(ELSE)}"
                    f"else {self.x(e.otherwise, EXPR, follow)}")
        if kind is A.Quantified:
            return f"{e.kind} {e.var} in {self.x(e.iterable, SUM)}: {self.x(e.body, EXPR, follow)}"
        if kind is A.Ranked:
            return f"{e.kind} {e.var} in {self.x(e.iterable, SUM)} by {self.x(e.key, SUM, follow)}"
        raise TypeError(f"the formatter does not know the expression {kind.__name__}")

    def xs(self, exprs) -> str:
        return _COMMA.join(self.x(e) for e in exprs)

    def p(self, e) -> str:
        """A postfix expression: a statement's target, zone or chooser."""
        return self.x(e, POSTFIX)

    def call(self, name: str, args) -> str:
        return f"{name}({self.xs(args)})" if args else name

    def prompt(self, text: str) -> str:
        return f"{mark(STATEMENT)}{quote(text)}" if text or isinstance(text, _Forced) else ""

    # -- top-level items
    def p_Game(self, g: A.Game, pad: str) -> list:
        inner = pad + INDENT
        lines = self.block(g.sources, inner) + fit(inner, f"players {g.min_players} to {g.max_players}")
        if g.formats:
            counts = {name: (low, high) for name, low, high in g.format_players}

            def one(name):
                low, high = counts.get(name, (None, None))
                if low is None:
                    return name
                if low == high:
                    return f"{name} for {low} player{'s' if low != 1 else ''}"
                return f"{name} for {low} to {high} players"
            lines += fit(inner, f"formats {' '.join(one(name) for name in g.formats)}")
        if g.excerpt_end:
            lines += fit(inner, f"excerpt ends after {g.excerpt_end}{mark(STATEMENT)}{quote(g.excerpt_note)}")
        return self.braces(pad, [(f"game {g.key} {quote(g.title)}", lines)], g)

    def p_Source(self, s: A.Source, pad: str) -> list:
        detail = f"{mark(STATEMENT)}{quote(s.detail)}" if s.detail else ""
        return fit(pad, f"source {s.key} {quote(s.title)} version {quote(s.version)}{detail}")

    def p_State(self, s: A.State, pad: str) -> list:
        return self.braces(pad, [("state", s.fields)], s)

    def p_StateField(self, f: A.StateField, pad: str) -> list:
        # 'game' is the default scope; a role (one player, or none) is written without it
        words = [f.kind, f.name] if (f.kind, f.scope) == ("role", "game") else [f.scope, f.kind, f.name]
        for word, value in (("=", f.initial), ("min", f.minimum), ("max", f.maximum)):
            if value is not None:
                words += [word, self.x(value)]
        words += ["hidden"] * f.hidden + ["ordered"] * f.ordered + ["in-play"] * getattr(f, "in_play", False)
        return fit(pad, " ".join(words))

    def p_CardType(self, t: A.CardType, pad: str) -> list:
        head = f"card type {t.name}"
        if not self.has_comments(t, t.fields):
            line = one_line(pad, head, [flat(self.field_decl(f)) for f in t.fields], "  ")
            if len(line) <= WIDTH:
                return [line]
        return self.braces(pad, [(head, t.fields)], t)

    def field_decl(self, f: A.FieldDecl) -> str:
        return f"{f.name}: {f.type}" + (f" = {self.x(f.default)}" if f.default is not None else "") + \
            (" hidden" if f.hidden else "")

    def p_FieldDecl(self, f: A.FieldDecl, pad: str) -> list:
        return fit(pad, self.field_decl(f))

    def p_Card(self, c: A.Card, pad: str) -> list:
        """Fields side by side while they fit, abilities as blocks, in their source order."""
        head = f"card {quote(c.title)} {c.type}" + (f" copies {c.copies}" if c.copies != 1 else "")
        card_items = items(c)
        if not c.abilities and not self.has_comments(c, card_items):
            line = one_line(pad, head, [flat(self.card_field(f)) for f in card_items])
            if len(line) <= WIDTH:
                return [line]
        inner, lines, run = pad + INDENT, [], False
        for item in card_items:
            comments = self.comments_before(item, inner)
            if isinstance(item, A.CardField):
                text = flat(self.card_field(item))
                if run and not comments and len(lines[-1]) + 1 + len(text) <= WIDTH:
                    lines[-1] += " " + text
                else:
                    fitted = fit(inner, self.card_field(item))
                    lines += comments + fitted
                    run = len(fitted) == 1
            else:
                lines += comments + self.node(item, inner)
                run = False
        return self.braces(pad, [(head, lines)], c)

    def card_field(self, f: A.CardField) -> str:
        return f"{f.name} {self.x(f.value)}"

    def p_Ability(self, a: A.Ability, pad: str) -> list:
        head = f"ability {quote(a.name)}" + (f" {quote(a.kind)}" if a.kind else "")
        if a.event is not None:
            head += f" when {self.event(a.event)}"
        return self.braces(pad, [(head, a.body)], a)

    def p_Dice(self, d: A.Dice, pad: str) -> list:
        return fit(pad, f"dice {d.name} {{ faces {_COMMA.join(d.faces)} }}")

    def p_Deck(self, d: A.Deck, pad: str) -> list:
        entries = [f"{count} {quote(title)}" for count, title in d.entries]
        if not self.has_comments(d, []):
            line = one_line(pad, f"deck {d.name}", entries)
            if len(line) <= WIDTH:
                return [line]
        return self.braces(pad, [(f"deck {d.name}", [pad + INDENT + e for e in entries])], d)

    def p_Board(self, b: A.Board, pad: str) -> list:
        head = f"board {b.name} "
        return board_text(b.drawing, pad, head) or [pad + head + quote(b.drawing)]

    def p_Rule(self, r: A.Rule, pad: str) -> list:
        head = f"rule {r.id} {quote(r.title)}" + (" outside source" if r.outside else "")
        return self.braces(pad, [(head, items(r))], r)

    def p_Doc(self, d: A.Doc, pad: str) -> list:
        short = f"{pad}{d.kind} {quote(d.text)}"
        if len(short) > WIDTH or "\n\n" in d.text:
            return long_text(d.text, pad, d.kind + " ") or [short]
        return [short]

    def p_Erratum(self, e: A.Erratum, pad: str) -> list:
        on = f" on {e.rule}" if e.rule and not pad else ""
        return fit(pad, f"erratum {e.source} {quote(e.version)}{on} replaces {quote(e.old)}"
                        f"{mark(STATEMENT)}with {quote(e.new)}")

    def p_Action(self, a: A.Action, pad: str) -> list:
        head = f"action {a.name} {quote(a.label)} by {a.actor}"
        if a.params:
            head += mark(STATEMENT) + "(" + _COMMA.join(self.param(p) for p in a.params) + ")"
        if a.cite:
            head += f" cite {a.cite}"
        return self.braces(pad, [(head, a.body)], a)

    def param(self, p: A.Param) -> str:
        return f"{p.name}: {p.type}" + (f" from {self.x(p.domain)}" if p.domain is not None else "")

    def p_Value(self, v: A.Value, pad: str) -> list:
        params = f"({', '.join(v.params)})" if v.params else ""
        return fit(pad, f"value {v.name}{params} = {self.x(v.body)}")

    def p_Trigger(self, t: A.Trigger, pad: str) -> list:
        return self.braces(pad, [(f"when {self.event(t.event)}{self.over(t)}", t.body)], t)

    def p_Check(self, c: A.Check, pad: str) -> list:
        return self.braces(pad, [(f"whenever {self.x(c.condition)}{self.over(c)}", c.body)], c)

    def over(self, node) -> str:
        return f"{mark(STATEMENT)}for {node.var} in {self.x(node.iterable)}" if node.var else ""

    def p_Flow(self, f: A.Flow, pad: str) -> list:
        return self.braces(pad, [("flow", f.body)], f)

    def event(self, e: A.Event) -> str:
        if e.kind == "named":
            return e.name + (f"({', '.join(e.params)})" if e.params else "")
        return f"{e.kind} {milestone(e.milestone, e.name)}"

    def has_comments(self, node, kids) -> bool:
        return self.comments.has_end(node) or any(self.comments.has_before(k) for k in kids)

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
        place = f" at {s.place}" if s.place != "top" else ""
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
        return fit(pad, f"{self.p(s.chooser)} chooses {s.var} from {self.x(s.options)}{hidden}{self.prompt(s.prompt)}")

    def p_ChooseNumber(self, s: A.ChooseNumber, pad: str) -> list:
        return fit(pad, f"{self.p(s.chooser)} chooses number {s.var} from {self.x(s.low)} to {self.x(s.high)}"
                        f"{self.prompt(s.prompt)}")

    def p_Order(self, s: A.Order, pad: str) -> list:
        return fit(pad, f"{self.p(s.chooser)} orders {s.var} from {self.x(s.options)}{self.prompt(s.prompt)}")

    def p_May(self, s: A.May, pad: str) -> list:
        segments = [(f"{self.p(s.chooser)} may {quote(s.prompt)}", s.body)]
        if s.otherwise:
            segments.append(("else", s.otherwise))
        return self.braces(pad, segments, s)

    def p_Pick(self, s: A.Pick, pad: str) -> list:
        return fit(pad, f"pick {s.var} at random from {self.x(s.options)}")

    def p_Roll(self, s: A.Roll, pad: str) -> list:
        return fit(pad, f"roll {self.x(s.count)} {s.dice} dice as {s.var}")

    def p_Window(self, s: A.Window, pad: str) -> list:
        return self.menu_block(pad, f"window {quote(s.name)} starting with {self.x(s.starting)}", s.menu)

    def p_Turn(self, s: A.Turn, pad: str) -> list:
        return self.menu_block(pad, f"turn of {self.x(s.player)}", s.menu)

    def menu_block(self, pad: str, head: str, menu_parts) -> list:
        line = f"{pad}{flat(head)} {{ {flat(menu(menu_parts))} }}"
        if len(line) <= WIDTH:
            return [line]
        return fit(pad, head + " {") + fit(pad + INDENT, menu(menu_parts)) + [pad + "}"]

    def p_Perform(self, s: A.Perform, pad: str) -> list:
        return fit(pad, f"perform {self.call(s.action, s.args)} by {self.x(s.actor)}")

    def p_Initiate(self, s: A.Initiate, pad: str) -> list:
        ordered = f"{mark(STATEMENT)}ordered by {self.x(s.ordered_by)}" if s.ordered_by is not None else ""
        return fit(pad, f"initiate {quote(s.ability)} abilities of {self.x(s.cards)}{ordered}")

    def p_Require(self, s: A.Require, pad: str) -> list:
        return fit(pad, f"require {self.x(s.condition)} cite {s.cite}{mark(STATEMENT)}{quote(s.message)}")

    def p_Modify(self, s: A.Modify, pad: str) -> list:
        d = s.duration
        duration = f"{_DURATIONS[d.kind]} {milestone(d.milestone, d.name)}"
        return fit(pad, f"modify {self.p(s.target)} {s.op} {self.x(s.value)}{mark(STATEMENT)}{duration}")

    def p_Win(self, s: A.Win, pad: str) -> list:
        return fit(pad, f"win {self.x(s.players)}")

    def p_Eliminate(self, s: A.Eliminate, pad: str) -> list:
        return fit(pad, f"eliminate {self.x(s.players)}")

    def p_Log(self, s: A.Log, pad: str) -> list:
        return fit(pad, f"log {quote(s.message)}")


def one_line(pad: str, head: str, words, gap: str = " ") -> str:
    return f"{pad}{head} {{ {gap.join(words)} }}" if words else f"{pad}{head} {{}}"


def milestone(kind: str, name: str) -> str:
    return f"phase {name}" if kind == "phase" else kind


def menu(menu_parts) -> str:
    def part(m: A.MenuPart) -> str:
        count = _COUNTS.get(m.count) or (f"up to {m.n}" if m.count == "up-to" else str(m.n))
        return f"{count} of {_COMMA.join(m.actions)}" + (" repeats allowed" if m.repeats else "")
    return mark(STATEMENT).join([part(m) + " then" for m in menu_parts[:-1]] + [part(menu_parts[-1])]) \
        if menu_parts else ""


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
