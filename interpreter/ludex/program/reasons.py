"""Reasons: the expressions an event's outcome rests on in, the facts a judge reads under the event out.

A statement whose outcome rests on values (the player a window starts with, the value a ``set`` gives, the
players a ``win`` names, the condition of the ``if`` around it) holds a ``Because``: built from the
statement's expressions as the rules are written, it is called as the event is recorded, only when the
game keeps reasons (``Game.reasons``), and gives the facts in order, each a dict:

    {"kind": "value", "rule": "500.1c", "name": "first-turn-player", "value": "dana",
     "text": "first-turn-player is dana (500.1c)"}

Kinds: ``value`` (a named value read, with the rule defining it; the values its body read follow it),
``modifier`` (a modifier in force on it: its rule, the card and player that made it and the round);
a value of no parameters is followed into its body, two values deep,
``read`` (a counter, role, flag or attribute read), ``let`` (a variable of the procedure, then the facts
of its definition), ``ranked`` (``highest p in players by initiative(p)``: each item's key),
``comparison`` (``power 3 < 7``: both operands, and whether it holds) and ``condition`` (whether an
``if``'s condition held). Every value comes from the same compiled expressions the rules run
(``ExpressionWriter.compile``), worked out again as the event is recorded: expressions change nothing.
Nothing that is hidden is told: a fact reading a variable a hidden choice set, or a hidden attribute, is
left out, and a card in a hidden zone is "a card".
"""

from __future__ import annotations

from ..fmt.layout import flat
from ..fmt.rules import Printer
from ..parse import ast as A
from ..runtime.records import Frame
from ..runtime.state import Card, words

#: The facts one event carries at most, and how deep the values read inside values are followed.
MOST_FACTS = 8
DEEPEST = 2

_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def source(x) -> str:
    """An expression as the rules write it (the formatter's one way of printing it)."""
    return flat(Printer().x(x))


def shown(value) -> str:
    """A value in the trace's words, a card lying face down in a hidden zone as ``a card``, a text in
    quotes (as the rules write it: ``c.power is "free action"``)."""
    if type(value) is str:
        return repr(value) if "'" in value and '"' not in value else '"' + value.replace('"', '\\"') + '"'
    if type(value) is Card and value.zone is not None and value.zone.hidden and not value.face_up:
        return "a card"
    if isinstance(value, (list, tuple)) and any(type(v) is Card for v in value):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    return words(value)


class Because:
    """The facts behind one statement's outcome, from its expressions (``deciding``), the conditions
    of the ``if`` branches it sits in (``held``: each condition and whether it held for this branch)
    and the ``let`` statements of its procedure before it (``lets``: name -> expression). Built as the
    rules are written; its probes are compiled on its first call."""

    __slots__ = ("reasons", "deciding", "held", "lets", "probes")

    def __init__(self, reasons: "Reasons", deciding, held, lets: dict):
        self.reasons, self.deciding, self.held, self.lets = reasons, tuple(deciding), tuple(held), dict(lets)
        self.probes = None

    def __call__(self, f, held_locals=None) -> list:
        """The facts, read from the frame ``f`` (and the procedure's variables the written code holds in
        Python locals, ``held_locals``: name -> value)."""
        if self.probes is None:
            r = self.reasons
            self.probes = [Condition(r, c, holds, self.lets) for c, holds in self.held] + \
                [p for x in self.deciding for p in r.deciding(x, self.lets)]
        if held_locals:
            f = Frame(f.game, {**f.vars, **held_locals}, f.rule, f.this, f.actor)
        facts, seen = [], set()
        # What the reasons read exercises no rule: the coverage is of what the rules ran (a reason
        # works out both sides of an 'and' the rules stopped halfway through).
        game = f.game
        exercised, game.exercised = game.exercised, set()
        try:
            for probe in self.probes:
                probe.facts(f, facts, seen, 0)
        finally:
            game.exercised = exercised
        return facts[:MOST_FACTS]


def worth_a_reason(x, hidden_vars: frozenset) -> bool:
    """Whether an expression reads anything a fact could tell (a name, a call, a comparison, a
    ranking), and nothing a hidden choice set."""
    nodes = list(A.descendants((x,))) if x is not None else []
    if any(isinstance(n, A.Name) and n.name in hidden_vars for n in nodes):
        return False
    return any(isinstance(n, (A.Name, A.Call, A.Ranked)) or (isinstance(n, A.Binary) and n.op in _COMPARISONS)
               for n in nodes)


class Reasons:
    """Builds the probes of one game's expressions, compiling each sub-expression it reads with the
    game's expression writer."""

    def __init__(self, compiler, hidden_vars: frozenset):
        self.compiler = compiler
        self.writer = compiler.writer
        self.gamedef = compiler.gamedef
        self.hidden_vars = hidden_vars
        self.hidden_names = {name for t in self.gamedef.card_types.values() for name in
                             (f.name for f in t.fields if f.hidden)}
        #: the zones whose cards only their owner sees (a hand, a deck): a fact reading one is the judge's
        self.hidden_zones = {f.name for f in self.gamedef.fields.values() if f.kind in ("zone", "row") and f.hidden}
        self._compiled: dict = {}
        self._bodies: dict = {}

    def because(self, deciding, held, lets) -> Because:
        return Because(self, deciding, held, lets)

    def fn(self, x):
        """``x`` compiled once (``ExpressionWriter.compile``)."""
        found = self._compiled.get(id(x))
        if found is None:
            found = self._compiled[id(x)] = (self.writer.compile(x), x)   # (the node kept: its id stays unique)
        return found[0]

    def body(self, v) -> list:
        """The probes of a named value's body, read in a frame holding its parameters."""
        found = self._bodies.get(v.name)
        if found is None:
            self._bodies[v.name] = []           # (a value reading itself: nothing more)
            found = self._bodies[v.name] = self.probes(v.body, {})
        return found

    def deciding(self, x, lets: dict) -> list:
        """The probes of a statement's own expression: a built-in's call is told with its value too
        (``next-player(ann) is bob``), as a named value's is."""
        inner = self.probes(x, lets)
        if isinstance(x, A.Call) and x.name not in self.gamedef.values and self.plain_args(x):
            return [Read(self, x)] + inner
        return inner

    def probes(self, x, lets: dict) -> list:
        """The probes of an expression: what it reads that a fact can tell, outermost first."""
        if x is None:
            return []
        if isinstance(x, A.Name):
            if x.name in self.hidden_vars:
                return []
            if x.name in lets:
                return [Let(self, x.name, lets)]
            v = self.gamedef.values.get(x.name)
            if v is not None and x.name not in self.gamedef.fields:
                return [Value(self, x, v, [])]
            if self.compiler.global_kind(x.name) == "field":
                return [Read(self, x)]
            return []
        if isinstance(x, A.Attr):
            if x.name in self.hidden_names:
                return []
            return [Read(self, x)] if self.plain(x.subject) else self.probes(x.subject, lets)
        if isinstance(x, A.Call):
            v = self.gamedef.values.get(x.name)
            args = [p for a in x.args for p in self.probes(a, lets)]
            if v is not None and self.plain_args(x):
                return [Value(self, x, v, args)]
            return args
        if isinstance(x, A.Binary):
            if x.op in _COMPARISONS:
                return [Comparison(self, x, lets)]
            return self.probes(x.left, lets) + self.probes(x.right, lets)
        if isinstance(x, A.Unary):
            return self.probes(x.operand, lets)
        if isinstance(x, A.IfExpr):
            return [Choice(self, x, lets)]
        if isinstance(x, A.Ranked):
            return [Ranked(self, x, lets)]
        if isinstance(x, A.Quantified):
            return self.probes(x.iterable, lets)
        if isinstance(x, (A.ListExpr,)):
            return [p for i in x.items for p in self.probes(i, lets)]
        if isinstance(x, A.IsNone):
            return self.probes(x.subject, lets)
        return []

    def secret(self, x) -> bool:
        """Whether an expression reads a hidden zone (``top(p.draw-deck).type``): what it tells is for
        the judge's view alone, marked ``"hidden": true``."""
        zones = self.hidden_zones
        return x is not None and any(isinstance(n, (A.Attr, A.Name)) and n.name in zones
                                     for n in A.descendants((x,)))

    def plain(self, x) -> bool:
        """Whether an attribute's subject is read as it stands (a name, ``this``), not worked out."""
        return isinstance(x, (A.Name, A.This)) and getattr(x, "name", "") not in self.hidden_vars

    def plain_args(self, x: A.Call) -> bool:
        return not any(isinstance(n, A.Name) and n.name in self.hidden_vars for n in A.descendants(x.args))


def told(facts: list, seen: set, fact: dict, secret: bool = False) -> bool:
    """Add a fact not told already, while fewer than ``MOST_FACTS`` are; ``secret``: it reads a hidden
    zone (``"hidden": true``: the judge's view alone). Whether it was added."""
    if fact["text"] in seen or len(facts) >= MOST_FACTS:
        return False
    if secret:
        fact["hidden"] = True
    seen.add(fact["text"])
    facts.append(fact)
    return True


class _Probe:
    __slots__ = ("reasons", "x", "label", "read", "secret")

    def __init__(self, reasons: Reasons, x):
        self.reasons, self.x = reasons, x
        self.label = source(x)
        self.read = reasons.fn(x)
        self.secret = reasons.secret(x)

    def value(self, f):
        return self.read(f)

    def add(self, facts: list, seen: set, fact: dict) -> bool:
        return told(facts, seen, fact, self.secret)

    def facts(self, f, facts: list, seen: set, depth: int):
        try:
            self.tell(f, facts, seen, depth)
        except Exception:       # a read the rules would refuse here (none + 1): nothing to tell of it
            pass

    def tell(self, f, facts, seen, depth):
        raise NotImplementedError


class Read(_Probe):
    """A counter, role, flag or attribute read: ``mission-timer is 3``."""

    __slots__ = ()

    def tell(self, f, facts, seen, depth):
        value = shown(self.value(f))
        self.add(facts, seen, {"kind": "read", "rule": "", "name": self.label, "value": value,
                               "text": f"{self.label} is {value}"})


class Value(_Probe):
    """A named value read: its value and rule, the modifiers in force on it, then what its body read."""

    __slots__ = ("v", "args")

    def __init__(self, reasons, x, v, args):
        super().__init__(reasons, x)
        self.v, self.args = v, args
        self.secret = self.secret or reasons.secret(v.body)

    def tell(self, f, facts, seen, depth):
        x, v = self.x, self.v
        arg_values = tuple(self.reasons.fn(a)(f) for a in x.args) if isinstance(x, A.Call) else ()
        name = f"{v.name}({', '.join(shown(a) for a in arg_values)})" if arg_values else v.name
        value = shown(self.value(f))
        if not self.add(facts, seen, {"kind": "value", "rule": v.rule, "name": name, "value": value,
                                      "text": f"{name} is {value} ({v.rule})" if v.rule else f"{name} is {value}"}):
            return
        game, replaced = f.game, False
        key = ("value", v.name, arg_values)
        for m in game.modifiers:
            if m.key == key and not m.pending_until_begin:
                replaced = replaced or m.op == "to"
                told(facts, seen, modifier_fact(m))
        for probe in self.args:
            probe.facts(f, facts, seen, depth)
        if replaced or depth >= DEEPEST or v.params:    # (a value of the game's state, not of its arguments)
            return
        inner = Frame(game, dict(zip(v.params, arg_values)), v.rule or f.rule, f.this, f.actor)
        for probe in self.reasons.body(v):
            probe.facts(inner, facts, seen, depth + 1)


def modifier_fact(m) -> dict:
    """A modifier in force, as the trace tells it: ``modifier first-turn-player to dana for the next
    round, made by Take the Initiative, played by dana in round 1 (500.1d)``."""
    made = f", made by {m.card}" if m.card else ""
    if m.by:
        made += f", played by {m.by}" if m.card else f", made by {m.by}"
    if m.round:
        made += f" in round {m.round}" if made else f", made in round {m.round}"
    text = f"modifier {m.describe()}{made}" + (f" ({m.rule})" if m.rule else "")
    return {"kind": "modifier", "rule": m.rule, "name": m.target, "value": words(m.value), "card": m.card,
            "player": m.by, "round": m.round, "text": text}


class Let(_Probe):
    """A variable of the procedure: its value, then the facts of the expression it was let be."""

    __slots__ = ("var", "definition")

    def __init__(self, reasons, var, lets):
        self.reasons, self.x, self.label, self.var = reasons, None, var, var
        self.read = None
        self.secret = reasons.secret(lets[var])
        inner = {k: e for k, e in lets.items() if k != var}     # (a let read in its own definition: none)
        self.definition = reasons.probes(lets[var], inner)

    def tell(self, f, facts, seen, depth):
        if self.var not in f.vars:
            return
        value = shown(f.vars[self.var])
        if self.add(facts, seen, {"kind": "let", "rule": "", "name": self.var, "value": value,
                                  "text": f"{self.var} is {value}"}):
            for probe in self.definition:
                probe.facts(f, facts, seen, depth)


class Comparison(_Probe):
    """``power-total(alice) 3 < 7``: both operands worked out, and whether the comparison holds."""

    __slots__ = ("left", "right", "inner")

    def __init__(self, reasons, x, lets):
        super().__init__(reasons, x)
        self.left, self.right = reasons.fn(x.left), reasons.fn(x.right)
        self.inner = reasons.probes(x.left, lets) + reasons.probes(x.right, lets)

    def tell(self, f, facts, seen, depth):
        left, right = self.left(f), self.right(f)
        holds = bool(self.value(f))
        operands = f"{shown(left)} {self.x.op} {shown(right)}"
        text = f"{self.label}: {operands}" if operands != self.label else self.label
        self.add(facts, seen, {"kind": "comparison", "rule": "", "name": self.label, "op": self.x.op,
                               "left": shown(left), "right": shown(right), "holds": holds,
                               "text": f"{text}, {'true' if holds else 'false'}"})
        for probe in self.inner:
            probe.facts(f, facts, seen, depth)


class Condition(_Probe):
    """The condition of an ``if`` branch the statement sits in: held (or, for an ``else``, not)."""

    __slots__ = ("holds", "inner")

    def __init__(self, reasons, x, holds: bool, lets):
        super().__init__(reasons, x)
        self.holds = holds
        self.inner = reasons.probes(x, lets)

    def tell(self, f, facts, seen, depth):
        if not (isinstance(self.x, A.Binary) and self.x.op in _COMPARISONS):
            self.add(facts, seen, {"kind": "condition", "rule": "", "name": self.label, "holds": self.holds,
                                   "text": f"{self.label}: {'true' if self.holds else 'false'}"})
        for probe in self.inner:
            probe.facts(f, facts, seen, depth)


class Choice(_Probe):
    """``if C then A else B`` in an expression: whether ``C`` held, then what the branch taken read."""

    __slots__ = ("condition", "then", "otherwise")

    def __init__(self, reasons, x, lets):
        super().__init__(reasons, x)
        self.condition = reasons.fn(x.condition)
        self.then = [Condition(reasons, x.condition, True, lets)] + reasons.probes(x.then, lets)
        self.otherwise = [Condition(reasons, x.condition, False, lets)] + reasons.probes(x.otherwise, lets)

    def tell(self, f, facts, seen, depth):
        for probe in self.then if self.condition(f) else self.otherwise:
            probe.facts(f, facts, seen, depth)


class Ranked(_Probe):
    """``highest p in players by initiative(p)``: each item and its key, and the items kept."""

    __slots__ = ("items", "key", "inner")

    def __init__(self, reasons, x, lets):
        super().__init__(reasons, x)
        self.items = reasons.fn(x.iterable)
        self.key = reasons.fn(x.key)
        self.inner = reasons.probes(x.iterable, lets)

    def tell(self, f, facts, seen, depth):
        x = self.x
        items = self.items(f)
        items = items.cards if hasattr(items, "cards") else items if isinstance(items, list) else [items]
        keys = []
        for item in items[:MOST_FACTS]:
            inner = Frame(f.game, {**f.vars, x.var: item}, f.rule, f.this, f.actor)
            keys.append((shown(item), shown(self.key(inner))))
        listed = ", ".join(f"{item} {key}" for item, key in keys)
        kept = shown(self.value(f))
        self.add(facts, seen, {"kind": "ranked", "rule": "", "name": self.label, "keys": dict(keys), "value": kept,
                               "text": f"{x.kind} {source(x.key)} among {source(x.iterable)}: {listed}, so {kept}"})
        for probe in self.inner:
            probe.facts(f, facts, seen, depth)

