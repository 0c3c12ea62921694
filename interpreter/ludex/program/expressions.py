"""Compile an expression to one Python function, written as source and compiled by Python.

A closure per node would cost a Python call per node; the rules' hottest expressions are
quantifiers over the cards in play (``those d in cards-in-play: d.owner == p and d.unique``), read
for every card a player might play each time legality is decided. Written as Python source, such an
expression is a single list comprehension: its variable is a Python local, comparisons and ``and``
are Python operators, and only attribute reads and built-ins remain calls.

In: an expression node (``ast.py``). Out: ``fn(frame) -> value``, written as source for every kind
of expression (the only way the engine works one out). A part nested deeper than Python compiles
(``_DEEPEST``) is written as a function of its own, called with the Python locals it reads. Also
written here: a named value, a play's requirements and its legal plays, a state check's poll, and an
expression as source text for a function ``statements.py`` writes (``inline``). A short value whose
arguments are Python locals is written where it is read instead of called.

Every function written is compiled under a file name of its own, and its source is put in
``linecache`` and kept in ``ExpressionWriter.sources`` under that name: a traceback through it shows
its lines, and ``ludex explain --python`` prints them.
"""

from __future__ import annotations

import ast
import functools
import itertools
import linecache
import re
import types
import weakref

from ..parse import ast as A
from ..runtime.builtins import BUILTINS, CONSTANTS
from ..runtime.operations import NAMESPACE, as_list_read
from ..runtime.state import words
from .reads import card_attribute_names

# Nodes never written as a function apart: their source is short and opens no bracket of its own.
_LEAVES = (A.Number, A.Text, A.Constant, A.This, A.Name)
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_PLAIN_ARITH = {"+", "-", "*"}
#: A card's own attributes that are not its definition's: the name in the rules, the slot in Python.
_CARD_BUILTINS = {"title": "title", "type": "type", "owner": "owner", "zone": "zone", "face-up": "face_up"}


def _divide(op: str, span):
    """Whole-number division or remainder, refusing zero with the divisor's position."""
    def divide(a, b, f):
        if b == 0:
            raise f.game.error("division by zero: the divisor is 0", f.rule, span)
        return a // b if op == "/" else a % b
    return divide


def _item(span):
    """Item ``i`` of a list (0 first), refusing a position the list does not have."""
    def item(xs, i, f):
        xs = as_list_read(xs)
        if not isinstance(i, int) or not 0 <= i < len(xs):
            raise f.game.error(f"there is no item {words(i)} in a list of {len(xs)}", f.rule, span)
        return xs[i]
    return item


def _no_value(n: str, span):
    """Reading a name that is not a variable and names nothing: an error at the name."""
    def nothing(f):
        raise f.game.error(f"'{n}' has no value here", f.rule, span)
    return nothing


def _pending(writer, v):
    """Stands for a value while it is being written (a value that reads itself)."""
    def call(f, *args):
        return writer.values[v.name](f, *args)
    return call


def _exercising(v: A.Value) -> str:
    """What a named value read in place writes before its body: its rule exercised (``... or``);
    nothing for a value outside any rule."""
    return f"_G.exercised.add({v.rule!r}) or " if v.rule else ""


def _worth_remembering(v) -> bool:
    """Whether a named value's answer is remembered while the state stands still: a value with no
    parameters whose body does enough work, looking over a list (a quantifier, highest/lowest) or
    reading another value or a built-in (``characters-in-play``, read by the legality of each card a
    player might marshal). A value with parameters is worked out at each reading: its readings at
    one state seldom repeat their arguments, and remembering each answer costs more than it saves
    in every bundled game."""
    return not v.params and any(isinstance(x, (A.Quantified, A.Ranked, A.Call)) for x in A.descendants(v.body))


#: How many nodes deep ``write`` and ``test`` go into one function's expression before the rest is
#: written as a function of its own (``apart``). Each node opens at most four brackets in the Python
#: written, and Python refuses source nested about 200 deep: an expression may nest 64 levels
#: (``syntax.MAX_NESTING``), and a value read in place adds its own body's. No bundled game comes near
#: (the deepest expression is 12).
_DEEPEST = 40

#: The longest body of a value written where it is read (longer ones are called: written twice, the
#: code would grow). Long enough for a choice among a few counters read as a play's legal search reads
#: them, each remembered for every choice (``_h0 if _h0 is not _UNSET else (_h0 := ...)``), as a value
#: ``if kind == "a" then p.a else if kind == "b" then p.b else p.c`` is read for each kind offered.
_IN_PLACE_LENGTH = 480


@functools.lru_cache(maxsize=4096)
def _is_literal(source: str) -> bool:
    """Whether Python source is a number or a text literal (as ``repr`` writes them; asked again and
    again of the same few sources, so the answers are kept)."""
    try:
        value = ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return False
    return type(value) in (int, float, str) and repr(value) == source


def bound_names(nodes) -> set:
    """Every name bound as a variable in ``nodes``: by a statement or quantifier (``var``), as a
    play's player (``actor``), or as a parameter of a play, value or event."""
    names = set()
    for x in A.descendants(tuple(nodes)):
        for name in (getattr(x, "var", None), getattr(x, "actor", None)):
            if isinstance(name, str):
                names.add(name)
        params = getattr(x, "params", None)
        if isinstance(params, tuple):
            names.update(p if isinstance(p, str) else p.name for p in params)
    return names


#: Built-ins (and constants) whose every item is sure to be a player, or a card.
_ITEMS = {"players": "player", "all-players": "player", "players-from": "player", "opponents": "player",
          "cards-in-play": "card"}
#: Built-ins whose items are items of their first (or first two) arguments: of the same kind if those are.
_SAME_ITEMS = {"cards": 1, "reverse": 1, "without": 1, "join": 2}

#: Built-ins whose value is always a new Python list (or an error): ``items_of`` would give it back as
#: it is.
_LISTS = {"cards", "players-from", "opponents", "reverse", "without", "join", "titles"}

def acting_source(who: str) -> str:
    """``records.acting`` of the Python local ``who``, as source written in place (a call costs more
    than the test): the player's name, or the value itself ("" for none)."""
    return f"({who}.name if type({who}) is _Player else ({who} or ''))"


def _forget(filenames: list):
    """Take a compiled game's functions out of ``linecache`` once nothing holds its writer."""
    for filename in filenames:
        linecache.cache.pop(filename, None)


#: Numbers for the file names functions are compiled under: one for each, in every game compiled (two
#: compilations of one rules file, or rules parsed from strings under one name, share paths and lines)
_NUMBERS = itertools.count(1)

#: Code compiled from each function's source, in a process that compiles many versions of the same
#: rules (``ludex mutate``: a mutant changes one rule, and the other functions' sources are the same);
#: None, the default, keeps nothing. See ``remember_code``.
_REMEMBERED: dict | None = None
_REMEMBERED_MOST = 20_000


def remember_code(on: bool = True) -> None:
    """Keep (or stop keeping) the code compiled from each function's source, to use again when the
    same source is compiled again: the same code as ``compile`` makes, under the new file name."""
    global _REMEMBERED
    _REMEMBERED = {} if on else None


def _renamed(code: types.CodeType, filename: str) -> types.CodeType:
    """``code`` as compiled under ``filename``: its functions (nested code objects) too."""
    consts = tuple(_renamed(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)

#: The names a written function's prologue binds, each read from the frame or from another.
_PROLOGUE = (("_V", "    _V = f.vars"), ("_G", "    _G = f.game"), ("_M", "    _M = _G.modified"))


def _prologue(body: str) -> list:
    """The lines binding ``_V``, ``_G`` and ``_M`` that ``body`` reads (``_M`` needs ``_G``)."""
    used = set(re.findall(r"\b_[VGM]\b", body))
    if "_M" in used:
        used.add("_G")
    return [line for name, line in _PROLOGUE if name in used]


class ExpressionWriter:
    """Writes expressions as the source of Python functions and compiles them: one expression
    (``expression(f)``), a named value (``value(f, *params)``), a play's requirements in order
    (``failing(f)``: the index of the first that does not hold, or -1), the plays of an action a player
    may make now (``legal(game, player)``) or a state check's poll (``poll(f)``)."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.values: dict = {}                # name -> the value's function, written on first use
        #: the namespace the written functions run in: the runtime's (``operations.NAMESPACE``), this
        #: game's values, then the constants and functions written for this game
        self.env: dict = {**NAMESPACE, "_VALUES": self.values}
        self.locals = 0
        self.in_place: set = set()    # the values being written (one reading itself is called)
        #: the names of the zones and rows each player has
        self.player_zones = {f.name for f in compiler.gamedef.fields.values()
                             if f.scope == "player" and f.kind in ("zone", "row")}
        #: the counters, supplies, roles and flags every player has (made at set-up)
        self.player_fields = {f.name for f in compiler.gamedef.fields.values()
                              if f.scope == "player" and f.kind not in ("zone", "row")}
        #: what each Python local the written code binds is known to hold, when it is always a card
        #: (``"card"``) or always a player (``"player"``): then its attributes are read without asking
        #: which it is (``w_Attr``)
        self.kinds: dict[str, str] = {"player": "player"}
        #: every name the rules bind as a variable somewhere: where a frame's variables are read, such a
        #: name may hold something other than the game's zone or constant so named
        self.bound = bound_names(compiler.gamedef.modules)
        self.in_iterable = 0      # inside a comprehension's iterable, where ``:=`` is not allowed
        #: how many functions apart (``apart``) have been handed a variable worked out where first read
        #: (a legal search's lazy ``let``): its walrus would bind the function's local, not the caller's
        self.lazy_handed = 0
        self.in_value = False     # writing a value's body: no variables but its parameters
        #: writing a legal search's requirements: the choice-free reads met (``choice_free``) -> the local
        #: that keeps what the first of them found (``write``). Functions written meanwhile (one apart, a
        #: value's, a state check's) clear it while they are written; ``inline`` keeps it, since what it
        #: writes goes into the legal search itself.
        self.hoisted: dict | None = None
        #: how many nodes deep the expression being written is (``_DEEPEST``)
        self.depth = 0
        #: the source of every function written, by the file name it is compiled under (``define``)
        self.sources: dict[str, str] = {}
        #: the same file names, taken out of ``linecache`` when the writer is gone (``_forget``)
        self.filenames: list[str] = []
        weakref.finalize(self, _forget, self.filenames)

    def define(self, source: str, name: str, span):
        """Compile a function's source among the constants written so far; return the function. Its
        file name is its own (the rules' file and line, and a number), and ``linecache`` holds its
        lines under it, so that a traceback through it shows them."""
        filename = f"<ludex rules {span.path}:{span.line} #{next(_NUMBERS)}>"
        known = _REMEMBERED.get(source) if _REMEMBERED is not None else None
        if known is not None:
            code = _renamed(known, filename)
        else:
            code = compile(source, filename, "exec")
            if _REMEMBERED is not None and len(_REMEMBERED) < _REMEMBERED_MOST:
                _REMEMBERED[source] = code
        self.sources[filename] = source
        self.filenames.append(filename)
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(code, self.env)
        return self.env[name]

    def source_of(self, fn) -> str | None:
        """The source of a function ``define`` compiled, or None for any other."""
        code = getattr(fn, "__code__", None)
        return self.sources.get(code.co_filename) if code is not None else None

    def inline(self, x, scope=None, test: bool = False) -> str:
        """An expression as Python source to write into a function that has ``f`` (the frame), ``_V``
        (its variables) and ``_G`` (the game). ``scope``: variables of the frame that the function
        also holds in Python locals (name -> local), read from those. ``test``: only whether it holds
        is asked (``test``)."""
        outer = self.in_value, self.in_iterable, self.depth
        self.in_value, self.in_iterable, self.depth = False, 0, 0
        try:
            return self.test(x, scope or {}) if test else self.write(x, scope or {})
        finally:
            self.in_value, self.in_iterable, self.depth = outer

    def local(self, prefix: str) -> str:
        """A name for a Python local of a written function, used nowhere else."""
        self.locals += 1
        return f"{prefix}{self.locals}"

    def compile(self, x):
        """``fn(frame) -> value`` for any expression."""
        outer = self.in_value, self.in_iterable, self.hoisted, self.depth
        self.in_value, self.in_iterable, self.hoisted, self.depth = False, 0, None, 0
        try:
            body = self.write(x, {})
        finally:
            self.in_value, self.in_iterable, self.hoisted, self.depth = outer
        lines = ["def expression(f):", *_prologue(body), f"    return {body}"]
        return self.define("\n".join(lines) + "\n", "expression", x.span)

    def apart(self, x, scope, test: bool = False) -> str:
        """A call of ``x`` written as a function of its own (``_DEEPEST``): it is handed the frame and
        the Python locals of ``scope`` that ``x`` reads (a quantifier's variable, a value's parameter,
        a play's choice), under the same names, so that what is known of each (``kinds``) holds."""
        handed, inner = {}, {}         # parameter -> the caller's source for it; name -> parameter
        for n in sorted(A.names_in(x)):
            if n not in scope:
                continue
            local = scope[n]
            if _is_literal(local) or local in ("None", "True", "False"):
                inner[n] = local
            elif local.isidentifier():
                handed[local] = inner[n] = local
            else:
                # a variable worked out where first read (a legal search's lazy ``let``): handed on
                # worked out, and the legal search, told so, works its lets out in order instead
                self.lazy_handed += 1
                param = self.local("_s")
                handed[param] = local
                inner[n] = param
        outer = self.in_iterable, self.hoisted, self.depth
        self.in_iterable, self.hoisted, self.depth = 0, None, 0
        try:
            body = self.test(x, inner) if test else self.write(x, inner)
        finally:
            self.in_iterable, self.hoisted, self.depth = outer
        lines = [f"def part(f{''.join(', ' + p for p in handed)}):", *_prologue(body), f"    return {body}"]
        fn = self.constant(self.define("\n".join(lines) + "\n", "part", x.span))
        return f"{fn}(f{''.join(', ' + a for a in handed.values())})"

    def value(self, v):
        """``fn(frame, *args) -> value`` for a named value: its body sees its parameters and the
        state, never the caller's names; remembered while the state stands still when it is worth
        it (``_worth_remembering``); modifiers on it applied; its rule exercised."""
        found = self.values.get(v.name)
        if found is not None:
            return found
        self.values[v.name] = _pending(self, v)      # a value that reads itself: resolved at run time
        params = [f"_p{i}" for i in range(len(v.params))]
        scope = {name: local for name, local in zip(v.params, params)}
        outer = self.in_value, self.in_iterable, self.hoisted, self.depth
        self.in_value, self.in_iterable, self.hoisted, self.depth = True, 0, None, 0
        self.in_place.add(v.name)
        try:
            body = self.write(v.body, scope)
        finally:
            self.in_value, self.in_iterable, self.hoisted, self.depth = outer
            self.in_place.discard(v.name)
        args = "".join(p + ", " for p in params)
        lines = [f"def value(f{''.join(', ' + p for p in params)}):",
                 "    _G = f.game",
                 "    _M = _G.modified"]
        if v.rule:          # (a value outside any rule exercises none)
            lines.append(f"    _G.exercised.add({v.rule!r})")
        if _worth_remembering(v):
            lines += ["    _B = _G.books",
                      "    if _B.remembered_at != _B.version:     # the state changed: forget (Bookkeeping.remembered)",
                      "        _B.remembered_at = _B.version",
                      "        _B.remembered = {}",
                      f"    _key = ({v.name!r}, f.this)",
                      "    _value = _B.remembered.get(_key, _UNSET)",
                      "    if _value is _UNSET:",
                      f"        _value = _B.remembered[_key] = {body}"]
        else:
            lines += [f"    _value = {body}"]
        lines += [f"    if {v.name!r} in _M:",
                  f"        return _G.apply_modifiers(('value', {v.name!r}, ({args})), _value)",
                  "    return _value"]
        fn = self.define("\n".join(lines) + "\n", "value", v.span)
        self.values[v.name] = fn
        return fn

    def requirements(self, checks, span):
        """``failing(frame) -> int`` for a play's ``let`` and ``require`` lines, in the order given
        (``(is_let, statement)`` pairs): the index of the first requirement that does not hold, or -1.
        Each ``let`` is kept in the frame, where the play's effect reads it."""
        lines = ["def failing(f):", "    _V = f.vars", "    _G = f.game", "    _M = _G.modified"]
        for i, (is_let, stmt) in enumerate(checks):
            if is_let:
                lines.append(f"    _V[{stmt.var!r}] = {self.inline(stmt.value)}")
            else:
                lines.append(f"    if not {self.inline(stmt.condition, test=True)}:")
                lines.append(f"        return {i}")
        lines.append("    return -1")
        return self.define("\n".join(lines) + "\n", "failing", span)

    def legal(self, action, checks, rule: str, lazy_lets: bool = True):
        """``legal(game, player) -> [Play, ...]`` for a play: every combination of its choices (the
        first parameter's outermost) for which each requirement holds, in order; for each other
        combination, the cite of the first requirement that does not hold is exercised.

        ``checks``: the play's ``let`` and ``require`` lines, ``(is_let, statement)`` pairs in the
        order ``requirements`` takes them. Each combination is looked at with fresh variables (the
        player and the choices), as ``requirements`` would be called with them. A line that reads no
        choice (only the player and the state) gives every combination the same answer, since the
        state stands still while plays are offered: it is worked out once, when first reached (those
        ahead of every let and line that does read a choice before the choices are looked over). So is a
        counter or zone read inside a line that does read a choice (``c.cost <= p.gold``: ``p.gold``).
        A ``let`` that does read a choice is worked out where a later line first reads it, if one does
        (``lazy_lets``; each where it is set, in order, when a line hands it to a function apart)."""
        actor, params = action.actor, [p.name for p in action.params]
        lines = ["def legal(_G, player):",
                 "    _M = _G.modified",
                 # (``_Frame(_G, {actor: player}, rule)``, made in place: ``BareFrame``)
                 "    f = _BareFrame()",
                 "    f.game = _G",
                 f"    f.vars = _V = {{{actor!r}: player}}",
                 f"    f.rule = {rule!r}",
                 "    f.this = None",
                 "    f.actor = ''"]
        scope = {actor: "player"}
        for i, param in enumerate(action.params):
            if param.domain is not None:
                # (looked over, not copied: nothing changes while plays are offered)
                if self.is_zone(param.domain, scope) or self.is_list(param.domain):
                    lines.append(f"    _pool{i} = {self.over(self.inline(param.domain, scope), param.domain, scope)}")
                else:
                    # (``items_of`` in place for a zone and a list, the kinds met)
                    lines += [f"    _pool{i} = {self.inline(param.domain, scope)}",
                              f"    if type(_pool{i}) is _Zone:",
                              f"        _pool{i} = _pool{i}.cards",
                              f"    elif type(_pool{i}) is not list:",
                              f"        _pool{i} = _over(_pool{i})"]
                kind = self.items_kind(param.domain, scope)
            else:
                lines.append(f"    _pool{i} = {'_G.state.players' if param.type == 'player' else '()'}")
                kind = "player" if param.type == "player" else None
            if kind is not None:
                self.kinds[f"_c{i}"] = kind
            else:
                self.kinds.pop(f"_c{i}", None)
        lines.append("    _legal = []")
        reads_choice = set(params)        # names whose value differs from one combination to another
        scope.update({p: f"_c{i}" for i, p in enumerate(params)})
        # Each line's expression first, as source: whether any of them hands a lazy let to a function
        # apart decides whether the lets are worked out in order instead.
        handed = self.lazy_handed
        written = []
        hoisted: dict = {}
        for k, (is_let, stmt) in enumerate(checks):
            expr = stmt.value if is_let else stmt.condition
            varies = bool(A.names_in(expr) & reads_choice) or not params
            self.hoisted = hoisted if varies and params else None
            try:
                value = self.inline(expr, scope, test=not is_let)     # (a let's value may read the name it sets)
            finally:
                self.hoisted = None
            if is_let:
                if varies:
                    reads_choice.add(stmt.var)
                elif stmt.var in reads_choice:      # it sets a name that varied: now it does not
                    reads_choice.discard(stmt.var)
                local = f"_let{len(written)}"
                # A let whose value differs from one combination to another is worked out where a later
                # requirement first reads it, if one does: ``let copy = copy-in-play(p, c)`` then
                # ``require c.cost <= p.gold or copy is not none`` asks for the copy only for a card
                # the player cannot pay for. (Not where a later line looks over it: Python allows no
                # ``:=`` in a comprehension's iterable.)
                lazy = varies and lazy_lets and not any(
                    stmt.var in A.names_in(x.iterable) for _, later in checks[k + 1:]
                    for x in A.descendants(later.value if isinstance(later, A.Let) else later.condition)
                    if isinstance(x, (A.Quantified, A.Ranked)))
                scope[stmt.var] = f"({local} if {local} is not _UNSET else ({local} := {value}))" if lazy else local
            else:
                lazy = False
            written.append((is_let, stmt, varies, value, lazy))
        if self.lazy_handed != handed and any(w[4] for w in written):
            # a function apart is handed a let: each is worked out where it is set
            return self.legal(action, checks, rule, lazy_lets=False)
        once = []
        body = []
        #: the requirements ahead of every let and of every line that reads a choice, when there are
        #: choices: each reads no choice, so is looked at once, before the choices are looked over (if
        #: there is any combination of them), and ends the search if it fails
        ahead = []
        #: with no choices there is one combination, looked at once: a requirement that fails ends the search
        fail = "return _legal" if not params else "continue"
        earlier_varies = False     # whether a requirement before this one may fail for some combinations
        for i, (is_let, stmt, varies, value, lazy) in enumerate(written):
            if params and not is_let and not varies and len(ahead) == 3 * i:
                ahead += [f"if not {value}:", f"    _G.exercised.add({stmt.cite!r})", "    return _legal"]
                continue
            if is_let:
                local = f"_let{i}"
                if lazy:
                    body.append(f"_let{i} = _UNSET")
                elif varies:
                    body.append(f"{local} = {value}")
                else:
                    known = f"_once{i}"
                    once.append(known)
                    body += [f"if {known} is _UNSET:", f"    {known} = {value}", f"{local} = {known}"]
                continue
            fails = f"not {value}"
            ends = fail
            if not varies:
                known = f"_once{i}"
                once.append(known)
                body += [f"if {known} is _UNSET:", f"    {known} = {fails}"]
                fails = known
                if not earlier_varies:      # every combination fails here first: none is legal
                    ends = "return _legal"
            else:
                earlier_varies = True
            body += [f"if {fails}:", f"    _G.exercised.add({stmt.cite!r})", f"    {ends}"]
        if not params:
            lines += ["    " + line for line in body] + [f"    _legal.append(_Play({action.name!r}, player, ()))",
                                                           "    return _legal"]
            return self.define("\n".join(lines) + "\n", "legal", action.span)
        lines += [f"    {known} = _UNSET" for known in once]
        lines += [f"    {local} = _UNSET" for local in hoisted.values() if local.startswith("_h")]
        if any(not local.startswith("_h") for local in hoisted.values()):
            lines.append("    _HI = {}")
        if ahead:
            lines.append(f"    if {' and '.join(f'_pool{i}' for i in range(len(params)))}:")
            lines += ["        " + line for line in ahead]
        ind = "    "
        for i in range(len(params)):
            lines.append(f"{ind}for _c{i} in _pool{i}:")
            ind += "    "
        # (every line reads the player, the choices and the lets from Python locals, and any other name
        # from the state: ``_V`` holds only the player)
        lines += [ind + line for line in body]
        args = "".join(f"_c{i}, " for i in range(len(params)))
        # (``_Play(name, player, args)``, made in place: ``BarePlay``)
        lines += [f"{ind}_play = _BarePlay()", f"{ind}_play.action = {action.name!r}", f"{ind}_play.player = player",
                  f"{ind}_play.args = ({args})", f"{ind}_legal.append(_play)"]
        lines.append("    return _legal")
        return self.define("\n".join(lines) + "\n", "legal", action.span)

    def play(self, action, lets, rule: str, cites: set, body):
        """``play(game, play)`` for a play of ``action`` just offered by its legal search (its arguments
        are as many as its choices, each from its choice's items): the play event recorded, then the
        play made as ``CompiledAction.perform`` makes it: the frame holding the player and the choices,
        each of the leading ``lets`` (``A.Let`` statements, in order) worked out into it, the rules in
        ``cites`` exercised, then ``body`` run. Written as source, it holds the player, the choices and
        the lets in Python locals too, which a let reads as ``legal`` reads them, and so a named value
        a let reads is read in place where it can be (``value_in_place``: ``let copy = copy-in-play(p,
        c)``) instead of through the let's own function and the value's."""
        actor = action.actor
        scope = {actor: "player"}
        for i, param in enumerate(action.params):
            # (each choice is sure to be what the legal search that offered it was sure it is)
            kind = self.items_kind(param.domain, {actor: "player"}) if param.domain is not None else \
                "player" if param.type == "player" else None
            if kind is not None:
                self.kinds[f"_c{i}"] = kind
            else:
                self.kinds.pop(f"_c{i}", None)
            scope[param.name] = f"_c{i}"
        choices = "".join(f", {p.name!r}: _c{i}" for i, p in enumerate(action.params))
        lines = ["def play(_G, play):",
                 "    player = play.player",
                 f"    _acting = {acting_source('player')}",
                 "    # (the event's words and data are made when the trace is read: a play's player and",
                 "    # arguments, a card's title, do not change)",
                 f"    _G.events.append(({rule!r}, 'play', play, _acting, None))"]
        if action.params:
            lines.append(f"    {''.join(f'_c{i}, ' for i in range(len(action.params)))}= play.args")
        # (``Frame(_G, vars, rule, None, _acting)``, made in place: ``BareFrame``)
        lines += ["    _M = _G.modified",
                  "    f = _BareFrame()",
                  "    f.game = _G",
                  f"    f.vars = _V = {{{actor!r}: player{choices}}}",
                  f"    f.rule = {rule!r}",
                  "    f.this = None",
                  "    f.actor = _acting"]
        for k, stmt in enumerate(lets):
            # (its value may read the name it sets: the name is held in the new local only after)
            lines.append(f"    _V[{stmt.var!r}] = _let{k} = {self.inline(stmt.value, scope)}")
            scope[stmt.var] = f"_let{k}"
        lines += [f"    _G.exercised.update({self.constant(cites)})",
                  f"    {self.constant(body)}(f)"]
        return self.define("\n".join(lines) + "\n", "play", action.span)

    def state_check(self, check, body):
        """``poll(frame)`` for a state check (``whenever COND for p in players { BODY }``): for each
        item whose condition has just become true, run the body; remember which hold. ``frame`` has
        no variables and the check's rule."""
        outer = self.in_value, self.in_iterable, self.hoisted, self.depth
        self.in_value, self.in_iterable, self.hoisted, self.depth = False, 0, None, 0
        try:
            if check.iterable is not None:
                items = f"_as_list({self.iterable(check.iterable, {})})"
                local, scope = self._bind(check.var, {}, self.items_kind(check.iterable, {}))
            else:
                items, local, scope = "(None,)", "_item", {}
            condition = self.test(check.condition, scope)
        finally:
            self.in_value, self.in_iterable, self.hoisted, self.depth = outer
        into = f"{{{check.var!r}: {local}}}" if check.iterable is not None else "{}"
        return self.define("\n".join([
            "def poll(f):",
            "    _V = f.vars",
            "    _G = f.game",
            "    _M = _G.modified",
            "    _memory = _G.check_memory",
            f"    for {local} in {items}:",
            f"        _key = ({id(check)}, id({local}))",
            f"        if {condition}:",
            "            if not _memory.get(_key):",
            "                _memory[_key] = True",
            f"                _G.exercised.add({check.rule!r})",
            f"                {self.constant(body)}(_Frame(_G, {into}, {check.rule!r}))",
            "        else:",
            "            _memory[_key] = False",
        ]) + "\n", "poll", check.span)

    def constant(self, value) -> str:
        name = f"_k{len(self.env)}"
        self.env[name] = value
        return name

    def test(self, x, scope: dict) -> str:
        """``x`` as source for a place that asks only whether it holds (an ``if``, a filter, ``all``):
        ``and`` and ``or`` there need not make their operands ``True`` or ``False`` first."""
        if isinstance(x, A.Binary) and x.op in ("and", "or"):
            def written():
                return f"({self.test(x.left, scope)} {x.op} {self.test(x.right, scope)})"
        elif isinstance(x, A.Unary) and x.op != "-":
            def written():
                return f"(not {self.test(x.operand, scope)})"
        else:
            return self.write(x, scope)
        if self.depth >= _DEEPEST:
            return self.apart(x, scope, test=True)
        self.depth += 1
        try:
            return written()
        finally:
            self.depth -= 1

    def write(self, x, scope: dict) -> str:
        """``x`` as Python source; deeper than ``_DEEPEST`` nodes, a call of a function of its own
        (``apart``)."""
        if self.depth >= _DEEPEST and not isinstance(x, _LEAVES):
            return self.apart(x, scope)
        self.depth += 1
        try:
            return self._write(x, scope)
        finally:
            self.depth -= 1

    def _write(self, x, scope: dict) -> str:
        method = getattr(self, "w_" + type(x).__name__)
        if self.hoisted is not None and type(x) in (A.Name, A.Attr, A.Call, A.Binary) and self.choice_free(x, scope):
            # The same for every combination of a play's choices (the state stands still while plays are
            # offered): worked out where first needed, as written, then kept. Worked out no sooner, it
            # fails (a modifier making none + 1) where and when it would have failed. In a
            # comprehension's iterable, where ``:=`` is not allowed, it is kept in the dict ``_HI``.
            # (A name is read alike wherever it is read, but in a value's body.)
            key = (x, self.in_value, bool(self.in_iterable))
            local = self.hoisted.get(key)
            if local is None:
                local = self.hoisted[key] = f"{len(self.hoisted)}" if self.in_iterable else f"_h{len(self.hoisted)}"
            if self.in_iterable:
                return f"(_HI[{local}] if {local} in _HI else _HI.setdefault({local}, {method(x, scope)}))"
            return f"({local} if {local} is not _UNSET else ({local} := {method(x, scope)}))"
        return method(x, scope)

    def choice_free(self, x, scope) -> bool:
        """Whether ``x`` (a name, an attribute read, a call or a comparison) reads neither a choice nor a ``let`` of
        the play whose legal search is being written: a name or an attribute read that only reads
        (``plain_test``) the game's counters and zones and the player's (``p.gold``, ``p.hand``,
        ``active-player``); a value named without arguments; a call of a built-in or a value whose names
        are all the game's or the player (``left-end(p.locales)``, ``size(characters-in-play)``)."""
        if isinstance(x, (A.Call, A.Binary)):
            return all(scope.get(n, "player") == "player" for n in A.names_in(x))
        if isinstance(x, A.Name):
            if x.name in scope:
                return False
            gamedef = self.compiler.gamedef
            value = gamedef.values.get(x.name) if x.name not in gamedef.fields else None
            # (a value named without arguments sees only the state: ``michael``, ``victims-in-line``)
            return (value is not None and not value.params) or \
                self.compiler.global_kind(x.name) in ("field", "zone")
        return (isinstance(x.subject, A.Name) and scope.get(x.subject.name) == "player"
                and self.plain_test(x, scope))

    # -- leaves
    def w_Number(self, x, scope):
        return repr(x.value)

    def w_Text(self, x, scope):
        return repr(x.value)

    def w_Constant(self, x, scope):
        if x.value is None or isinstance(x.value, (bool, int, str)):
            return repr(x.value)
        return self.constant(x.value)

    def w_This(self, x, scope):
        return "f.this"

    def w_Name(self, x, scope):
        if x.name in scope:
            return scope[x.name]
        gamedef = self.compiler.gamedef
        if x.name in gamedef.values and x.name not in gamedef.fields:
            v = gamedef.values[x.name]
            self.value(v)
            outside = self.value_in_place(v, []) or f"_VALUES[{x.name!r}](f)"
        else:
            outside = self.global_name(x)
        if self.in_value:
            return outside         # a value sees its parameters and the state, not its reader's names
        return f"(_V[{x.name!r}] if {x.name!r} in _V else {outside})"

    def global_name(self, x) -> str:
        """A name that is not a variable, read as ``Compiler.global_name`` reads it."""
        n = x.name
        kind = self.compiler.global_kind(n)
        if kind == "field":
            return (f"(_G.apply_modifiers(('field', {n!r}), _G.state.fields[{n!r}]) if {n!r} in _M "
                    f"else _G.state.fields[{n!r}])")
        if kind == "zone":
            return f"_G.state.zones[{n!r}]"
        if kind == "constant":
            if n == "cards-in-play":
                return "_G.cards_in_play()"
            return f"{self.constant(CONSTANTS[n].fn)}(_G)"
        if kind == "board":
            return f"_G.boards[{n!r}]"
        if kind == "deck":
            return self.constant(self.compiler.gamedef.decks[n])
        if kind == "value":         # (a value named as a player's counter or flag is: not a variable)
            self.value(self.compiler.gamedef.values[n])
            return f"_VALUES[{n!r}](f)"
        return f"{self.constant(_no_value(n, x.span))}(f)"

    # -- compound
    def w_Attr(self, x, scope):
        """A card's attribute or a player's counter or flag read in place when no modifier is in
        force; anything else (a player's zone, a modified value, a wrong kind of subject) through the
        compiler's attribute reader."""
        read = self.constant(self.compiler.attribute_reader(x.name, x.span))
        subject = self.write(x.subject, scope)
        if subject.isidentifier() or subject == "f.this":
            first = obj = subject
        elif self.in_iterable:
            return f"{read}({subject}, f)"
        else:
            self.locals += 1
            obj = f"_a{self.locals}"
            first = f"({obj} := {subject})"
        n = x.name
        kind = self.kinds.get(obj) if first == obj else None
        if kind == "card":
            if n in _CARD_BUILTINS:     # never an attribute's name (S072), never changed by a statement
                return f"{obj}.{_CARD_BUILTINS[n]}"
            return f"({obj}.attrs.get({n!r}) if {n!r} not in _M else {read}({obj}, f))"
        if kind == "player":
            if n in self.player_fields:
                return f"({obj}.fields[{n!r}] if {n!r} not in _M else {read}({obj}, f))"
            if n in self.player_zones:
                return f"({obj}.zones[{n!r}] if {n!r} not in {obj}.fields else {read}({obj}, f))"
        if n in _CARD_BUILTINS:     # a card's own title, type, owner, zone, face-up (never an attribute's name)
            card = f"{obj}.{_CARD_BUILTINS[n]} if type({first}) is _Card"
        else:
            card = f"{obj}.attrs[{n!r}] if type({first}) is _Card and {n!r} in {obj}.attrs and {n!r} not in _M"
        if n in self.player_zones:  # every player has it (made at set-up), unless a counter or flag is so named
            player = f"{obj}.zones[{n!r}] if type({obj}) is _Player and {n!r} not in {obj}.fields"
        else:
            player = (f"{obj}.fields[{n!r}] if type({obj}) is _Player and {n!r} in {obj}.fields "
                      f"and {n!r} not in _M")
        return f"({card} else {player} else {read}({obj}, f))"

    def w_Index(self, x, scope):
        item = self.constant(_item(x.span))
        return f"{item}({self.write(x.subject, scope)}, {self.write(x.index, scope)}, f)"

    def w_Call(self, x, scope):
        if x.name == "first" and len(x.args) == 1 and isinstance(x.args[0], A.Quantified) \
                and x.args[0].kind == "those":
            those = x.args[0]
            local, inner = self._bind(those.var, scope, self.items_kind(those.iterable, scope))
            if self.plain_test(those.body, inner):
                # the first item that passes: the rest need not be looked at, since for none of them
                # could the test fail with an error or exercise a rule
                return f"next(({local} for {local} in {self.quantified_over(those, scope)} " \
                       f"if {self.test(those.body, inner)}), None)"
        args = [self.write(a, scope) for a in x.args]
        b = BUILTINS.get(x.name)
        if b is not None:
            return f"{self.constant(b.fn)}(_G{''.join(', ' + a for a in args)})"
        v = self.compiler.named_value(x)
        self.value(v)
        return self.value_in_place(v, args) or f"_VALUES[{x.name!r}](f{''.join(', ' + a for a in args)})"

    def value_in_place(self, v, args):
        """A named value read where it is read, as its function (``value``) would read it, when that
        is cheap and exact: its body is short and not remembered, and each argument
        is a Python local or a literal (written once per reading, it is read as often as the body
        reads it). None otherwise: then the value's function is called."""
        if (not all(a.isidentifier() or a in ("None", "True", "False") or _is_literal(a) for a in args)
                or _worth_remembering(v) or v.name in self.in_place):
            return None
        outer = self.in_value
        self.in_value = True
        self.in_place.add(v.name)
        try:
            scope = dict(zip(v.params, args))
            plain, modified = self.write(v.body, scope), self.write(v.body, scope)
        finally:
            self.in_place.discard(v.name)
            self.in_value = outer
        if len(plain) > _IN_PLACE_LENGTH:
            return None
        key = f"('value', {v.name!r}, ({''.join(a + ', ' for a in args)}))"
        return (f"({_exercising(v)}(_G.apply_modifiers({key}, {modified}) "
                f"if {v.name!r} in _M else {plain}))")

    def w_ListExpr(self, x, scope):
        return "[" + ", ".join(self.write(i, scope) for i in x.items) + "]"

    def w_Unary(self, x, scope):
        operand = self.write(x.operand, scope)
        return f"(-{operand})" if x.op == "-" else f"(not {operand})"

    def w_Binary(self, x, scope):
        op = x.op
        emptiness = self.emptiness(x, scope)
        if emptiness is not None:
            return emptiness
        left, right = self.write(x.left, scope), self.write(x.right, scope)
        if op == "/" or op == "%":
            return f"{self.constant(_divide(op, x.right.span))}({left}, {right}, f)"
        if op == "and":
            return f"(not not {left} and not not {right})"
        if op == "or":
            return f"(not not {left} or not not {right})"
        if op in ("in", "not in") and isinstance(x.right, A.ListExpr):     # ``_member`` of a list
            items = "".join(self.write(i, scope) + ", " for i in x.right.items)
            return f"({left} {op} ({items}))"
        if op in ("in", "not in") and self.is_zone(x.right, scope) and self.value_kind(x.left, scope) == "card":
            return f"({left}.zone is {'not ' if op == 'not in' else ''}{right})"     # a card is in the zone it records
        if op == "in":
            return f"_member({left}, {right})"
        if op == "not in":
            return f"(not _member({left}, {right}))"
        if op in _COMPARE or op in _PLAIN_ARITH:
            return f"({left} {op} {right})"
        raise AssertionError(f"the parser makes no operator {op!r}")

    def emptiness(self, x, scope):
        """``size(V) > 0`` (or ``!= 0``, ``>= 1``) and ``size(V) == 0`` (or ``< 1``) of a named value
        ``V`` without parameters whose body is ``those d in L: T``, as whether any item of ``L`` passes
        ``T``: looking no further than the first that does (AGoT's "an attachment attaches to a
        character, and there is none in play" asks so of every card a player might marshal). Written
        so only where the answer is the same: ``V`` is read as its function reads it (no modifier on
        it, the name no variable's) and ``T`` can neither fail with an error nor exercise a rule
        (``plain_test``), so that the items after the first that passes change nothing. None
        otherwise."""
        if isinstance(x.right, A.Call):
            x = A.Binary(x.span, {">": "<", "<": ">", ">=": "<=", "<=": ">="}.get(x.op, x.op), x.right, x.left)
        size, bound = x.left, x.right
        if not (isinstance(size, A.Call) and size.name == "size" and len(size.args) == 1
                and isinstance(size.args[0], A.Name) and isinstance(bound, A.Number)):
            return None
        empty = {("==", 0): True, ("<", 1): True, ("<=", 0): True,
                 (">", 0): False, ("!=", 0): False, (">=", 1): False}.get((x.op, bound.value))
        name = size.args[0].name
        gamedef = self.compiler.gamedef
        v = gamedef.values.get(name)
        if empty is None or v is None or name in gamedef.fields or name in scope or v.params \
                or (name in self.bound and not self.in_value) \
                or not (isinstance(v.body, A.Quantified) and v.body.kind == "those"):
            return None
        those = v.body
        outer = self.in_value
        self.in_value = True
        try:
            local, inner = self._bind(those.var, {}, self.items_kind(those.iterable, {}))
            if not self.plain_test(those.body, inner):
                return None
            over = self.looked_over(those.iterable, {})
            if over == "_G.cards_in_play_now()":
                # the cards in play zone by zone: the first that passes is often in the first zone looked
                # at, and the list of them all is made again after each card enters or leaves play
                zone = self.local("_z")
                found = (f"any({self.test(those.body, inner)} for {zone} in _G.in_play_zones() "
                         f"for {local} in {zone}.cards)")
            else:
                found = f"any({self.test(those.body, inner)} for {local} in {over})"
        finally:
            self.in_value = outer
        self.value(v)
        full = f"({self.write(x.left, scope)} {x.op} {self.write(bound, scope)})"
        return (f"({_exercising(v)}({full} if {name!r} in _M else "
                f"{'not ' if empty else ''}{found}))")

    def w_IsNone(self, x, scope):
        subject = self.write(x.subject, scope)
        if _is_literal(subject):        # a number or a text is never none (and Python warns at ``1 is None``)
            return repr(bool(x.negated))
        return f"({subject} is {'not ' if x.negated else ''}None)"

    def w_IfExpr(self, x, scope):
        c, t, o = self.test(x.condition, scope), self.write(x.then, scope), self.write(x.otherwise, scope)
        return f"({t} if {c} else {o})"

    def _bind(self, var: str, scope: dict, kind=None) -> tuple[str, dict]:
        self.locals += 1
        local = f"_q{self.locals}"
        if kind is not None:
            self.kinds[local] = kind
        return local, {**scope, var: local}

    def items_kind(self, x, scope) -> str | None:
        """``"card"`` when every item of the list or zone ``x`` is sure to be a card, ``"player"``
        when every item is sure to be a player, None when that cannot be told from the rules."""
        if isinstance(x, A.Name):
            if x.name in scope or (x.name in self.bound and not self.in_value):
                return None
            kind = self.compiler.global_kind(x.name)
            if kind == "zone":
                return "card"
            if kind == "constant":
                return _ITEMS.get(x.name)
            return None
        if isinstance(x, A.Attr):
            # a player's zone: ``p.hand`` (unless the player has a counter or flag so named); or, when no
            # card may hold an attribute so named, whatever its subject is: a player's zone, nothing
            # (a card's missing attribute) or an error
            if x.name in self.player_zones and x.name not in self.player_fields and (
                    self.value_kind(x.subject, scope) == "player"
                    or x.name not in card_attribute_names(self.compiler)):
                return "card"
            return None
        if isinstance(x, A.Call) and x.name in BUILTINS:
            if x.name in _ITEMS:
                return _ITEMS[x.name]
            if x.name in _SAME_ITEMS and x.args:
                kinds = {self.items_kind(a, scope) for a in x.args[:_SAME_ITEMS[x.name]]}
                return kinds.pop() if len(kinds) == 1 else None
            return None
        if isinstance(x, (A.Quantified, A.Ranked)) and x.kind in ("those", "highest", "lowest"):
            return self.items_kind(x.iterable, scope)
        return None

    def plain_test(self, x, scope) -> bool:
        """Whether working out ``x`` can neither fail with an error nor exercise a rule: it only
        compares (``==``, ``!=``, ``in``, ``is none``, ``and``, ``or``, ``not``) literals, variables,
        the game's counters and zones, and attributes read from what is sure to be a card, or a
        player's counters and zones."""
        if isinstance(x, (A.Number, A.Text, A.Constant)):
            return True
        if isinstance(x, A.Name):
            return x.name in scope or self.compiler.global_kind(x.name) in ("field", "zone", "constant")
        if isinstance(x, A.Attr):
            kind = self.value_kind(x.subject, scope)
            return kind == "card" or (kind == "player" and (x.name in self.player_fields
                                                            or x.name in self.player_zones))
        if isinstance(x, A.Binary):
            return x.op in ("and", "or", "==", "!=", "in", "not in") and \
                self.plain_test(x.left, scope) and self.plain_test(x.right, scope)
        if isinstance(x, A.Unary):
            return x.op != "-" and self.plain_test(x.operand, scope)
        if isinstance(x, A.IsNone):
            return self.plain_test(x.subject, scope)
        if isinstance(x, A.ListExpr):
            return all(self.plain_test(item, scope) for item in x.items)
        return False

    def is_zone(self, x, scope) -> bool:
        """Whether the value of ``x`` is sure to be a zone: a player's zone (``p.hand``) or the game's."""
        if isinstance(x, A.Name):
            return (x.name not in scope and not (x.name in self.bound and not self.in_value)
                    and self.compiler.global_kind(x.name) == "zone")
        return (isinstance(x, A.Attr) and x.name in self.player_zones and x.name not in self.player_fields
                and self.value_kind(x.subject, scope) == "player")

    def value_kind(self, x, scope) -> str | None:
        """``"card"`` or ``"player"`` when the value of ``x`` is sure to be one (never none)."""
        if isinstance(x, A.Name) and x.name in scope:
            return self.kinds.get(scope[x.name])
        return None

    def iterable(self, x, scope) -> str:
        self.in_iterable += 1
        try:
            return self.write(x, scope)
        finally:
            self.in_iterable -= 1

    def looked_over(self, x, scope) -> str:
        """Source for what a quantifier over ``x`` looks over, not copied (``state.items_of``): the cards in play
        as the game remembers them, when ``x`` names them; a zone's own cards for ``cards(ZONE)``, when
        ``ZONE`` is sure to be one (the built-in's copy, in the same order, is only looked at)."""
        if isinstance(x, A.Name) and x.name == "cards-in-play" and x.name not in scope \
                and not (x.name in self.bound and not self.in_value) \
                and self.compiler.global_kind(x.name) == "constant":
            return "_G.cards_in_play_now()"
        if isinstance(x, A.Call) and x.name == "cards" and len(x.args) == 1 and self.is_zone(x.args[0], scope):
            x = x.args[0]
        return self.over(self.iterable(x, scope), x, scope)

    def over(self, source: str, x, scope) -> str:
        """``items_of`` of ``x``, written as ``source``: a zone's cards read in place, and a list taken
        as it is, when ``x`` is sure to be one (``is_zone``, ``is_list``) or, read from a Python local,
        found to be one; else ``items_of`` called. (A comprehension's iterable, where most of these
        are written, may not use ``:=`` to look at a value's type before handing it on.)"""
        if self.is_zone(x, scope):
            return f"({source}).cards"
        if self.is_list(x):
            return source
        if source.isidentifier():     # (a Python local, read twice at no cost: a list taken as it is)
            return f"({source} if type({source}) is list else _over({source}))"
        return f"_over({source})"

    @staticmethod
    def is_list(x) -> bool:
        """Whether the value of ``x`` is sure to be a Python list: a call of a built-in that makes one
        (``_LISTS``)."""
        return isinstance(x, A.Call) and x.name in _LISTS and x.name in BUILTINS

    def quantified_over(self, x, scope) -> str:
        """Source for what the quantifier ``x`` looks over (``looked_over``): of the cards in play, only
        those of the title its test asks for first (``title_asked``), when it does."""
        over = self.looked_over(x.iterable, scope)
        title = self.title_asked(x) if over == "_G.cards_in_play_now()" else None
        if title is not None:
            # Only the cards of that title can pass the first test; every one of them is tested in full.
            # With no card in play, the title is not worked out: the test never reads it.
            over = f"(_G.cards_in_play_titled({self.iterable(title, scope)}) if _G.in_play_by_title() else ())"
        return over

    def w_Quantified(self, x, scope):
        over = self.quantified_over(x, scope)
        local, inner = self._bind(x.var, scope, self.items_kind(x.iterable, scope))
        body = self.write(x.body, inner) if x.kind == "total" else self.test(x.body, inner)
        loop = f"{local} in {over}"
        if x.kind == "every":
            return f"all({body} for {loop})"
        if x.kind == "any":
            return f"any({body} for {loop})"
        if x.kind == "count":
            return f"sum(1 for {loop} if {body})"
        if x.kind == "total":
            return f"sum({body} for {loop})"
        return f"[{local} for {loop} if {body}]"

    @staticmethod
    def title_asked(x):
        """The title a quantifier over the cards in play asks for first: ``t`` when its test begins
        ``d.title == t`` (or ``t == d.title``) and ``t`` does not read ``d``; else None. Such a
        quantifier looks only at the cards of that title (``Game.cards_in_play_titled``)."""
        if x.kind in ("total", "every"):     # (every card is tested: one of another title makes it false)
            return None
        first = x.body
        while isinstance(first, A.Binary) and first.op == "and":
            first = first.left
        if not (isinstance(first, A.Binary) and first.op == "=="):
            return None
        for mine, other in ((first.left, first.right), (first.right, first.left)):
            if isinstance(mine, A.Attr) and mine.name == "title" and isinstance(mine.subject, A.Name) \
                    and mine.subject.name == x.var and x.var not in A.names_in(other):
                return other
        return None

    def w_Ranked(self, x, scope):
        over = self.looked_over(x.iterable, scope)
        local, inner = self._bind(x.var, scope, self.items_kind(x.iterable, scope))
        key = self.write(x.key, inner)
        return f"_best({x.kind!r}, [({key}, {local}) for {local} in {over}])"
