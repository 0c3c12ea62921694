"""Compile: AST expressions and blocks of statements in, Python callables out, built once per game.

An expression becomes ``fn(frame) -> value``; a block of statements ``run(frame) -> None``, written
as the source of one Python function (``statements.py``), whose statements call what
``runtime/operations.py`` holds for the work not written in place. Every statement runs under a guard
that turns a wrong kind of value (a card where a number is needed, an empty choice) into a positioned
error naming the rule, never a Python traceback.

Where it gains, Python source is written instead of closures for expressions too, with the closures'
exact meaning: expressions, named values and a play's requirements and legal plays
(``expressions.py``).
"""

from __future__ import annotations

import operator

from ..diagnostics import Diagnostic, SourceError
from ..parse import ast as A
from ..runtime.builtins import BUILTINS, CONSTANTS
from ..runtime.operations import as_list
from ..runtime.state import Card, Player, Zone, words
from .expressions import ExpressionWriter
from .reads import watched
from .statements import BlockWriter

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


#: what a variable the frame did not hold is saved as, to be taken away again afterwards
_MISSING = object()


class Compiler:
    """Compiles one game's rules once; the closures it makes serve every game of it played, each
    reading the game in play from its frame (``f.game``)."""

    def __init__(self, gamedef):
        self.gamedef = gamedef
        self._abilities: dict = {}
        #: the game's counters, supplies, roles and flags (``field``) and zones (``zone``), by name
        self._game_names = {f.name: "zone" if f.kind in ("zone", "row") else "field"
                            for f in gamedef.fields.values() if f.scope != "player"}
        #: the triggers listening to each event, by ``(kind, milestone, name)``: a list for each event
        #: some trigger listens to, filled as ``Program`` compiles the triggers (``Program.triggers``).
        #: The lists are made first, so that the closure of a milestone or event holds its own (None
        #: when no trigger listens) and looks for none as it runs
        self.triggers: dict[tuple, list] = {}
        for t in gamedef.triggers:
            self.triggers.setdefault((t.event.kind, t.event.milestone, t.event.name), [])
        self.writer = ExpressionWriter(self)
        self.blocks = BlockWriter(self)

    def note_variables(self, names):
        """Names that frames may hold as variables beyond those the rules bind (a scenario's or log's
        frame names its players), for the expressions and blocks compiled from now on: a name that
        may be a variable is never taken to be the game's zone or constant so named."""
        self.writer.bound.update(names)

    # ================================================================ expressions
    def expr(self, x):
        """``fn(frame) -> value``: written as Python source where that gains (``codegen.py``),
        otherwise a closure per node."""
        written = self.writer.compile(x)
        return written if written is not None else self.closure(x)

    def closure(self, x):
        return getattr(self, "e_" + type(x).__name__)(x)

    def e_Number(self, x):
        v = x.value
        return lambda f: v

    def e_Text(self, x):
        v = x.value
        return lambda f: v

    def e_Constant(self, x):
        v = x.value
        return lambda f: v

    def e_This(self, x):
        return lambda f: f.this

    def e_Name(self, x):
        n, outside = x.name, self.global_name(x)

        def name(f):
            vars = f.vars
            if n in vars:
                return vars[n]
            return outside(f)
        return name

    def global_kind(self, n: str):
        """What a name that is not a variable reads, known from the rules alone: ``field`` (a game
        counter, supply, role or flag), ``zone`` (a game zone or row), ``value``, ``constant``,
        ``board``, ``deck``, or None (nothing: an error when read). The state's game fields and zones
        are the schema's, made once at set-up; the first kind in this order wins."""
        g = self.gamedef
        declared = self._game_names.get(n)
        if declared is not None:
            return declared
        if n in g.values:
            return "value"
        if n in CONSTANTS:
            return "constant"
        if n in g.boards:
            return "board"
        if n in g.decks:
            return "deck"
        return None

    def global_name(self, x):
        """``fn(frame)`` reading a name that is not a variable: a game counter, supply, role or flag
        (with its modifiers), a game zone, a value, a constant, a board or a deck list."""
        n = x.name
        kind = self.global_kind(n)
        if kind == "field":
            key = ("field", n)

            def field(f):
                game = f.game
                value = game.state.fields[n]
                return game.apply_modifiers(key, value) if n in game.modified else value
            return field
        if kind == "zone":
            return lambda f: f.game.state.zones[n]
        if kind == "value":
            named = self.writer.value(self.gamedef.values[n])
            return lambda f: named(f)
        if kind == "constant":
            fn = CONSTANTS[n].fn
            return lambda f: fn(f.game)
        if kind == "board":
            return lambda f: f.game.boards[n]
        if kind == "deck":
            deck = self.gamedef.decks[n]
            return lambda f: deck

        def nothing(f):
            raise f.game.error(f"'{n}' has no value here", f.rule, x.span)
        return nothing

    def e_Attr(self, x):
        subject, read = self.expr(x.subject), self.attribute_reader(x.name, x.span)
        return lambda f: read(subject(f), f)

    @staticmethod
    def attribute_reader(n: str, span):
        """``read(obj, frame)``: attribute ``n`` of a card (its definition's, or title, type, owner,
        zone, face-up) or of a player (counter, flag, zone, name, seat, eliminated), with the
        modifiers in force applied."""
        def read(obj, f):
            if type(obj) is Card:
                attrs = obj.attrs
                if n in attrs:
                    game = f.game
                    return game.apply_modifiers(("attr", obj.id, n), attrs[n]) if n in game.modified else attrs[n]
                if n == "title":
                    return obj.title
                if n == "type":
                    return obj.type
                if n == "owner":
                    return obj.owner
                if n == "zone":
                    return obj.zone
                if n == "face-up":
                    return obj.face_up
                return None
            if type(obj) is Player:
                if n in obj.fields:
                    game = f.game
                    value = obj.fields[n]
                    return game.apply_modifiers(("attr", obj.name, n), value) if n in game.modified else value
                if n in obj.zones:
                    return obj.zones[n]
                if n == "name":
                    return obj.name
                if n == "seat":
                    return obj.seat + 1
                if n == "eliminated":
                    return obj.eliminated
            raise f.game.error(f"{words(obj)} has no '{n}'", f.rule, span)
        return read

    def e_Index(self, x):
        subject, index = self.expr(x.subject), self.expr(x.index)

        def item(f):
            game = f.game
            xs = as_list(subject(f))
            i = index(f)
            if not isinstance(i, int) or not 0 <= i < len(xs):
                raise game.error(f"there is no item {words(i)} in a list of {len(xs)}", f.rule, x.span)
            return xs[i]
        return item

    def e_Call(self, x):
        args = [self.expr(a) for a in x.args]
        b = BUILTINS.get(x.name)
        if b is not None:
            fn = b.fn
            if len(args) == 0:
                return lambda f: fn(f.game)
            if len(args) == 1:
                a0 = args[0]
                return lambda f: fn(f.game, a0(f))
            if len(args) == 2:
                a0, a1 = args
                return lambda f: fn(f.game, a0(f), a1(f))
            return lambda f: fn(f.game, *[a(f) for a in args])
        value = self.writer.value(self.named_value(x))
        return lambda f: value(f, *[a(f) for a in args])

    def named_value(self, x: A.Call) -> A.Value:
        """The value a call names. The static checks refuse an unknown one; rules compiled without them
        (through the API) get the same error here, not a KeyError."""
        v = self.gamedef.values.get(x.name)
        if v is None:
            raise SourceError([Diagnostic("static", "S065", f"unknown built-in or value '{x.name}'", x.span)])
        return v

    def e_ListExpr(self, x):
        items = [self.expr(i) for i in x.items]
        return lambda f: [i(f) for i in items]

    def e_Unary(self, x):
        operand = self.expr(x.operand)
        if x.op == "-":
            return lambda f: -operand(f)
        return lambda f: not operand(f)

    def e_Binary(self, x):
        left, right = self.expr(x.left), self.expr(x.right)
        op = x.op
        if op == "and":
            return lambda f: bool(left(f)) and bool(right(f))
        if op == "or":
            return lambda f: bool(left(f)) or bool(right(f))
        if op in ("in", "not in"):
            negate = op == "not in"

            def member(f):
                item, pool = left(f), right(f)
                if type(pool) is Zone:
                    found = item.zone is pool if type(item) is Card else False
                elif isinstance(pool, (list, tuple)):
                    found = item in pool
                else:
                    found = item in as_list(pool)
                return found is not negate
            return member
        if op in _COMPARE:
            fn = _COMPARE[op]
            return lambda f: fn(left(f), right(f))
        fn = _ARITH[op]

        def arith(f):
            game = f.game
            a, b = left(f), right(f)
            if op in ("/", "%") and b == 0:
                raise game.error("division by zero: the divisor is 0", f.rule, x.right.span)
            return fn(a, b)
        return arith

    def e_IsNone(self, x):
        subject = self.expr(x.subject)
        if x.negated:
            return lambda f: subject(f) is not None
        return lambda f: subject(f) is None

    def e_IfExpr(self, x):
        c, t, o = self.expr(x.condition), self.expr(x.then), self.expr(x.otherwise)
        return lambda f: t(f) if c(f) else o(f)

    def e_Quantified(self, x):
        iterable, body, var, kind = self.expr(x.iterable), self.expr(x.body), x.var, x.kind

        def quantified(f):
            items = as_list(iterable(f))
            saved = f.vars.get(var, _MISSING)
            try:
                results = []
                for item in items:
                    f.vars[var] = item
                    value = body(f)
                    results.append((item, value if kind == "total" else bool(value)))
            finally:
                if saved is _MISSING:
                    f.vars.pop(var, None)
                else:
                    f.vars[var] = saved
            if kind == "every":
                return all(r for _, r in results)
            if kind == "any":
                return any(r for _, r in results)
            if kind == "count":
                return sum(1 for _, r in results if r)
            if kind == "total":
                return sum(v for _, v in results)
            return [i for i, r in results if r]
        return quantified

    def e_Ranked(self, x):
        iterable, key, var, kind = self.expr(x.iterable), self.expr(x.key), x.var, x.kind

        def ranked(f):
            items = as_list(iterable(f))
            saved = f.vars.get(var, _MISSING)
            scored = []
            try:
                for item in items:
                    f.vars[var] = item
                    scored.append((key(f), item))
            finally:
                if saved is _MISSING:
                    f.vars.pop(var, None)
                else:
                    f.vars[var] = saved
            if not scored:
                return []
            best = max(s for s, _ in scored) if kind == "highest" else min(s for s, _ in scored)
            return [i for s, i in scored if s == best]
        return ranked

    # ================================================================ statements
    def block(self, body, held=None, jumps=False):
        """``run(frame)`` for a block of statements, written as one function (``statements.py``);
        ``held``: the variables the frame is sure to hold as it starts, and what each is sure to be;
        ``jumps``: it is a rule's procedure, which may return a jump (``BlockWriter.block``)."""
        return self.blocks.block(body, held, jumps)

    def watches(self, *names) -> bool:
        """Whether a state check reads one of these names (a write counts in ``Game.watched_writes``)."""
        names_read = watched(self)
        return names_read is not None and any(n in names_read for n in names)

    def ability_body(self, ability):
        """A card ability's body as a block, compiled when it is first initiated, not as the statement
        that initiates it is written (an ability may initiate abilities itself): one for every
        ``initiate`` (``statements._Initiated``)."""
        body = self._abilities.get(id(ability))
        if body is None:
            body = self._abilities[id(ability)] = self.block(ability.body)
        return body
