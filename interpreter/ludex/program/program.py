"""The program: a checked ``GameDef`` in, its rules compiled once out (``Program``), shared by every
game of them played: the procedure of each rule, the plays (``CompiledAction``), triggers, state checks,
values and card attributes. A ``Game`` (``engine/game.py``) holds only its state and runs these.
"""

from __future__ import annotations

from typing import Optional

from ..diagnostics import source_text
from ..parse import ast as A
from ..parse.definition import GameDef
from ..runtime.board import Board
from ..runtime.records import Frame, Play, Violation, _words, acting
from ..runtime.state import items_of
from .compiler import Compiler
from .reads import check_bits


class CompiledAction:
    """A play's parameters, requirements and effect, compiled once for every game of its rules."""

    def __init__(self, compiler: "Compiler", action: A.Action):
        self.node = action
        self.compiler = compiler
        self._because: dict = {}        # id() of a requirement -> its reasons (``because``)
        self.domains = [(p, compiler.expr(p.domain) if p.domain is not None else None) for p in action.params]
        leading = []
        rest_start = 0
        for i, s in enumerate(action.body):
            if isinstance(s, (A.Let, A.Require)):
                leading.append(s)
                rest_start = i + 1
            else:
                break
        self.requirements = [(s, compiler.expr(s.value if isinstance(s, A.Let) else s.condition))
                             for s in leading]
        self.checks = _lets_where_needed(self.requirements)
        self.failing = compiler.writer.requirements([(is_let, stmt) for is_let, stmt, _ in self.checks],
                                                    action.span)
        self.param_names = [p.name for p in action.params]
        #: ``legal(game, player) -> [Play, ...]``: the plays this player may make with it now (``allows``
        #: over ``candidates``), written as one function (``ExpressionWriter.legal``)
        self.legal = compiler.writer.legal(action, [(is_let, stmt) for is_let, stmt, _ in self.checks],
                                           action.rule or action.cite)
        # The body starts with the player, the arguments and the lets in the frame (``perform``): the
        # player is a player, and an argument from a zone's cards or the players is one of them.
        writer = compiler.writer
        held = {action.actor: "player"}
        held.update((p.name, writer.items_kind(p.domain, {action.actor: "player"}) if p.domain is not None
                     else "player" if p.type == "player" else None) for p in action.params)
        held.update((s.var, None) for s in leading if isinstance(s, A.Let))
        self.body = compiler.block(action.body[rest_start:], held)
        self.rule = action.rule or action.cite
        #: the leading lets, worked out again when the play is made; the rules its requirements cite
        self.lets = [(stmt.var, fn) for stmt, fn in self.requirements if isinstance(stmt, A.Let)]
        self.cites = {stmt.cite for stmt, _ in self.requirements if not isinstance(stmt, A.Let)} | {self.rule}
        #: ``play(game, play)``: make a play known to be legal now (one of those its legal search just
        #: offered): recorded, then performed as ``perform`` performs it, written as one function
        #: (``ExpressionWriter.play``)
        self.play = writer.play(action, [stmt for stmt, _ in self.requirements if isinstance(stmt, A.Let)],
                                self.rule, self.cites, self.body)

    def rule_of_play(self) -> str:
        return self.rule

    def candidates(self, game, player):
        frame = Frame(game, {self.node.actor: player}, self.rule)
        pools = []
        for param, domain in self.domains:
            if domain is None:
                pool = list(game.state.players) if param.type == "player" else []
            else:
                pool = items_of(domain(frame))
            pools.append(pool)
        combos = [()]
        for pool in pools:
            combos = [c + (x,) for c in combos for x in pool]
        return combos

    def _failing(self, game, player, args, frame=None):
        """The first requirement that does not hold for this play, or None; ``frame``: the frame to
        check it in (its lets are left in it)."""
        if frame is None:
            frame = self._frame(game, player, args)
        failing = self.failing(frame)
        if failing < 0:
            return None
        stmt = self.checks[failing][1]
        game.exercised.add(stmt.cite)
        return stmt

    def _frame(self, game, player, args):
        vars = {self.node.actor: player}
        for name, arg in zip(self.param_names, args):
            vars[name] = arg
        return Frame(game, vars, self.rule)

    def outside_choices(self, game, player, args) -> Optional[Violation]:
        """A refusal when an argument is not among the play's choices (``c: card from p.hand``), cited
        to the play's rule; None when every argument is."""
        frame = Frame(game, {self.node.actor: player}, self.rule)
        play = None
        for (param, domain), arg in zip(self.domains, args):
            if domain is None:
                if param.type != "player" or arg in game.state.players:
                    continue
                where = "a player"
            else:
                if arg in items_of(domain(frame)):
                    continue
                where = source_text(param.domain, "its choices")
            play = play or Play(self.node.name, player, tuple(args))
            return Violation(self.rule, f"{_words(arg)} is not one of the choices for {self.node.name}'s "
                             f"{param.name} ({where})", play, param.span)
        return None

    def allows(self, game, player, args) -> bool:
        """Whether every requirement holds (``refusal`` without building the refusal)."""
        return self._failing(game, player, args) is None

    def refusal(self, game, player, args) -> Optional[Violation]:
        """The play refused by the first requirement it fails, with what that requirement read when the
        game keeps reasons; None when every requirement holds."""
        frame = self._frame(game, player, args)
        stmt = self._failing(game, player, args, frame)
        if stmt is None:
            return None
        refused = Violation(stmt.cite, stmt.message, Play(self.node.name, player, tuple(args)), stmt.span)
        if game.reasons:
            refused.because = self.because(stmt)(frame) or None
        return refused

    def because(self, stmt: A.Require):
        """The reasons of a requirement's failing (``reasons.Because``), made on first need: what its
        condition and the lets before it read."""
        made = self._because.get(id(stmt))
        if made is None:
            lets = {}
            for s in self.node.body:
                if s is stmt:
                    break
                if isinstance(s, A.Let):
                    lets[s.var] = s.value
            made = self._because[id(stmt)] = self.compiler.blocks.reasons.because([stmt.condition], [], lets)
        return made

    def perform(self, game, player, args):
        """Apply the play's effect: its lets worked out, its requirements' rules exercised, its body run."""
        vars = {self.node.actor: player}
        if args:
            vars.update(zip(self.param_names, args))
        frame = Frame(game, vars, self.rule, None, acting(player))
        for var, fn in self.lets:
            vars[var] = fn(frame)
        game.exercised.update(self.cites)
        self.body(frame)

def _trigger_label(trigger: A.Trigger, title) -> tuple[str, str]:
    """How a trigger is named in ``Game.running`` (``rule 2's trigger (when ping)``), and the rule an
    error in it cites (a card's ability: none here; ``run_triggers`` cites the rule whose event it
    answers)."""
    e = trigger.event
    event = e.name if e.kind == "named" else f"{e.kind} {e.milestone} {e.name}".strip()
    if title is not None:
        return f"{title}'s ability (when {event})", ""
    return f"rule {trigger.rule}'s trigger (when {event})", trigger.rule

def _nested(check: A.Check, body):
    """A state check's body run one level deeper (``Game.enter``): a check whose own effect makes its
    condition become true again is stopped at the nesting limit, named."""
    label = f"rule {check.rule}'s state check"

    def run(frame):
        game = frame.game
        try:
            game.enter(label, check.rule, check.span)
            body(frame)
        except RecursionError:
            game.out_of_stack(check.rule, check.span)
        finally:
            game.leave()
    return run

class Program:
    """A game's rules compiled once, shared by every game of them played (a ``Game`` holds only its
    state): the procedure, plays, triggers, state checks, values and card attributes as Python functions."""

    def __init__(self, g: GameDef):
        self.compiler = c = Compiler(g)
        self.fields = [(f, c.expr(f.initial) if f.initial is not None else None,
                        c.expr(f.minimum) if f.minimum is not None else None,
                        c.expr(f.maximum) if f.maximum is not None else None) for f in g.fields.values()]
        self.boards = {}
        if g.boards:
            for name, b in g.boards.items():
                self.boards[name] = Board.parse(b.drawing, b.span)
        #: the triggers listening to each event, in the rules' order, by ``(kind, milestone, name)``
        #: (``begin``, ``phase``, ``plot``; ``named``, ``""``, ``revealed``): the compiler's lists, made
        #: before any procedure is compiled so that the code written for an event holds its own
        self.triggers = c.triggers
        for t in g.triggers:
            key = (t.event.kind, t.event.milestone, t.event.name)
            title = t.rule[5:] if t.rule.startswith("card:") else None      # a card's ability: the card's title
            # (a trigger that runs for each item of a list has it in the frame as its body starts)
            held = {t.var: c.writer.items_kind(t.iterable, {})} if t.iterable is not None else None
            self.triggers[key].append((t, c.block(t.body, held), c.expr(t.iterable) if t.iterable else None,
                                       title, _trigger_label(t, title)))
        #: each state check with ``poll(frame)``, which runs it for what has just come to hold
        self.checks = []
        for ch in g.checks:
            body = _nested(ch, c.block(ch.body))
            self.checks.append((ch, c.writer.state_check(ch, body)))
        #: which state checks read what (``reads.py``)
        self.check_bits = check_bits(c)
        self.actions = {name: CompiledAction(c, a) for name, a in g.actions.items()}
        #: (card type, attribute) pairs declared hidden: the trace says that they changed, not to what
        self.hidden_attributes = {(t.name, f.name) for t in g.card_types.values() for f in t.fields if f.hidden}
        self.values = {name: c.writer.value(v) for name, v in g.values.items()}
        children: dict[str, list] = {rid: [] for rid in g.rules}
        for rid in g.rules:
            parent = g.parent_of(rid)
            if parent is not None:
                children[parent].append(rid)
        #: what running each rule does (``Game.run_rule``), by its id: ``(span, body, steps)``, its
        #: procedure compiled (None when it has none) and its sub-rules, run in order when it has none
        self.procedures: dict[str, tuple] = {rid: (r.span, c.block(r.body, jumps=True) if r.body else None,
                                                   children[rid])
                                             for rid, r in g.rules.items()}
        self.flow = c.block(g.flow.body) if g.flow else None
        self._card_attributes: dict[str, list] = {}
        self._gamedef = g

    @staticmethod
    def of(g: GameDef) -> "Program":
        """The game's program, compiled on first use."""
        program = g.program
        if program is None:
            program = g.program = Program(g)
        return program

    def card_attributes(self, definition) -> tuple[Optional[dict], list]:
        """What gives a new card of this definition its attributes (its type's defaults, then its
        own): when every one is written as a number, text, true, false or none, a dict of them to
        copy (and no pairs); otherwise None and ``(name, value)`` pairs, worked out in order for each
        card made."""
        found = self._card_attributes.get(definition.title)
        if found is None:
            ctype = self._gamedef.card_types.get(definition.type)
            given = [(fd.name, fd.default) for fd in (ctype.fields if ctype else ()) if fd.default is not None]
            given += [(f.name, f.value) for f in definition.fields]
            if all(isinstance(x, (A.Number, A.Text)) or (isinstance(x, A.Constant) and (
                    x.value is None or isinstance(x.value, (bool, int, str)))) for _, x in given):
                found = ({name: x.value for name, x in given}, [])
            else:
                found = (None, [(name, self.compiler.expr(x)) for name, x in given])
            self._card_attributes[definition.title] = found
        return found

def _lets_where_needed(requirements) -> list:
    """The requirements in order, each ``let`` put off until just before the first requirement that
    reads it: deciding legality then skips the work a failing earlier requirement makes useless.

    Every line reads what it reads in the rules as written: the lets keep their order among themselves
    (a let is placed only with every let above it), and a requirement reads only the lets above it (the
    nearest of each name), so that a name a later ``let`` gives is, above it, the game's own. Lets and
    requirements change nothing, so the first requirement that fails is the same as in the rules' order;
    only a let whose working-out fails (a division by zero) is reported where a requirement first needs
    it, not sooner (the play, when made, works out every let in the rules' order)."""
    ordered, placed = [], -1        # the lets up to position ``placed`` are in ``ordered``
    for i, (s, fn) in enumerate(requirements):
        if isinstance(s, A.Let):
            continue
        needed: set = set()
        _lets_read(requirements, A.names_in(s.condition), i, needed)
        last = max(needed, default=-1)
        for j in range(placed + 1, last + 1):
            if isinstance(requirements[j][0], A.Let):
                ordered.append((True, requirements[j][0], requirements[j][1]))
        placed = max(placed, last)
        ordered.append((False, s, fn))
    return ordered

def _lets_read(requirements, names: set, before: int, found: set):
    """Add to ``found`` the positions of the lets above position ``before`` that ``names`` read (the
    nearest let of each name), and of the lets those read in turn."""
    names = set(names)
    for j in range(before - 1, -1, -1):
        stmt = requirements[j][0]
        if isinstance(stmt, A.Let) and stmt.var in names:
            names.discard(stmt.var)
            if j not in found:
                found.add(j)
                _lets_read(requirements, A.names_in(stmt.value), j, found)
