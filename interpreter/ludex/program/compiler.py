"""Compile: AST expressions and statements in, Python closures out, built once per game.

An expression becomes ``fn(frame) -> value``; a statement ``fn(frame) -> None``. Every statement
runs under a guard that turns a wrong kind of value (a card where a number is needed, an empty
choice) into a positioned error naming the rule, never a Python traceback.

Where it gains, Python source is written instead of closures, with the closures' exact meaning:
expressions, named values and a play's requirements and legal plays (``codegen.py``), and whole
blocks of statements (``blocks.py``), which write the common statements in place and call the
closures here for the others. ``closure_block`` is the plain form of a block, kept as the reference
the written blocks are tested against.
"""

from __future__ import annotations

import operator
from itertools import repeat as _each_time
from operator import is_

from ..diagnostics import Diagnostic, ForcedPickRefused, LudexError, SourceError
from ..parse import ast as A
from ..runtime.builtins import BUILTINS, CONSTANTS, players_from, value_words
from ..runtime.operations import (
    DICE_LIMIT,
    abilities_of_kind,
    as_list,
    bounded,
    empty_turn,
    explain,
    forced_order,
    in_any_order,
    in_any_order_parts,
    initiated_words,
    is_hidden,
    make,
    order_abilities,
)
from ..runtime.records import Decision, Frame, GameOver, Goto, Modifier, Play, SkipStep, Violation, acting, held, kept
from ..runtime.state import Card, Player, Zone, words
from .expressions import ExpressionWriter
from .reads import card_attribute_names, watched
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
        """``run(frame)`` for a block of statements, written as one function (``blocks.py``); ``held``:
        the variables the frame is sure to hold as it starts, and what each is sure to be; ``jumps``:
        it is a rule's procedure, which may return a jump (``BlockWriter.block``)."""
        return self.blocks.block(body, held, jumps)

    def closure_block(self, body, held=None, jumps=False):
        """``run(frame)`` for a block of statements as a loop over their closures: each counted, guarded
        and followed by a poll of the state checks (what ``blocks.py`` writes in place). (Closures read
        every variable from the frame: ``held`` is not needed; their jumps are raised, ``jumps``
        or not.)"""
        steps = [(s, self.stmt(s)) for s in body]

        def run(f):
            game = f.game
            for node, step in steps:
                game.current_span = node.span
                game.steps += 1
                if game.steps > game.step_budget:
                    raise game.over_budget(f.rule)
                try:
                    step(f)
                except LudexError:
                    raise
                except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
                    raise game.error(f"this cannot be done with these values ({explain(exc)})", f.rule,
                                     node.span) from None
                if game.checked_at != game.version and game.checks and not game.simultaneous:
                    game.run_checks()      # only when the state has changed since they last looked
        return run

    def stmt(self, s):
        return getattr(self, "s_" + type(s).__name__)(s)

    # -- targets: something the rules change
    def target(self, x):
        """``locate(frame) -> (table, name, who)``: the dict holding a counter, supply, role, flag or
        attribute, its key, and how the trace names it."""
        if isinstance(x, A.Name):
            n = x.name

            def locate_game(f):
                game = f.game
                if n in game.state.fields:
                    return game.state.fields, n, n
                raise game.error(f"'{n}' is not part of the game state", f.rule, x.span)
            return locate_game
        if isinstance(x, A.Attr):
            subject, n = self.expr(x.subject), x.name
            # the names of players' zones that no card type gives an attribute
            zone_names = self.writer.player_zones - card_attribute_names(self)

            def locate(f):
                game = f.game
                obj = subject(f)
                if type(obj) is Player:
                    if n in obj.zones:
                        raise game.error(f"{obj.name}'s {n} is a zone: it holds cards and cannot be set", f.rule,
                                         x.span)
                    return obj.fields, n, obj.name
                if type(obj) is Card:
                    if n in ("title", "type", "owner", "zone", "face-up"):
                        raise game.error(f"{obj.title}'s {n} is its own and cannot be changed", f.rule, x.span)
                    if n in zone_names:
                        raise game.error(f"{obj.title} has no attribute '{n}' ('{n}' is a player's zone)", f.rule,
                                         x.span)
                    return obj.attrs, n, obj.title
                raise game.error(f"{words(obj)} has no '{n}' to change", f.rule, x.span)
            return locate
        raise AssertionError("the checker admits only names and attributes as targets")

    def _bounded(self, f, bound_name, value, what, span):
        bounded(f, bound_name, value, what, span)

    def s_Let(self, s):
        value, var = self.expr(s.value), s.var

        def let(f):
            f.vars[var] = value(f)
        return let

    def watches(self, *names) -> bool:
        """Whether a state check reads one of these names (a write counts in ``Game.watched_writes``)."""
        names_read = watched(self)
        return names_read is not None and any(n in names_read for n in names)

    def s_Set(self, s):
        locate = self.target(s.target)
        value = self.expr(s.value) if s.value is not None else None
        watches = self.watches(s.target.name)
        unrefused = self.blocks.unrefused([s.target.name])

        def set_(f):
            game = f.game
            table, n, who = locate(f)
            old = table.get(n)
            secret = bool(game.hidden_attributes) and is_hidden(game, table, n)
            if value:
                new = value(f)
            else:      # clear: a flag becomes false, a counter 0, a role or attribute none
                new = False if isinstance(old, bool) else 0 if isinstance(old, int) else None
            if n in game.state.bounds:
                self._bounded(f, n, new, held(who, n), s.span)
            if n not in table:
                game.reshaped += 1
                game.watched_writes += 1
            game.written[n] = game.version
            if watches:
                game.watched_writes += 1
            if unrefused:
                game.bounds_written += 1
            table[n] = new
            if old is not new and not (type(old) is type(new) and old == new):     # a change, not a re-set
                if secret:
                    game.record(f.rule, "set", f"{held(who, n)} changes (hidden)", f.actor, hidden=True)
                else:       # (its words made when the trace is read, a list's now)
                    game.record(f.rule, "set", ("set", who, n, words(old) if type(old) is list else old,
                                                words(new) if type(new) is list else new), f.actor)
        return set_

    def s_Change(self, s):
        locate = self.target(s.target)
        amount, sign = self.expr(s.amount), s.sign
        watches = self.watches(s.target.name)
        unrefused = self.blocks.unrefused([s.target.name])

        def change(f):
            game = f.game
            table, n, who = locate(f)
            old = table.get(n) or 0
            new = old + sign * amount(f)
            if n in game.state.bounds:
                self._bounded(f, n, new, held(who, n), s.span)
            if n not in table:
                game.reshaped += 1
                game.watched_writes += 1
            game.written[n] = game.version
            if watches:
                game.watched_writes += 1
            if unrefused:
                game.bounds_written += 1
            table[n] = new
            game.record(f.rule, "change", ("change", who, n, old, new), f.actor)
        return change

    def s_Transfer(self, s):
        amount = self.expr(s.amount)
        source, destination = self.target(s.source), self.target(s.destination)
        watches = self.watches(s.source.name, s.destination.name)
        unrefused = self.blocks.unrefused([s.destination.name], s.source.name)

        def transfer(f):
            game = f.game
            n = amount(f)
            src, src_name, src_who = source(f)
            dst, dst_name, dst_who = destination(f)
            have = src.get(src_name) or 0
            if n < 0:
                raise game.error(f"cannot transfer a negative amount ({n})", f.rule, s.span)
            if have < n:
                raise game.error(f"{held(src_who, src_name)} holds {have}, not the {n} to transfer", f.rule,
                                 s.span)
            after = (dst.get(dst_name) or 0) + n
            self._bounded(f, dst_name, after, held(dst_who, dst_name), s.span)
            if src_name not in src or dst_name not in dst:
                game.reshaped += 1
                game.watched_writes += 1
            game.written[src_name] = game.written[dst_name] = game.version
            if watches:
                game.watched_writes += 1
            if unrefused:
                game.bounds_written += 1
            src[src_name] = have - n
            dst[dst_name] = after
            game.record(f.rule, "transfer", ("transfer", n, src_who, src_name, dst_who, dst_name, after), f.actor,
                        amount=n)
        return transfer

    def s_Move(self, s):
        cards, dest, place = self.expr(s.cards), self.expr(s.destination), s.place

        def move(f):
            game = f.game
            zone = dest(f)
            if not isinstance(zone, Zone):
                raise game.error(f"{words(zone)} is not a zone", f.rule, s.span)
            for card in as_list(cards(f)):
                if not isinstance(card, Card):
                    raise game.error(f"{words(card)} is not a card", f.rule, s.span)
                source = card.zone
                game.move_card(card, zone, place)
                shown = card.title if not (zone.hidden and source is not None and source.hidden) else "a card"
                game.record(f.rule, "move", ("move", shown, source.label if source is not None else None, zone.label),
                            f.actor, card=card.id)
        return move

    def s_Draw(self, s):
        amount, src, dst = self.expr(s.amount), self.expr(s.source), self.expr(s.destination)

        def draw(f):
            game = f.game
            n, source, dest = amount(f), src(f), dst(f)
            if n < 0:
                raise game.error(f"cannot draw a negative number of cards ({n})", f.rule, s.span)
            drawn = 0
            for _ in range(n):
                if not source.cards:
                    break
                game.move_card(source.cards[0], dest, "bottom")
                drawn += 1
            who = source.owner.name + " " if source.owner else ""
            short = f" ({source.label} was empty after {drawn})" if drawn < n else ""
            game.record(f.rule, "draw", f"{who}draws {drawn} card{'s' if drawn != 1 else ''} from {source.label} "
                        f"to {dest.label}{short}", source.owner, count=drawn)
        return draw

    def s_Create(self, s):
        cards, dst = self.expr(s.cards), self.expr(s.destination)

        def create(f):
            game = f.game
            zone = dst(f)
            value = cards(f)
            titles = []
            if isinstance(value, A.Deck):
                for count, title in value.entries:
                    titles += [title] * count
            else:
                titles = [value] if isinstance(value, str) else list(value)
            game.create_cards(titles, zone.owner, zone, f.rule)
            game.record(f.rule, "create", f"{len(titles)} card{'s' if len(titles) != 1 else ''} into {zone}", f.actor)
        return create

    def s_Shuffle(self, s):
        zone_of = self.expr(s.zone)

        def shuffle(f):
            game = f.game
            zone = zone_of(f)
            forced, was_forced = game._forced(f"order {zone}")
            if was_forced:
                zone.cards[:] = forced_order(zone.cards, forced)
            else:
                game.rng.shuffle(zone.cards)
            game.zone_reordered(zone)
            game.record(f.rule, "random", f"{zone} is shuffled" + (" (order fixed by the scenario)"
                                                                  if was_forced else ""), f.actor, random="shuffle")
        return shuffle

    def s_Reveal(self, s):
        cards = self.expr(s.cards)
        watches = self.watches("face-up")
        handlers = self.triggers.get(("named", "", "revealed"))

        def reveal(f):
            game = f.game
            for card in as_list(cards(f)):
                if type(card) is not Card:
                    raise game.error(f"only a card is revealed, not {value_words(card)}", f.rule, s.span)
                if not card.face_up:
                    card.face_up = True
                    game.written["face-up"] = game.version
                    if watches:
                        game.watched_writes += 1
                    game.version += 1
                owner = card.owner.name if card.owner else None
                # (``Game.emit``, written in place)
                game.events.append((f.rule, "event", ("revealed", owner, card.title), "",
                                    {"event": "named  revealed"}))
                if handlers:
                    game.run_triggers(handlers, "named", f.rule, (card,))
        return reveal

    def s_Conceal(self, s):
        cards = self.expr(s.cards)
        watches = self.watches("face-up")

        def conceal(f):
            game = f.game
            for card in as_list(cards(f)):
                if type(card) is not Card:
                    raise game.error(f"only a card is turned face down, not {value_words(card)}", f.rule, s.span)
                if card.face_up:
                    card.face_up = False
                    game.written["face-up"] = game.version
                    if watches:
                        game.watched_writes += 1
                    # in a hidden zone the others see no card's face: the trace does not name it
                    zone = card.zone
                    shown = f"a card in {zone}" if zone is not None and zone.hidden else card.title
                    game.record(f.rule, "conceal", f"{shown} is turned face down", f.actor, card=card.id)
        return conceal

    def s_Emit(self, s):
        args, name = [self.expr(a) for a in s.args], s.event
        label = f"named  {name}".strip()        # (as ``Game.emit`` would make it)
        handlers = self.triggers.get(("named", "", name))

        def emit(f):
            values = tuple(a(f) for a in args)      # each worked out once, for the triggers and the words
            # (``Game.emit``, written in place: its words made when the trace is read, a list's now)
            game = f.game
            game.events.append((f.rule, "event", ("named", name, values if list not in map(type, values)
                                                  else kept(values)), "", {"event": label}))
            if handlers:
                game.run_triggers(handlers, "named", f.rule, values)
        return emit

    def s_Milestone(self, s):
        edge, kind, name = s.edge, s.kind, s.name
        text = f"{name} phase {'begins' if edge == 'begin' else 'ends'}" if kind == "phase" else \
            f"the {kind} {'begins' if edge == 'begin' else 'ends'}"
        label = f"{edge} {kind} {name}".strip()
        if kind == "game" or (edge, kind) == ("begin", "round"):
            # the state checks start, waiting modifiers start to apply, or the game ends: ``Game.emit``
            return lambda f: f.game.emit(edge, kind, name, (), f.rule, text, label)
        handlers = self.triggers.get((edge, kind, name))
        ending = edge == "end"

        def milestone(f):
            # (``Game.emit``, written in place: traced, its triggers run, then, at an end, the modifiers
            # lasting until it expire)
            game, rule = f.game, f.rule
            game.events.append((rule, "event", text, "", {"event": label}))
            if handlers:
                game.run_triggers(handlers, edge, rule, ())
            if ending and game.modifiers:
                game.expire(kind, name, rule)
        return milestone

    def s_If(self, s):
        branches = [(self.expr(c), self.block(b)) for c, b in s.branches]
        otherwise = self.block(s.otherwise) if s.otherwise else None

        def if_(f):
            for condition, body in branches:
                if condition(f):
                    body(f)
                    return
            if otherwise:
                otherwise(f)
        return if_

    def s_ForEach(self, s):
        iterable, body, var = self.expr(s.iterable), self.block(s.body), s.var

        def for_each(f):
            game = f.game
            items = as_list(iterable(f))
            if s.simultaneous:
                game.simultaneous += 1
            try:
                for item in items:
                    f.vars[var] = item
                    body(f)
            finally:
                if s.simultaneous:
                    game.simultaneous -= 1
            if s.simultaneous:
                game.run_checks()
        return for_each

    def s_Repeat(self, s):
        body, until = self.block(s.body), self.expr(s.until) if s.until else None

        if not s.body:
            body = empty_turn

        def repeat(f):
            while True:
                body(f)
                if until is not None and until(f):
                    return
        return repeat

    def s_While(self, s):
        condition, body = self.expr(s.condition), self.block(s.body)
        if not s.body:
            body = empty_turn

        def while_(f):
            while condition(f):
                body(f)
        return while_

    def s_Goto(self, s):
        target, span, word = s.target, s.span, s.word

        def goto(f):
            raise Goto(target, span, f.rule, word)
        return goto

    def s_Skip(self, s):
        span = s.span

        def skip(f):
            raise SkipStep(f.rule, span)
        return skip

    def s_Run(self, s):
        target = s.target
        return lambda f: f.game.run_rule(target, f)

    # -- decisions
    def _decide(self, f, chooser, kind, options, prompt, hidden, span):
        player = chooser(f)
        game = f.game
        # (an agent that answers from the options alone is asked so, with no Decision made; ``decide``
        # refuses a choice with no option)
        answer_from = getattr(game.agent, "answer_from", None)
        if answer_from is not None and options and kind != "order":
            return answer_from(options)
        return game.decide(Decision(player, kind, options, f.rule, prompt, hidden, span))

    def s_Choose(self, s):
        chooser, options = self.expr(s.chooser), self.expr(s.options)

        def choose(f):
            game = f.game
            opts = as_list(options(f))
            answer = self._decide(f, chooser, "choose", opts, s.prompt or f"choose {s.var}", s.hidden, s.span)
            f.vars[s.var] = answer
            who = chooser(f)
            if s.hidden:       # neither the words nor the data say what was chosen
                game.record(f.rule, "decision", f"{who} chooses a card (hidden)" if isinstance(answer, Card) else
                            f"{who} makes a hidden choice", who, hidden=True)
            else:
                game.record(f.rule, "decision", f"{who} chooses {words(answer)}", who, choice=words(answer),
                            hidden=False)
        return choose

    def s_ChooseNumber(self, s):
        chooser, low, high = self.expr(s.chooser), self.expr(s.low), self.expr(s.high)

        def choose_number(f):
            game = f.game
            opts = list(range(low(f), high(f) + 1))
            answer = self._decide(f, chooser, "number", opts, s.prompt or f"choose {s.var}", False, s.span)
            f.vars[s.var] = answer
            game.record(f.rule, "decision", f"{chooser(f)} chooses {answer}", chooser(f), choice=answer)
        return choose_number

    def s_Order(self, s):
        chooser, options = self.expr(s.chooser), self.expr(s.options)

        def order(f):
            game = f.game
            opts = as_list(options(f))
            answer = opts if len(opts) < 2 else self._decide(f, chooser, "order", opts, s.prompt or "order",
                                                           False, s.span)
            f.vars[s.var] = list(answer)
            if len(opts) > 1:
                game.record(f.rule, "decision", f"{chooser(f)} orders {words(list(answer))}", chooser(f))
        return order

    def s_May(self, s):
        chooser, body = self.expr(s.chooser), self.block(s.body)
        otherwise = self.block(s.otherwise) if s.otherwise else None

        def may(f):
            game = f.game
            answer = self._decide(f, chooser, "may", [True, False], s.prompt, False, s.span)
            game.record(f.rule, "decision", f"{chooser(f)} answers {words(bool(answer))}: {s.prompt}", chooser(f))
            if answer:
                body(f)
            elif otherwise:
                otherwise(f)
        return may

    def s_Pick(self, s):
        options = self.expr(s.options)

        def pick(f):
            game = f.game
            opts = as_list(options(f))
            if not opts:
                raise game.error("nothing to pick from at random", f.rule, s.span)
            forced, was_forced = game._forced("pick")
            if was_forced:
                matches = [o for o in opts if words(o) == forced or o == forced]
                if not matches:
                    error = game.error(f"the random pick is fixed to {forced}, which is not one of "
                                       f"{words(opts)}", f.rule, s.span)
                    raise ForcedPickRefused(error.diagnostics, forced, words(opts))
                answer = matches[0]
            else:
                answer = opts[game.rng.randrange(len(opts))]
            f.vars[s.var] = answer
            game.record(f.rule, "random", f"{words(answer)} is picked at random from {words(opts)}",
                        f.actor, random="pick", choice=words(answer))
        return pick

    def s_Roll(self, s):
        count = self.expr(s.count)

        def roll(f):
            game = f.game
            dice = game.gamedef.dice[s.dice]
            n = count(f)
            if n < 0:
                raise game.error(f"cannot roll a negative number of dice ({n})", f.rule, s.span)
            if n > DICE_LIMIT:
                raise game.error(f"cannot roll {n} dice: a roll has at most {DICE_LIMIT}", f.rule, s.span)
            faces = []
            for _ in range(n):
                forced, was_forced = game._forced(f"dice {s.dice}")
                faces.append(forced if was_forced else dice.faces[game.rng.randrange(len(dice.faces))])
            f.vars[s.var] = faces
            game.record(f.rule, "random", f"{n} {s.dice} dice roll {', '.join(faces)}", f.actor, random="dice",
                        faces=faces)
        return roll

    # -- windows and turns
    def s_Window(self, s):
        starting = self.expr(s.starting)
        names = [a for part in A.menu_parts(s.menu) for a in part.actions]
        plays = [n for n in names if n != "pass"]
        closes = f"{s.name} closes: every player passed in a row"
        empty = f"{s.name} closes: no player is left in the game to act"
        prompt, span = s.name, s.span

        def window(f):
            game = f.game
            rule = f.rule
            start = starting(f)
            order = players_from(game, start)
            game.events.append((rule, "window", f"{s.name} opens; {start} acts first", "", None))
            passing = game.passes           # each player's pass, made once a game
            passes, i, seats = 0, 0, len(order)
            active = sum(1 for p in order if not p.eliminated)
            seen = game.eliminations
            # (``legal_plays`` in place: each play's legal search, found once for the window)
            searches = [game.actions[name].legal for name in plays]
            only = searches[0] if len(searches) == 1 else None
            agent = game.agent
            # (an agent that answers from the options alone is asked so, with no Decision made)
            answer_from = getattr(agent, "answer_from", None)
            while active:
                player = order[i % seats]
                i += 1
                if player.eliminated:
                    continue
                game.steps += 1
                if game.steps > game.step_budget:
                    raise game.over_budget(rule)
                if only is not None:
                    options = only(game, player)
                else:
                    options = []
                    for search in searches:
                        options += search(game, player)
                options.append(passing[player.seat])
                choice = answer_from(options) if answer_from is not None else \
                    agent(game, Decision(player, "play", options, rule, prompt, False, span))
                if choice.action == "pass":
                    who = choice.player
                    name = who.name if type(who) is Player else (who or "")
                    game.events.append((rule, "pass", f"{name or who} passes", name, None))
                    passes += 1
                else:
                    try:
                        if choice.action not in names:
                            raise Violation(rule, f"{choice.action} is not a play this window allows "
                                            f"({', '.join(names)} or pass)", choice, span)
                        make(game, choice, options, rule)
                    except Violation as refused:
                        if not game.may_choose_again(refused, player):
                            raise
                        i -= 1                  # refused and taken back: the same player chooses again
                        continue
                    passes = 0
                if game.checked_at != game.version and game.checks:
                    game.run_checks()
                if game.eliminations != seen:      # a play or a check eliminated a player
                    seen = game.eliminations
                    active = sum(1 for p in order if not p.eliminated)
                if passes >= active:
                    break
            game.events.append((rule, "window", closes if active else empty, "", None))
        return window

    def s_Turn(self, s):
        player_of = self.expr(s.player)
        #: each part of the menu, whether it ends after ``n`` plays, and whether the player may pass
        parts = [(part, getattr(part, "count", "") in ("one", "n", "up-to"), getattr(part, "count", "") in ("any", "up-to"))
                 for part in s.menu]
        #: how the trace words a pass that ends a part with more parts after it: "ann passes, on to
        #: perform-function" (a pass in the last part ends the turn: "ann passes")
        on_to = [", on to " + " or ".join(a for p in A.menu_parts([later]) for a in p.actions)
                 if later is not None else "" for later in [part for part, _, _ in parts[1:]] + [None]]
        begun, ended = self.triggers.get(("begin", "turn", "")), self.triggers.get(("end", "turn", ""))
        #: for each part made of parts joined by 'and', which of them each play belongs to
        part_of = {id(part): in_any_order_parts(part) for part, _, _ in parts if type(part) is A.InAnyOrder}

        def turn(f):
            game = f.game
            player = player_of(f)
            if type(player) is Player and player.eliminated:
                # out of the game: no turn (a 'for each' over the players listed before the
                # elimination still names them)
                game.record(f.rule, "log", f"{player} is out of the game: no turn", player)
                return
            actions = game.actions
            prompt = f"{player}'s turn"
            # (an agent that answers from the options alone is asked so, with no Decision made; ``decide``
            # refuses a play with no option)
            answer_from = getattr(game.agent, "answer_from", None)
            # (``Game.emit``, written in place, here and where the turn ends)
            game.events.append((f.rule, "event", f"{player}'s turn begins", "", {"event": "begin turn"}))
            if begun:
                game.run_triggers(begun, "begin", f.rule, (player,))
            for (part, limited, optional), then in zip(parts, on_to):
                if type(part) is A.InAnyOrder:
                    in_any_order(f, game, player, part, then, s.span, part_of[id(part)])
                    continue
                used, made = set(), 0
                names = part.actions
                while True:
                    if getattr(player, "eliminated", False):
                        break               # eliminated during the turn: it ends here
                    if limited and made >= part.n:
                        break
                    if used and not part.repeats:
                        names = [a for a in part.actions if a not in used]
                    options = game.legal_plays(player, names)
                    may_pass = optional or "pass" in names
                    if may_pass:
                        options.append(game.passes[player.seat])
                    game.steps += 1
                    if game.steps > game.step_budget:
                        raise game.over_budget(f.rule)
                    choice = answer_from(options) if answer_from is not None and options else \
                        game.decide(Decision(player, "play", options, f.rule, prompt, False, s.span))
                    if choice.player is not player:
                        raise Violation(f.rule, f"it is {player}'s turn, not {choice.player}'s", choice, s.span)
                    try:
                        if not (choice.action == "pass" and may_pass) and choice.action not in names:
                            allowed = ", ".join(list(names) + (["pass"] if may_pass else []))
                            raise Violation(f.rule, f"{choice.action} is not a play of this part of the turn "
                                            f"(now: {allowed})", choice, s.span)
                        if choice.action != "pass" and any(map(is_, options, _each_time(choice))):
                            actions[choice.action].play(game, choice)     # one of those offered: legal
                        elif choice.action == "pass" and then and (optional or made + 1 >= part.n):
                            # (a pass that ends its part: one that counts as a play of a part of
                            # '2 of flip, pass' leaves the player in it)
                            game.record(f.rule, "pass", f"{player} passes{then}", player)
                        else:
                            game.attempt(choice, f.rule)
                    except Violation as refused:
                        if not game.may_choose_again(refused, player):
                            raise
                        continue                # refused and taken back: the player chooses again
                    if choice.action == "pass":
                        if optional:
                            break
                    used.add(choice.action)
                    made += 1
                    if game.checked_at != game.version and game.checks:
                        game.run_checks()
            game.events.append((f.rule, "event", f"{player}'s turn ends", "", {"event": "end turn"}))
            if ended:
                game.run_triggers(ended, "end", f.rule, (player,))
            if game.modifiers:
                game.expire("turn", "", f.rule)
        return turn

    def s_Perform(self, s):
        args, actor = [self.expr(a) for a in s.args], self.expr(s.actor)

        def perform(f):
            game = f.game
            play = Play(s.action, actor(f), tuple(a(f) for a in args))
            try:
                game.attempt(play, f.rule)
            except Violation as v:
                raise game.error(f"rule {f.rule} makes a play that rule {v.rule} refuses: {v.message}", f.rule,
                                 s.span) from None
        return perform

    def s_Initiate(self, s):
        cards = self.expr(s.cards)
        ordered_by = self.expr(s.ordered_by) if s.ordered_by is not None else None
        kind = s.ability.lower()
        gamedef_cards = self.gamedef.cards
        of_title: dict = {}     # a card's title -> its abilities of this kind, found when first met

        def initiate(f):
            game = f.game
            found = []
            for card in as_list(cards(f)):
                if type(card) is not Card:
                    raise game.error(f"only a card's abilities initiate, not {value_words(card)}'s", f.rule, s.span)
                abilities = of_title.get(card.title)
                if abilities is None:
                    definition = gamedef_cards.get(card.title)
                    abilities = of_title[card.title] = abilities_of_kind(definition, kind) if definition else ()
                for ability in abilities:
                    found.append((card, ability))
            if len(found) > 1 and ordered_by is not None:
                found = order_abilities(f, found, ordered_by(f), s.ability, s.span)
            for card, ability in found:
                # the ability's events name its card's owner as acting (a card no one owns: whoever acts)
                owner = card.owner
                whose = f"{owner}'s {card.title}" if owner is not None else card.title
                actor = acting(owner) or f.actor
                game.record(f.rule, "ability", whose + initiated_words(ability), actor)
                self.ability_body(ability)(Frame(game, {}, f.rule, card, actor))
        return initiate

    def ability_body(self, ability):
        """A card ability's body as a block, compiled when it is first initiated, not as the statement
        that initiates it is compiled (an ability may initiate abilities itself); one for every
        ``initiate``, closure or written (``blocks._Initiated``)."""
        body = self._abilities.get(id(ability))
        if body is None:
            body = self._abilities[id(ability)] = self.block(ability.body)
        return body

    def s_Require(self, s):
        condition = self.expr(s.condition)

        def require(f):
            f.game.exercised.add(s.cite)
            if not condition(f):
                raise Violation(s.cite, s.message, None, s.span)
        return require

    def s_Modify(self, s):
        value, d = self.expr(s.value), s.duration
        key_of = self._modifier_key(s.target)

        def modify(f):
            game = f.game
            key, about = key_of(f)
            ends = (d.milestone, d.name)
            pending = d.kind == "for_next"
            if pending and d.milestone != "round":
                raise game.error("'for next' lasts a round: write 'for next round'", f.rule, s.span)
            modifier = Modifier(key, s.op, value(f), f.rule, ends, pending, about)
            game.add_modifier(modifier)
            when = {"until_end": f"until the end of the {d.milestone}", "for_this": f"for this {d.milestone}",
                    "for_next": f"for the next {d.milestone}"}[d.kind]
            game.record(f.rule, "modifier", f"modifier: {modifier.describe()} {when}", f.actor)
        return modify

    def _modifier_key(self, x):
        """``fn(frame) -> (key, words)``: what a modifier on ``x`` modifies, as the key reads of it are
        modified by and in the trace's words (``income(ann)``, ``Eddard Stark's strength``)."""
        if isinstance(x, A.Call):
            args = [self.expr(a) for a in x.args]

            def value_key(f):
                values = tuple(a(f) for a in args)
                return (("value", x.name, values),
                        f"{x.name}({', '.join(words(v) for v in values)})" if values else x.name)
            return value_key
        if isinstance(x, A.Name):
            if x.name in self.gamedef.values:
                return lambda f: (("value", x.name, ()), x.name)
            return lambda f: (("field", x.name), x.name)
        subject = self.expr(x.subject)

        def attr_key(f):
            obj = subject(f)
            return ("attr", obj.name if isinstance(obj, Player) else obj.id, x.name), f"{obj}'s {x.name}"
        return attr_key

    # -- game end
    def s_Win(self, s):
        players = self.expr(s.players)

        def win(f):
            game = f.game
            winners = as_list(players(f))
            game.winners = winners
            if not winners:         # 'win' of an empty list or none: the game ends with no winner
                text = "the game ends with no winner (a draw)"
            else:
                text = (f"{words(winners) if len(winners) != 1 else winners[0]} "
                        f"win{'s' if len(winners) == 1 else ''} the game")
            game.record(f.rule, "win", text, f.actor)
            raise GameOver(winners)
        return win

    def s_Eliminate(self, s):
        players = self.expr(s.players)

        def eliminate(f):
            game = f.game
            for p in as_list(players(f)):
                if not p.eliminated:
                    p.eliminated = True
                    game.eliminations += 1
                    game.watched_writes += 1
                    game.record(f.rule, "eliminate", f"{p} is eliminated from the game", p)
        return eliminate

    def s_Log(self, s):
        return lambda f: f.game.record(f.rule, "log", s.message, f.actor)
