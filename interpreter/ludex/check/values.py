"""Values checked where they stand: a ``Scope`` (the names visible at a point, each with its kind)
and an expression in; its kind out, and a diagnostic for each part of it of a kind that cannot be
meant there.

``Scope.expr`` checks the names, attributes and calls an expression uses; ``number``,
``condition``, ``items``, ``cards``, ``player``, ``players``, ``zone``, ``target`` and
``modifiable`` check that it is the kind its place needs. The statement checks
(``checks.Checker``) make the scopes and report through the checker.
"""

from __future__ import annotations

from ..diagnostics import Related
from ..parse import ast as A
from ..runtime.builtins import BUILTINS, CONSTANTS, RANGE_LIMIT
from .kinds import (
    ARGUMENT_KINDS,
    CARD_ATTRIBUTES,
    CARD_OWN,
    COMPARED_AS,
    NOT_ARGUMENT,
    NOT_CARDS,
    NOT_CONDITIONS,
    NOT_ITEMS,
    NOT_NUMBERS,
    NOT_ZONES,
    NUMBERS_OR_A_LIST,
    PLAYER_ATTRIBUTES,
    article,
    element_type,
    field_type,
    list_of,
    literal_number,
    takes,
)
from .spans import name_span, source_words


class Scope:
    """Names visible at a point, with what they are (a player, a number, a card ...)."""

    def __init__(self, checker, names: dict):     # checker: the ``checks.Checker`` reporting
        self.checker = checker
        self.names = names

    def child(self, more: dict) -> "Scope":
        return Scope(self.checker, {**self.names, **more})

    # -- typing
    def type_of(self, x) -> str:
        # a ranked or filtered list holds what its list holds; an attribute or an item depends on its
        # subject's kind: worked out from the innermost subject outwards (a loop: chains can be long)
        chain = []
        while True:
            if isinstance(x, A.Ranked) or (isinstance(x, A.Quantified) and x.kind == "those"):
                chain.append(None)          # a list filtered from a zone is a list of its cards
                x = x.iterable
            elif isinstance(x, (A.Attr, A.Index)):
                chain.append(x)
                x = x.subject
            else:
                break
        kind = self.kind_of(x)
        for link in reversed(chain):
            if link is None:
                kind = kind if kind in NOT_ITEMS else list_of(kind)     # (going through one is refused)
            else:
                kind = self.attribute_kind(link, kind) if isinstance(link, A.Attr) else element_type(kind)
        return kind

    def attribute_kind(self, x: A.Attr, subject: str) -> str:
        """What ``subject.name`` is, for a subject of this kind. A name that is one kind for a player
        and another for a card (agot: a player's zone 'title', a card's text 'title'), or different
        kinds in different card types, is known only when the subject is."""
        g = self.checker.game
        kinds = set()
        if subject != "card":
            f = g.fields.get(x.name)
            if f is not None and f.scope == "player":
                kinds.add(field_type(f))
            if x.name in PLAYER_ATTRIBUTES:
                kinds.add(PLAYER_ATTRIBUTES[x.name])
            if subject == "player":
                # not a player's: reported as unknown, not also as the wrong type
                return kinds.pop() if len(kinds) == 1 else "any"
        if x.name in CARD_ATTRIBUTES:
            kinds.add(CARD_ATTRIBUTES[x.name])
        for ct in g.card_types.values():
            for fd in ct.fields:
                if fd.name == x.name:
                    kinds.add(fd.type if fd.type in ("number", "text", "player", "card") else "any")
        return kinds.pop() if len(kinds) == 1 else "any"

    def kind_of(self, x) -> str:
        """What an expression other than an attribute, an item or a filtered list is."""
        g = self.checker.game
        if isinstance(x, A.Number):
            return "number"
        if isinstance(x, A.Text):
            return "text"
        if isinstance(x, A.Constant):
            return "bool" if isinstance(x.value, bool) else "none"
        if isinstance(x, A.This):
            return "card"
        if isinstance(x, A.Name):
            if x.name in self.names:
                return self.names[x.name]
            f = g.fields.get(x.name)
            if f is not None and f.scope == "game":
                return field_type(f)
            if x.name in g.boards:
                return "board"
            if x.name in CONSTANTS:
                c = CONSTANTS[x.name].returns
                return {"players": "players", "all-players": "players", "cards-in-play": "cards"}.get(x.name, c)
            return "any"
        if isinstance(x, A.Call):
            b = BUILTINS.get(x.name)
            if b is not None and not takes(b, x.args):
                return "any"                                         # refused for its arguments (S064) alone
            if b is not None:
                if x.name in ("players-from", "opponents"):
                    return "players"
                if x.name in ("first", "last") and len(x.args) == 1:
                    return element_type(self.type_of(x.args[0]))     # first(players): a player
                if x.name in ("top", "bottom") and len(x.args) == 1:
                    of = self.type_of(x.args[0])                     # a zone's card; a list's item
                    return "card" if of == "zone" else of if of in ("card", "player") else element_type(of)
                if x.name == "cards" and len(x.args) == 1 and self.type_of(x.args[0]) in ("zone", "cards"):
                    return "cards"                                   # a zone's cards, a list of them
                return b.returns
            return "any"
        if isinstance(x, A.Binary):
            if x.op in ("+", "-", "*", "/", "%"):
                return "number"
            return "bool"
        if isinstance(x, A.Unary):
            return "number" if x.op == "-" else "bool"
        if isinstance(x, (A.IsNone,)):
            return "bool"
        if isinstance(x, A.Quantified):
            return {"every": "bool", "any": "bool", "count": "number", "total": "number"}.get(
                x.kind) or self.type_of(x)                           # those: a filtered list
        if isinstance(x, A.Ranked):
            return self.type_of(x)
        if isinstance(x, A.ListExpr):
            return "list"
        return "any"

    # -- walking expressions
    def expr(self, root):
        """Check every name, attribute and call in an expression (iteratively)."""
        stack = [(root, self)]
        while stack:
            x, scope = stack.pop()
            if isinstance(x, A.Name):
                scope.name(x)
            elif isinstance(x, A.Attr):
                scope.attribute(x)
                stack.append((x.subject, scope))
            elif isinstance(x, A.Index):
                stack += [(x.subject, scope), (x.index, scope)]
            elif isinstance(x, A.Call):
                scope.call(x)
                stack += [(a, scope) for a in x.args]
            elif isinstance(x, A.ListExpr):
                stack += [(a, scope) for a in x.items]
            elif isinstance(x, A.Unary):
                if x.op == "-":
                    scope.number(x.operand, walk=False)
                else:
                    scope.condition(x.operand, walk=False)
                stack.append((x.operand, scope))
            elif isinstance(x, A.Binary):
                if x.op in ("+", "-", "*", "/", "%", "<", "<=", ">", ">="):
                    scope.number(x.left, walk=False)
                    scope.number(x.right, walk=False)
                elif x.op in ("and", "or"):
                    scope.condition(x.left, walk=False)
                    scope.condition(x.right, walk=False)
                elif x.op in ("==", "!="):
                    scope.compared(x)
                stack += [(x.left, scope), (x.right, scope)]
            elif isinstance(x, A.IsNone):
                stack.append((x.subject, scope))
            elif isinstance(x, A.IfExpr):
                scope.condition(x.condition, walk=False)
                stack += [(x.condition, scope), (x.then, scope), (x.otherwise, scope)]
            elif isinstance(x, (A.Quantified, A.Ranked)):
                scope.items(x.iterable, walk=False)
                inner = scope.child({x.var: element_type(scope.type_of(x.iterable))})
                stack.append((x.iterable, scope))
                if isinstance(x, A.Quantified) and x.kind in ("every", "any", "those", "count"):
                    inner.condition(x.body, walk=False)
                stack.append((x.body if isinstance(x, A.Quantified) else x.key, inner))

    def name(self, x: A.Name):
        g = self.checker.game
        n = x.name
        if n in self.names or n in CONSTANTS:
            return
        f = g.fields.get(n)
        if f is not None:
            if f.scope == "player":
                self.checker.error("S060", f"'{n}' belongs to each player: write p.{n} for a player p", x.span)
            return
        if n in g.values or n in g.boards or n in g.decks:
            return
        if n in BUILTINS:
            self.checker.error("S061", f"'{n}' is a built-in: call it as {n}(...)", x.span)
            return
        known = list(self.names) + list(CONSTANTS) + [k for k, f in g.fields.items() if f.scope == "game"]
        known += list(g.values)
        self.checker.error("S062", f"unknown name '{n}'", x.span, hint=self.checker.suggest(n, known))

    def attribute(self, x: A.Attr):
        g = self.checker.game
        n = x.name
        subject = self.type_of(x.subject)
        player_fields = {k for k, f in g.fields.items() if f.scope == "player"}
        card_fields = {fd.name for ct in g.card_types.values() for fd in ct.fields}
        if subject == "player":
            known = player_fields | set(PLAYER_ATTRIBUTES)
        elif subject == "card":
            known = card_fields | set(CARD_ATTRIBUTES)
        else:
            known = player_fields | set(PLAYER_ATTRIBUTES) | card_fields | set(CARD_ATTRIBUTES)
        if n not in known:
            what = {"player": "a player", "card": "a card"}.get(subject, "a player or a card")
            self.checker.error("S063", f"unknown attribute '{n}' of {what}", name_span(x),
                               hint=self.checker.suggest(n, known))

    def call(self, x: A.Call):
        g = self.checker.game
        b = BUILTINS.get(x.name)
        if b is not None:
            if not takes(b, x.args):
                want = str(b.min_args) if b.max_args == b.min_args else f"at least {b.min_args}"
                self.checker.error("S064", f"'{x.name}' takes {want} argument{'' if b.min_args == 1 else 's'}, "
                                   f"not {len(x.args)}", x.span)
            elif x.name == "range":
                low, high = (literal_number(a) for a in x.args)
                if low is not None and high is not None and high - low + 1 > RANGE_LIMIT:
                    self.checker.error("S077", f"range({low}, {high}) would list {high - low + 1} numbers, more "
                                       f"than the {RANGE_LIMIT} a range may hold", x.span)
            elif x.name == "to-act" and isinstance(x.args[0], A.Text):
                # a name no window has would give none for good: every play requiring it refused
                windows = self.checker.window_names()
                if x.args[0].value not in windows:
                    self.checker.error("S090", f"the game opens no window named \"{x.args[0].value}\"",
                                       x.args[0].span, hint=self.checker.suggest(x.args[0].value, windows)
                                       or "a window's name is as its 'window' statement writes it")
            for a, kind in zip(x.args, ARGUMENT_KINDS.get(x.name, ())):
                self.argument(x.name, a, kind)
            if x.name in NUMBERS_OR_A_LIST:
                for a in x.args:
                    self.argument(x.name, a, "number" if len(x.args) > 1 else "numbers")
            return
        v = g.values.get(x.name)
        if v is not None:
            if len(x.args) != len(v.params):
                self.checker.error("S064", f"value '{x.name}' takes {len(v.params)} argument(s), not "
                                   f"{len(x.args)}", x.span, related=[Related(v.span, "the value is defined here")])
            return
        self.checker.error("S065", f"unknown built-in or value '{x.name}'", x.span,
                           hint=self.checker.suggest(x.name, list(BUILTINS) + list(g.values)))

    def argument(self, name: str, x, kind: str):
        """An argument of built-in ``name`` that must be of ``kind`` (``ARGUMENT_KINDS``)."""
        if kind == "number":
            self.number(x, walk=False)
            return
        refused, code, wanted = NOT_ARGUMENT[kind]
        got = self.type_of(x)
        if got in refused:
            self.checker.error(code, f"{wanted} is needed here, but this is {article(got)}", x.span,
                               hint=f"'{name}' takes {wanted} here")

    def number(self, x, walk: bool = True):
        if walk:
            self.expr(x)
        kind = self.type_of(x)
        if kind in NOT_NUMBERS or kind == "players":
            self.checker.error("S020", f"a number is needed here, but this is {article(kind)}", x.span)

    def condition(self, x, walk: bool = True):
        """A condition (of ``if``, ``while``, ``require``, ``every`` ...): true or false."""
        if walk:
            self.expr(x)
        kind = self.type_of(x)
        if kind in NOT_CONDITIONS:
            words = source_words(x, "it")
            hint = {"number": f"compare it: {words} > 0",
                    "player": f"to ask whether there is one: {words} is not none",
                    "card": f"to ask whether there is one: {words} is not none",
                    "text": f"compare it: {words} == \"...\""}.get(kind, f"to ask whether it holds any: "
                                                                     f"size({words}) > 0")
            self.checker.error("S026", f"true or false is needed here, but this is {article(kind)}", x.span,
                               hint=hint)

    def compared(self, x: A.Binary):
        """``a == b`` / ``a != b``: values of different kinds are never equal, whatever they hold."""
        left, right = self.type_of(x.left), self.type_of(x.right)
        a, b = COMPARED_AS.get(left), COMPARED_AS.get(right)
        if a is None or b is None or a == b:
            return
        always = f"'{x.op}' is always {'false' if x.op == '==' else 'true'} here"
        if {a, b} == {"player", "text"}:
            hint = f"compare a player's name (p.name == \"ann\"): {always}"
        elif {a, b} == {"card", "text"}:
            hint = f"compare a card's title (c.title == \"A Noble Cause\"): {always}"
        elif {a, b} == {"zone", "list"}:
            hint = self.zone_and_list(x, always)
        elif "zone" in (a, b) or "list" in (a, b):
            hint = f"to ask whether a list holds it, write 'x in xs': {always}"
        else:
            hint = f"they are never equal: {always}"
        self.checker.error("S027", f"cannot compare {article(left)} with {article(right)}", x.span, hint=hint)

    def zone_and_list(self, x: A.Binary, always: str) -> str:
        """The help for ``p.hand == []``: a zone is never equal to a list; its cards may be."""
        zone, other = (x.left, x.right) if self.type_of(x.left) == "zone" else (x.right, x.left)
        if self.type_of(other) == "players":
            return f"a zone holds cards, never players: {always}"
        words = source_words(zone, "z")
        if isinstance(other, A.ListExpr) and not other.items:
            better = f"size({words}) {x.op} 0"
        else:
            other_words = source_words(other, "xs")
            if not isinstance(other, (A.Name, A.Attr, A.Call, A.Index, A.ListExpr)):
                other_words = f"({other_words})"          # a quantifier's condition runs to the end
            better = f"cards({words}) {x.op} {other_words}"
        return f"compare its cards ({better}): {always}, as a zone is never a list"

    def items(self, x, walk: bool = True):
        """A list to go through (``for each``, ``every``, ``those`` ...): a list, a zone, or a single
        player or card (read as a list of one)."""
        if walk:
            self.expr(x)
        kind = self.type_of(x)
        if kind in NOT_ITEMS:
            self.checker.error("S024", f"a list or a zone is needed here, but this is {article(kind)}", x.span,
                               hint="the items gone through are a list's, a zone's cards, or a single player "
                                    "or card")

    def cards(self, x, what: str):
        """Cards to reveal, conceal or initiate: a card, a list of cards or a zone."""
        self.expr(x)
        kind = self.type_of(x)
        if kind in NOT_CARDS:
            self.checker.error("S025", f"a card is needed here, but this is {article(kind)}", x.span,
                               hint=f"'{what}' takes a card, a list of cards or a zone")
        elif isinstance(x, A.ListExpr):        # each item of a written list a card
            for item in x.items:
                kind = self.type_of(item)
                if kind in NOT_CARDS or kind in ("zone", "cards"):
                    self.checker.error("S025", f"a card is needed here, but this is {article(kind)}", item.span,
                                       hint=f"'{what}' takes a card, a list of cards or a zone")

    def player(self, x):
        self.expr(x)
        kind = self.type_of(x)
        if kind in {"number", "card", "zone", "cards", "text"}:
            self.checker.error("S021", f"a player is needed here, but this is {article(kind)}", x.span)

    def players(self, x):
        """Who wins or is eliminated: a player or a list of players (each item of a written list a
        player)."""
        self.expr(x)
        for item in x.items if isinstance(x, A.ListExpr) else (x,):
            kind = self.type_of(item)
            if kind in {"number", "card", "zone", "cards", "text", "bool"}:
                self.checker.error("S021", f"a player is needed here, but this is {article(kind)}", item.span)

    def zone(self, x):
        """Where cards go or are drawn from, or a pile to shuffle: a zone itself, not a list."""
        self.expr(x)
        kind = self.type_of(x)
        if kind in NOT_ZONES:
            hint = "" if kind not in ("list", "cards") else \
                "a list, even of a zone's cards (those c in p.hand: ..., cards(p.hand)), is not the zone: name the " \
                "zone itself, such as p.hand or zone-of(c)"
            self.checker.error("S023", f"a zone is needed here, but this is {article(kind)}", x.span, hint=hint)

    def target(self, x):
        """Something a statement may change: a counter, supply, role, flag or a card's attribute."""
        self.expr(x)
        if isinstance(x, A.Name):
            if x.name in self.names and self.names[x.name] != "any":
                self.checker.error("S066", f"'{x.name}' is a name given in this procedure, not part of the "
                                   "game state", x.span)
            return
        if isinstance(x, A.Attr):
            if x.name in CARD_OWN and self.type_of(x.subject) == "card":
                self.checker.error("S072", f"a card's {x.name} is its own ({CARD_OWN[x.name]}) and cannot be "
                                   "changed", x.span)
                return
            f = self.checker.game.fields.get(x.name)
            if f is not None and f.scope == "player" and f.kind in ("zone", "row") and \
                    self.type_of(x.subject) == "player":
                self.checker.error("S071", f"a player's {x.name} is {article(f.kind)}: it holds cards, and only a "
                                   "counter, supply, role, flag or attribute can be changed", x.span)
            return
        self.checker.error("S067", "only a counter, supply, role, flag or attribute can be changed", x.span)

    def modifiable(self, x):
        self.expr(x)
        if not isinstance(x, (A.Call, A.Name, A.Attr)):
            self.checker.error("S068", "a modifier applies to a value, a counter or an attribute", x.span)
